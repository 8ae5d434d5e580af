// Side effects of the booking workflow. Each one re-reads committed state and is idempotent,
// because Temporal runs activities at least once; each message channel is its own activity.
import type { Knex } from 'knex';
import type { BookingStatus } from '../domain/booking/booking-status.rules';
import { ApplicationFailure } from '@temporalio/activity';
import type { Mailer } from '../integrations/mail/mailer';
import type { SmsSender } from '../integrations/sms/sms-sender';
import { renderBookingMessage, type BookingMessageFacts } from '../domain/notifications/booking-messages.rules';
import { recordCompletedVisit } from '../domain/customer/tenant-customer.service';
import { wasRecordedAfterTheFact } from '../domain/booking/booking-past.rules';
import { processCompletedBooking } from '../domain/loyalty/loyalty-completion.service';
import { activitySignaller } from './activity-signaller';
import { deliverOnce, type Channel, type Contact } from './message-delivery';
import { committedAt } from './read-committed';
import { bookingContract, type BookingSnapshot } from '../domain/booking/booking-events.rules';
import { BookingActivityErrors, type BookingActivities, type BookingMessageRequest, type DeliveryOutcome } from './booking.types';

export interface BookingActivityDeps {
  knex: Knex;
  mailer: Mailer;
  sms: SmsSender;
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
}

export function createBookingActivities({ knex, mailer, sms }: BookingActivityDeps): BookingActivities {
  async function bookingRow(bookingId: string, db: Knex | Knex.Transaction = knex): Promise<BookingRow | undefined> {
    return db('bookings').where({ id: bookingId }).first();
  }

  async function messageFacts(booking: BookingRow): Promise<{ contact: Contact; facts: BookingMessageFacts }> {
    const tenant = await knex('tenants').where({ id: booking.tenantId }).first('name', 'settings');
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
      },
    };
  }

  /** One message on one channel, at most once (activities/message-delivery.ts). */
  async function deliver(channel: Channel, { bookingId, kind, dedupeKey }: BookingMessageRequest): Promise<DeliveryOutcome> {
    const booking = await bookingRow(bookingId);
    if (!booking) throw ApplicationFailure.nonRetryable(`booking ${bookingId} not found`, BookingActivityErrors.notFound);
    const key = { bookingId, channel, dedupeKey };
    return deliverOnce(channel, { mailer, sms }, {
      label: `booking ${bookingId} (${dedupeKey})`,
      failureType: BookingActivityErrors.deliveryFailed,
      meta: { bookingId, kind },
      async claim() {
        await knex('booking_notifications').insert({ ...key, tenantId: booking.tenantId, kind }).onConflict(['booking_id', 'channel', 'dedupe_key']).ignore();
        return knex('booking_notifications').where(key).first('id', 'sentAt');
      },
      async compose() {
        const { contact, facts } = await messageFacts(booking);
        return { contact, message: renderBookingMessage(kind, facts) };
      },
      async markSent(id) {
        await knex('booking_notifications').where({ id }).update({ sentAt: knex.fn.now() });
      },
    });
  }

  return {
    async readBooking({ bookingId, minVersion }): Promise<BookingSnapshot> {
      const row = await bookingRow(bookingId);
      const snapshot = row && { bookingId, tenantId: row.tenantId, status: row.status, version: row.version, startTime: new Date(row.startTime).toISOString(), recordedAfterTheFact: wasRecordedAfterTheFact(row.metadata) };
      return committedAt(bookingContract, bookingId, minVersion, snapshot);
    },

    sendBookingSms: (request) => deliver('SMS', request),
    sendBookingEmail: (request) => deliver('EMAIL', request),

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
