// Side effects of the booking workflow. Each one re-reads committed state and is idempotent,
// because Temporal runs activities at least once; each message channel is its own activity.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Db } from '../db/db-handle';
import type { Mailer } from '../integrations/mail/mailer';
import type { SmsSender } from '../integrations/sms/sms-sender';
import { renderBookingMessage, type BookingMessageFacts, type RenderedMessage } from '../domain/notifications/booking-messages.rules';
import { deliveryRetryDelayMs } from '../domain/notifications/delivery-retry.rules';
import { recordCompletedVisit } from '../domain/customer/tenant-customer.service';
import { wasRecordedAfterTheFact } from '../domain/booking/booking-past.rules';
import { processCompletedBooking } from '../domain/loyalty/loyalty-completion.service';
import { bookingById, itemNamesOf } from '../domain/booking/booking.repository';
import { claimBookingNotification, markBookingNotificationSent } from '../domain/booking/booking-notification.repository';
import type { BookingRow } from '../domain/booking/booking.types';
import { findTenant } from '../domain/tenant/tenant.repository';
import { findCustomer } from '../domain/customer/customer.repository';
import { nowOf, type Clock } from '../domain/time/clock';
import { activitySignaller } from './activity-signaller';
import { BookingActivityErrors, type BookingActivities, type BookingMessageRequest, type BookingSnapshot, type DeliveryOutcome } from './booking.types';

export interface BookingActivityDeps {
  knex: Db;
  mailer: Mailer;
  sms: SmsSender;
  /** unset: the system clock */
  now?: Clock;
}

type Channel = 'SMS' | 'EMAIL';

interface Contact {
  phone: string | null;
  email: string | null;
}

export function createBookingActivities(deps: BookingActivityDeps): BookingActivities {
  const { knex, mailer, sms } = deps;

  async function messageFacts(booking: BookingRow): Promise<{ contact: Contact; facts: BookingMessageFacts }> {
    const tenant = (await findTenant(knex, booking.tenantId))!;
    const items = await itemNamesOf(knex, booking.id);
    const customer = booking.customerId ? await findCustomer(knex, booking.tenantId, booking.customerId) : undefined;
    return {
      contact: {
        phone: booking.contactPhone ?? customer?.phone ?? null,
        email: booking.contactEmail ?? customer?.email ?? null,
      },
      facts: {
        salonName: tenant.name,
        customerName: booking.contactName ?? customer?.name ?? 'kunde',
        startTime: new Date(booking.startTime),
        timezone: booking.metadata?.displaySnapshot?.timezone ?? tenant.settings.timezone,
        services: items.map((i) => i.serviceName),
        staffName: items[0]?.resourceName ?? null,
      },
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
    send: (contact: Contact, message: RenderedMessage, meta: Record<string, unknown>) => Promise<boolean>,
  ): Promise<DeliveryOutcome> {
    const booking = await bookingById(knex, bookingId);
    if (!booking) throw ApplicationFailure.nonRetryable(`booking ${bookingId} not found`, BookingActivityErrors.notFound);
    const claim = await claimBookingNotification(knex, { bookingId, channel, dedupeKey }, { tenantId: booking.tenantId, kind });
    if (claim.sentAt) return 'ALREADY_SENT';
    const { contact, facts } = await messageFacts(booking);
    // the notification id doubles as the provider's idempotency key, for gateways that take one
    const meta = { bookingId, kind, notificationId: claim.id };
    try {
      if (!(await send(contact, renderBookingMessage(kind, facts), meta))) return 'NO_CONTACT';
    } catch (err) {
      throw ApplicationFailure.create({
        type: BookingActivityErrors.deliveryFailed,
        message: `${channel} for booking ${bookingId} (${dedupeKey}) failed: ${(err as Error).message}`,
        cause: err as Error,
        // 30 s, 2 min, 10 min, then hourly
        nextRetryDelay: deliveryRetryDelayMs(Context.current().info.attempt),
      });
    }
    await markBookingNotificationSent(knex, claim.id);
    return 'SENT';
  }

  return {
    async readBooking({ bookingId, minVersion }): Promise<BookingSnapshot> {
      const row = await bookingById(knex, bookingId);
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
      return deliverOnce('EMAIL', request, async (contact, message, meta) => {
        if (!contact.email) return false;
        await mailer.send({ to: contact.email, subject: message.subject, text: message.text, meta });
        return true;
      });
    },

    async recordCompletedVisit({ bookingId }) {
      return knex.transaction(async (trx) => {
        const booking = await bookingById(trx, bookingId);
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
        await processCompletedBooking(trx, activitySignaller, bookingId, nowOf(deps));
        return recorded ? 'RECORDED' : 'ALREADY_RECORDED';
      });
    },
  };
}
