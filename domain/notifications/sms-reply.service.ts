/**
 * A customer's reply to a reminder by SMS (docs/rules/reminders.md#answering-by-sms): POST
 * /webhooks/sms/sveve. The reply is matched to the booking on the sender's phone whose reminder went
 * out last, unless more than one awaits an answer (then nothing changes and the answer names them);
 * "JA"/"YES" is the customer's promise to come, "NEI"/"NO" cancels it under the salon's policy (the manage page's
 * rules: inside the free window only, the deposit as the policy says), anything else gets a short help
 * answer. The answer goes back through the SmsSender port and tells what happened.
 *
 * Exactly once: the reply is claimed by the gateway's message id in the same transaction as the
 * booking's change, so a redelivered reply changes nothing; its answer is sent after the commit and
 * stamped, and a redelivery of a reply whose answer never went out sends that answer (the gateway
 * redelivers until it gets a 2xx, so a failed answer is tried again then).
 */
import crypto from 'node:crypto';
import { errors } from '../errors';
import type { SmsSender } from './sms-sender';
import type { BookingMessageFacts } from './booking-messages.rules';
import { renderReplyAnswer, renderWhichBooking, type DepositFacts, type ReplyOutcome } from './reminder-reply-messages.rules';
import { senderPhone, SMS_REPLY_MAX_LENGTH } from './sms-reply.rules';
import { claimSmsReply, findSmsReply, markSmsReplyAnswered, recordSmsReplyOutcome } from './sms-reply.repository';
import { replyIntent, type ReplyIntent } from '../booking/booking-reminder.rules';
import { bookingsAwaitingAnswerOnPhone, lastRemindedBookingOnPhone } from '../booking/booking-reminder.repository';
import { applyPromise } from '../booking/booking-promise.service';
import { applyCancellation, customerCancelPreview } from '../booking/booking-cancel.service';
import { isWithinFreeCancellationWindow } from '../booking/cancellation.rules';
import { lockBookingRow } from '../booking/booking.repository';
import { messagePartiesOf } from '../booking/booking-message.repository';
import { reissueManageToken, manageLinkPath } from '../booking/manage-link.service';
import { isRemindable } from '../booking/booking-status.rules';
import { GUEST_ACTOR, type BookingDeps, type BookingRow } from '../booking/booking.types';
import type { Transaction } from '../../db/db-handle';
import { tenantById } from '../tenant/tenant-context';
import { DEFAULT_PHONE_REGION, phoneRegionOf, smsReaches } from '../phone/phone.rules';
import { nowOf } from '../time/clock';

export interface SmsReplyDeps {
  bookings: BookingDeps;
  sms: SmsSender;
  /** PUBLIC_BASE_URL: the manage page's link in a help answer */
  publicBaseUrl: string;
}

/** One inbound SMS as the webhook read it from the gateway's callback. */
export interface InboundSms {
  gateway: 'SVEVE';
  /** the gateway's id of the inbound message: a redelivery carries the same */
  messageId: string;
  /** the sender's number as the gateway wrote it */
  from: string;
  text: string;
}

export interface SmsReplyResult {
  outcome: ReplyOutcome;
  bookingId: string | null;
  /** true when this message id was received before: nothing was changed again */
  duplicate: boolean;
  /** whether the answer has gone out (false: the gateway should deliver again) */
  answered: boolean;
}

/** The webhook's answer: `result`, and `outcome`, its released name, in the words it was released with (docs/api/changelog.md: kept until 2027-06-01). */
export function smsReplyAck(result: SmsReplyResult) {
  const released: Partial<Record<ReplyOutcome, string>> = { PROMISED: 'CONFIRMED', ALREADY_PROMISED: 'ALREADY_CONFIRMED' };
  return { result: result.outcome, outcome: released[result.outcome] ?? result.outcome, bookingId: result.bookingId, duplicate: result.duplicate };
}

/**
 * The webhook's shared secret (Sveve signs nothing: the URL set in its account carries `key`),
 * compared in constant time; 401 when it is missing or wrong, before anything is read or written.
 */
export function checkReplyKey(given: unknown, expected: string): void {
  const a = crypto
    .createHash('sha256')
    .update(typeof given === 'string' ? given : '')
    .digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  if (typeof given !== 'string' || given.length === 0 || !crypto.timingSafeEqual(a, b)) throw errors.unauthorized('A valid SMS webhook key is required');
}

/**
 * Sveve's callback fields (from the query of a GET, or the form of a POST; a POST's form wins):
 * `number`, `msg`, `id`. A callback without them is 400 naming the field.
 */
export function sveveInbound(fields: Record<string, unknown>): InboundSms {
  const field = (name: string, max: number): string => {
    const value = fields[name];
    if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
      throw errors.validation('Request validation failed', [{ field: name, message: `is required (at most ${max} characters)` }]);
    }
    return value;
  };
  return { gateway: 'SVEVE', from: field('number', 40), text: field('msg', 2000), messageId: field('id', 100).trim() };
}

export async function receiveSmsReply(deps: SmsReplyDeps, inbound: InboundSms): Promise<SmsReplyResult> {
  const { knex } = deps.bookings;
  const to = senderPhone(inbound.from);
  if (!to) throw errors.validation('Request validation failed', [{ field: 'number', message: 'must be a phone number' }]);
  const text = inbound.text.slice(0, SMS_REPLY_MAX_LENGTH);
  const intent = replyIntent(text);
  const now = nowOf(deps.bookings);

  const handled = await knex.transaction(async (trx) => {
    const id = await claimSmsReply(trx, { gateway: inbound.gateway, gatewayMessageId: inbound.messageId, fromPhone: to, text, intent });
    if (!id) return undefined;
    const result = await decide(deps, trx, intent, to, now);
    await recordSmsReplyOutcome(trx, id, result);
    return { id, ...result };
  });

  if (!handled) {
    // a redelivery: the first delivery's outcome; its answer again only when it never went out
    const first = (await findSmsReply(knex, inbound.gateway, inbound.messageId))!;
    const answered = first.answeredAt !== null || (await answer(deps, first, first.fromPhone, first.answer));
    return { outcome: first.outcome as ReplyOutcome, bookingId: first.bookingId, duplicate: true, answered };
  }
  const answered = await answer(deps, handled, to, handled.answer);
  return { outcome: handled.outcome, bookingId: handled.bookingId, duplicate: false, answered };
}

