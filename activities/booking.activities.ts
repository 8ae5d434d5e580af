// Side effects of the booking workflow. Each one re-reads committed state and is idempotent,
// because Temporal runs activities at least once; each message channel is its own activity.
import type { Knex } from 'knex';
import type { BookingStatus } from '../domain/booking/booking-status.rules';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Mailer } from '../integrations/mail/mailer';
import type { SmsSender } from '../integrations/sms/sms-sender';
import { renderBookingMessage, type BookingMessageFacts, type RenderedMessage } from '../domain/notifications/booking-messages.rules';
import { deliveryRetryDelayMs } from '../domain/notifications/delivery-retry.rules';
import { recordCompletedVisit } from '../domain/customer/tenant-customer.service';
import { wasRecordedAfterTheFact } from '../domain/booking/booking-past.rules';
import { processCompletedBooking } from '../domain/loyalty/loyalty-completion.service';
import { activitySignaller } from './activity-signaller';
import { BookingActivityErrors, type BookingActivities, type BookingMessageRequest, type BookingSnapshot, type DeliveryOutcome } from './booking.types';
import { calendarAttachment, manageUrlOf, type BookingLinkConfig, type LinkedSalon } from './booking-message-links';

export interface BookingActivityDeps {
  knex: Knex;
  mailer: Mailer;
  sms: SmsSender;
  /** manage links and calendar invitations in the messages; unset (some workflow tests): plain text only */
  links?: BookingLinkConfig;
}

type Channel = 'SMS' | 'EMAIL';

interface Contact {
  phone: string | null;
  email: string | null;
}

interface BookingRow {
  id: string;
  tenantId: string;
  customerId: string | null;
  status: BookingStatus;
  version: number;
  startTime: Date;
  endTime: Date;
  totalAmount: number;
  discountAmount: number;
  metadata: { displaySnapshot?: { timezone?: string }; [key: string]: unknown };
  contactName: string | null;
  contactPhone: string | null;
  contactEmail: string | null;
  cancellationTokenHash: string | null;
}

