// Side effects of the booking workflow. Each one re-reads committed state and is idempotent,
// because Temporal runs activities at least once.
import type { Knex } from 'knex';
import { ApplicationFailure } from '@temporalio/activity';
import type { Mailer } from '../integrations/mail/mailer';
import type { SmsSender } from '../integrations/sms/sms-sender';
import { renderBookingMessage, type BookingMessageKind } from '../domain/notifications/booking-messages.rules';
import { recordCompletedVisit } from '../domain/customer/tenant-customer.service';
import { BookingActivityErrors, type BookingActivities, type BookingSnapshot } from './booking.types';

export interface BookingActivityDeps {
  knex: Knex;
  mailer: Mailer;
  sms: SmsSender;
}

interface BookingRow {
  id: string;
  tenantId: string;
  customerId: string | null;
  status: string;
  version: number;
  startTime: Date;
  endTime: Date;
  totalAmount: number;
  discountAmount: number;
  metadata: { displaySnapshot?: { timezone?: string } };
  contactName: string | null;
  contactPhone: string | null;
  contactEmail: string | null;
}

export function createBookingActivities({ knex, mailer, sms }: BookingActivityDeps): BookingActivities {
  async function bookingRow(bookingId: string, db: Knex | Knex.Transaction = knex): Promise<BookingRow | undefined> {
    return db('bookings').where({ id: bookingId }).first();
  }

  async function messageFacts(booking: BookingRow) {
    const tenant = await knex('tenants').where({ id: booking.tenantId }).first('name', 'settings');
    const items: { serviceName: string; resourceName: string | null }[] = await knex('booking_items as i')
      .join('services as s', 's.id', 'i.service_id')
      .leftJoin('resources as r', 'r.id', 'i.resource_id')
      .where('i.booking_id', booking.id)
      .orderBy('i.sort_order')
      .select('s.name as serviceName', 'r.name as resourceName');
    const customer = booking.customerId ? await knex('customers').where({ id: booking.customerId }).first('name', 'phone', 'email') : undefined;
    return {
      phone: booking.contactPhone ?? customer?.phone ?? null,
      email: booking.contactEmail ?? customer?.email ?? null,
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

  return {
    async readBooking({ bookingId, minVersion }): Promise<BookingSnapshot> {
      const row = await bookingRow(bookingId);
      // A missing row or an older version both mean "not committed yet": retried, then dropped.
      if (!row || row.version < minVersion) {
        throw ApplicationFailure.retryable(`booking ${bookingId} not yet at version ${minVersion}`, BookingActivityErrors.versionNotVisible);
      }
      return { bookingId, tenantId: row.tenantId, status: row.status, version: row.version, startTime: new Date(row.startTime).toISOString() };
    },

    async sendBookingMessage({ bookingId, kind, dedupeKey }: { bookingId: string; kind: BookingMessageKind; dedupeKey: string }) {
      const booking = await bookingRow(bookingId);
      if (!booking) throw ApplicationFailure.nonRetryable(`booking ${bookingId} not found`, BookingActivityErrors.notFound);
      const claimed = await knex('booking_notifications')
        .insert({ bookingId, tenantId: booking.tenantId, kind, dedupeKey })
        .onConflict(['booking_id', 'dedupe_key'])
        .ignore()
        .returning('id');
      if (!claimed.length) {
        const existing = await knex('booking_notifications').where({ bookingId, dedupeKey }).first('sentAt');
        if (existing?.sentAt) return 'ALREADY_SENT';
      }
      const { phone, email, facts } = await messageFacts(booking);
      if (!phone && !email) return 'NO_CONTACT';
      const message = renderBookingMessage(kind, facts);
      const channels: string[] = [];
      const meta = { bookingId, kind };
      if (phone) {
        await sms.send({ to: phone, text: message.text, meta });
        channels.push('SMS');
      }
      if (email) {
        await mailer.send({ to: email, subject: message.subject, text: message.text, meta });
        channels.push('EMAIL');
      }
      await knex('booking_notifications').where({ bookingId, dedupeKey }).update({ channels, sentAt: knex.fn.now() });
      return 'SENT';
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
        return recorded ? 'RECORDED' : 'ALREADY_RECORDED';
      });
    },
  };
}