/**
 * Sends the answer and stamps it; false when the gateway refused it (a redelivery tries again). A
 * number of another country than the salon's the reply is about (Norway's, when it is about none)
 * gets no answer (docs/rules/messages.md#numbers-of-other-countries): nothing is sent, nothing to try again.
 */
async function answer(deps: SmsReplyDeps, reply: { id: string; tenantId: string | null }, to: string, text: string): Promise<boolean> {
  const region = reply.tenantId ? phoneRegionOf(await tenantById(deps.bookings.knex, reply.tenantId)) : DEFAULT_PHONE_REGION;
  if (!smsReaches(to, region)) return true;
  const id = reply.id;
  try {
    await deps.sms.send({ to, text, meta: { smsReplyId: id, kind: 'REPLY_ANSWER' } });
  } catch {
    return false;
  }
  await markSmsReplyAnswered(deps.bookings.knex, id);
  return true;
}

/** What the reply does to the booking it is about, inside the claim's transaction, and the answer. */
async function decide(
  deps: SmsReplyDeps,
  trx: Transaction,
  intent: ReplyIntent,
  phone: string,
  now: Date,
): Promise<{ tenantId: string | null; bookingId: string | null; outcome: ReplyOutcome; answer: string }> {
  // a phone anyone may book with can have another's booking awaiting an answer too: which one is not guessed
  const awaiting = await bookingsAwaitingAnswerOnPhone(trx, phone, now);
  if (awaiting.length > 1) return { tenantId: null, bookingId: null, outcome: 'WHICH_BOOKING', answer: renderWhichBooking(awaiting) };
  // one awaiting is the one meant; none: the last reminded, to answer what became of it
  const match = awaiting[0] ?? (await lastRemindedBookingOnPhone(trx, phone, now));
  if (!match) {
    const outcome: ReplyOutcome = intent === 'OTHER' ? 'HELP' : 'NO_BOOKING';
    return { tenantId: null, bookingId: null, outcome, answer: renderReplyAnswer(outcome, null, 'nb') };
  }
  const bdeps: BookingDeps = { ...deps.bookings, knex: trx };
  const tenant = await tenantById(trx, match.tenantId);
  // locked: a move, a cancellation or another reply waits for this one (and this one for them)
  const row = await lockBookingRow(trx, tenant.id, match.id);
  let outcome: ReplyOutcome;
  let deposit: DepositFacts | undefined;
  if (intent === 'OTHER') outcome = 'HELP';
  else if (row.status === 'CANCELLED') outcome = 'ALREADY_CANCELLED';
  else if (!isRemindable(row.status)) outcome = 'FINISHED';
  else if (intent === 'PROMISE') outcome = await applyPromise(bdeps, trx, row, GUEST_ACTOR, 'SMS', now);
  else if (!isWithinFreeCancellationWindow(new Date(row.startTime), now, tenant.settings.cancellationHours)) {
    const preview = await customerCancelPreview(bdeps, tenant, row);
    outcome = 'WINDOW_CLOSED';
    deposit = {
      action: preview.deposit === 'NONE' ? 'NONE' : 'FORFEIT',
      amount: preview.depositAmount,
      currency: currencyOf(row),
      freeUntil: new Date(preview.freeCancellationUntil),
    };
  } else {
    const done = await applyCancellation(bdeps, trx, tenant, row, GUEST_ACTOR, { bySalon: false, reason: 'Avbestilt med svar på SMS', now });
    outcome = 'CANCELLED';
    const action = done.action === 'REFUND_FULL' || done.action === 'VOID' ? done.action : 'NONE';
    deposit = { action, amount: action === 'REFUND_FULL' ? done.refundAmount : done.depositAmount, currency: currencyOf(row) };
  }
  const facts = await answerFacts(deps, trx, row);
  return { tenantId: row.tenantId, bookingId: row.id, outcome, answer: renderReplyAnswer(outcome, facts, row.language, deposit) };
}

function currencyOf(row: BookingRow): string {
  return row.metadata.displaySnapshot.currency;
}

/** The booking as the answer names it: its time now (a moved booking's new time), salon and services. */
async function answerFacts(deps: SmsReplyDeps, trx: Transaction, row: BookingRow): Promise<BookingMessageFacts> {
  const { salon, items, customer } = await messagePartiesOf(trx, row);
  const token = reissueManageToken(deps.bookings.manageLinkKey, row.id, row.manageTokenHash);
  return {
    salonName: salon.name,
    salonContact: { phone: salon.contactPhone, email: salon.contactEmail },
    customerName: row.contactName ?? customer?.name ?? (row.language === 'en' ? 'customer' : 'kunde'),
    startTime: new Date(row.startTime),
    endTime: new Date(row.endTime),
    timezone: row.metadata.displaySnapshot.timezone ?? salon.timezone,
    services: items.map((i) => i.serviceName),
    staffName: items[0]?.resourceName ?? null,
    manageUrl: token ? `${deps.publicBaseUrl}${manageLinkPath(salon.slug, row.id, token)}` : null,
  };
}