export function createBookingActivities({ knex, mailer, sms, links }: BookingActivityDeps): BookingActivities {
  async function bookingRow(bookingId: string, db: Knex | Knex.Transaction = knex): Promise<BookingRow | undefined> {
    return db('bookings').where({ id: bookingId }).first();
  }

  async function messageFacts(booking: BookingRow): Promise<{ contact: Contact; facts: BookingMessageFacts; salon: LinkedSalon }> {
    const tenant = await knex('tenants').where({ id: booking.tenantId }).first('name', 'slug', 'address', 'settings');
    const items: { serviceName: string; resourceName: string | null }[] = await knex('booking_items as i')
      .join('services as s', 's.id', 'i.service_id')
      .leftJoin('resources as r', 'r.id', 'i.resource_id')
      .where('i.booking_id', booking.id)
      .orderBy('i.sort_order')
      .select('s.name as serviceName', 'r.name as resourceName');
    const customer = booking.customerId ? await knex('customers').where({ id: booking.customerId }).first('name', 'phone', 'email') : undefined;
    return {
      contact: {
        phone: booking.contactPhone ?? customer?.phone ?? null,
        email: booking.contactEmail ?? customer?.email ?? null,
      },
      facts: {
        salonName: tenant.name as string,
        customerName: booking.contactName ?? customer?.name ?? 'kunde',
        startTime: new Date(booking.startTime),
        timezone: booking.metadata?.displaySnapshot?.timezone ?? tenant.settings.timezone,
        services: items.map((i) => i.serviceName),
        staffName: items[0]?.resourceName ?? null,
        manageUrl: manageUrlOf(links, tenant, booking),
      },
      salon: tenant,
    };
  }

  /**
   * One message on one channel, at most once: the (booking, channel, dedupe key) row is claimed
   * first and stamped `sent_at` after the gateway accepted the message, so a retry after a failure
   * sends again, and a retry after success sends nothing. The other channel has its own row.
   */
  async function deliverOnce(
    channel: Channel,
    { bookingId, kind, dedupeKey }: BookingMessageRequest,
    send: (contact: Contact, message: RenderedMessage, meta: Record<string, unknown>, about: { booking: BookingRow; facts: BookingMessageFacts; salon: LinkedSalon }) => Promise<boolean>,
  ): Promise<DeliveryOutcome> {
    const booking = await bookingRow(bookingId);
    if (!booking) throw ApplicationFailure.nonRetryable(`booking ${bookingId} not found`, BookingActivityErrors.notFound);
    const key = { bookingId, channel, dedupeKey };
    await knex('booking_notifications').insert({ ...key, tenantId: booking.tenantId, kind }).onConflict(['booking_id', 'channel', 'dedupe_key']).ignore();
    const claim = await knex('booking_notifications').where(key).first('id', 'sentAt');
    if (claim.sentAt) return 'ALREADY_SENT';
    const { contact, facts, salon } = await messageFacts(booking);
    // the notification id doubles as the provider's idempotency key, for gateways that take one
    const meta = { bookingId, kind, notificationId: claim.id };
    try {
      if (!(await send(contact, renderBookingMessage(kind, facts), meta, { booking, facts, salon }))) return 'NO_CONTACT';
    } catch (err) {
      throw ApplicationFailure.create({
        type: BookingActivityErrors.deliveryFailed,
        message: `${channel} for booking ${bookingId} (${dedupeKey}) failed: ${(err as Error).message}`,
        cause: err as Error,
        // 30 s, 2 min, 10 min, then hourly
        nextRetryDelay: deliveryRetryDelayMs(Context.current().info.attempt),
      });
    }
    await knex('booking_notifications').where({ id: claim.id }).update({ sentAt: knex.fn.now() });
    return 'SENT';
  }

  return {
    async readBooking({ bookingId, minVersion }): Promise<BookingSnapshot> {
      const row = await bookingRow(bookingId);
      // A missing row or an older version both mean "not committed yet": retried, then dropped.
      if (!row || row.version < minVersion) {
        throw ApplicationFailure.retryable(`booking ${bookingId} not yet at version ${minVersion}`, BookingActivityErrors.versionNotVisible);
      }
      return { bookingId, tenantId: row.tenantId, status: row.status, version: row.version, startTime: new Date(row.startTime).toISOString(), recordedAfterTheFact: wasRecordedAfterTheFact(row.metadata) };
    },

    sendBookingSms(request) {
      return deliverOnce('SMS', request, async (contact, message, meta) => {
        if (!contact.phone) return false;
        await sms.send({ to: contact.phone, text: message.text, meta });
        return true;
      });
    },

    sendBookingEmail(request) {
      return deliverOnce('EMAIL', request, async (contact, message, meta, { booking, facts, salon }) => {
        if (!contact.email) return false;
        const invitation = calendarAttachment(links, request.kind, { salon, booking, timezone: facts.timezone, services: facts.services, staffName: facts.staffName ?? null, manageUrl: facts.manageUrl ?? null, to: contact.email });
        await mailer.send({ to: contact.email, subject: message.subject, text: message.text, meta, ...(invitation ? { attachments: [invitation] } : {}) });
        return true;
      });
    },

    async recordCompletedVisit({ bookingId }) {
      return knex.transaction(async (trx) => {
        const booking = await bookingRow(bookingId, trx);
        if (!booking) throw ApplicationFailure.nonRetryable(`booking ${bookingId} not found`, BookingActivityErrors.notFound);
        if (booking.status !== 'COMPLETED') return 'NOT_COMPLETED' as const;
        if (!booking.customerId) return 'NO_CUSTOMER' as const;
        const { recorded } = await recordCompletedVisit(trx, {
          tenantId: booking.tenantId,
          customerId: booking.customerId,
          bookingId,
          amount: Math.max(0, booking.totalAmount - booking.discountAmount),
          visitedAt: new Date(booking.startTime),
        });
        // stamps, points and the voucher redeem, once per booking (processedForLoyalty claim)
        await processCompletedBooking(trx, activitySignaller, bookingId);
        return recorded ? 'RECORDED' : 'ALREADY_RECORDED';
      });
    },
  };
}
