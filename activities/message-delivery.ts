// One customer message on one channel, at most once, for every entity workflow that sends messages
// (booking, voucher): the entity's notification row is claimed first and stamped sent after the
// gateway accepted the message, so a retry after a failure sends again and a retry after success
// sends nothing; each channel has its own row, so a failing e-mail never resends the SMS. A failed
// send is retried on the delivery schedule (docs/rules/messages.md#delivery-schedule).
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { MailAttachment, Mailer } from '../domain/notifications/mailer';
import type { SmsSender } from '../domain/notifications/sms-sender';
import type { RenderedMessage } from '../domain/notifications/booking-messages.rules';
import { deliveryRetryDelayMs } from '../domain/notifications/delivery-retry.rules';
import { smsReaches, smsRecipient, type PhoneRegion } from '../domain/phone/phone.rules';
import type { DeliveryOutcome } from './booking.types';
import { withoutContacts } from '../domain/personal-data/personal-data.rules';

export type Channel = 'SMS' | 'EMAIL';

export interface Contact {
  phone: string | null;
  email: string | null;
  /**
   * The salon's country: only its numbers get the salon's SMS (docs/rules/messages.md#numbers-of-other-countries);
   * null for a message of no salon's (an account's phone code), which any number gets.
   */
  smsCountry: PhoneRegion | null;
}

export interface Gateways {
  mailer: Mailer;
  sms: SmsSender;
}

export interface Delivery {
  /** names the message in the failure, e.g. `booking <id> (REMINDER:...)` */
  label: string;
  /** the ApplicationFailure type of a failed send (retried on the delivery schedule) */
  failureType: string;
  /** passed to the gateway with the notification id (gateways that take an idempotency key use it) */
  meta: Record<string, unknown>;
  /** claims the (entity, channel, dedupe key) notification row, or finds the claim of an earlier attempt */
  claim(): Promise<{ id: string; sentAt: unknown }>;
  /** who to send to, and what (attachments go with an e-mail only) */
  compose(): Promise<{ contact: Contact; message: RenderedMessage; attachments?: MailAttachment[] }>;
  /** stamps the row sent, with where it went and what it said (an export shows them; an erasure clears them) */
  markSent(notificationId: string, sent: SentCopy): Promise<void>;
}

/** What went out on a channel: the address and the text (docs/rules/personal-data.md#what-is-kept). */
export interface SentCopy {
  to: string;
  text: string;
}

export async function deliverOnce(channel: Channel, gateways: Gateways, delivery: Delivery): Promise<DeliveryOutcome> {
  const claim = await delivery.claim();
  if (claim.sentAt) return 'ALREADY_SENT';
  const composed = await delivery.compose();
  const meta = { ...delivery.meta, notificationId: claim.id };
  let sent: SentCopy | 'NO_CONTACT' | 'ABROAD';
  try {
    sent = await sendOn(channel, gateways, composed, meta);
  } catch (err) {
    // the failure lands in the workflow's history: the gateway's words, without the address they may quote
    throw ApplicationFailure.create({
      type: delivery.failureType,
      message: `${channel} for ${delivery.label} failed: ${withoutContacts((err as Error).message)}`,
      // 30 s, 2 min, 10 min, then hourly
      nextRetryDelay: deliveryRetryDelayMs(Context.current().info.attempt),
    });
  }
  if (sent === 'NO_CONTACT' || sent === 'ABROAD') return sent;
  await delivery.markSent(claim.id, sent);
  return 'SENT';
}

/** What went out; NO_CONTACT when the contact has no address on this channel, ABROAD when its number is of another country than the salon's. */
async function sendOn(
  channel: Channel,
  { mailer, sms }: Gateways,
  { contact, message, attachments }: { contact: Contact; message: RenderedMessage; attachments?: MailAttachment[] },
  meta: Record<string, unknown>,
): Promise<SentCopy | 'NO_CONTACT' | 'ABROAD'> {
  if (channel === 'SMS') {
    if (!contact.phone) return 'NO_CONTACT';
    if (contact.smsCountry && !smsReaches(contact.phone, contact.smsCountry)) return 'ABROAD';
    const to = smsRecipient(contact.phone);
    await sms.send({ to, text: message.text, meta });
    return { to, text: message.text };
  }
  if (!contact.email) return 'NO_CONTACT';
  await mailer.send({ to: contact.email, subject: message.subject, text: message.text, meta, ...(attachments?.length ? { attachments } : {}) });
  return { to: contact.email, text: message.text };
}
