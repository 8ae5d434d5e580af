/**
 * Data access of the reminders the customer answers (docs/rules/reminders.md): the salon's flag of a
 * booking nobody promised to come to, the booking a reply by SMS is about, and the figures /api/metrics
 * shows. Plain rows out; the caller passes the pool or its transaction.
 */
import { fn, raw } from 'objection';
import type { Db } from '../../db/db-handle';
import { BookingModel } from '../../db/models/booking.model';
import { BookingNotificationModel } from '../../db/models/booking-notification.model';
import { returnedRows } from '../../db/plain';
import { REMINDABLE_BOOKING_STATUSES } from './booking-status.rules';

/**
 * Compare-and-set: marks the booking flagged to the salon when it is still ahead, still without a promise
 * and not flagged yet (the database's clock stamps it); false when any of those no longer holds.
 */
export async function markUnpromisedFlagged(db: Db, bookingId: string): Promise<boolean> {
  const rows = await returnedRows<{ id: string }>(
    BookingModel.query(db)
      .patch({ unpromisedFlaggedAt: fn.now() })
      .where({ id: bookingId })
      .whereIn('status', [...REMINDABLE_BOOKING_STATUSES])
      .whereNull('promisedAt')
      .whereNull('unpromisedFlaggedAt')
      .returning(['id']),
  );
  return rows.length === 1;
}

/**
 * The booking a reply from this phone is about (docs/rules/reminders.md#answering-by-sms): among
 * the bookings on the phone (E.164: the booking's contact number, or its customer's) whose start is
 * after `now`, the one whose reminder SMS went out last. Any status:
 * a reply to a booking cancelled since is answered as such. Across salons, since the gateway's
 * number is the platform's.
 */
export async function lastRemindedBookingOnPhone(db: Db, phone: string, now: Date): Promise<{ id: string; tenantId: string } | undefined> {
  const row = await BookingNotificationModel.query(db)
    .join('bookings as b', 'b.id', 'booking_notifications.bookingId')
    .leftJoin('customers as c', 'c.id', 'b.customerId')
    .where({ 'booking_notifications.kind': 'REMINDER', 'booking_notifications.channel': 'SMS' })
    .whereNotNull('booking_notifications.sentAt')
    .where('b.startTime', '>', now)
    .where((w) => w.where('b.contactPhone', phone).orWhere((c) => c.whereNull('b.contactPhone').where('c.phone', phone)))
    .orderBy('booking_notifications.sentAt', 'desc')
    .orderBy('booking_notifications.id')
    .first()
    .select('b.id as id', 'b.tenantId as tenantId');
  return row as unknown as { id: string; tenantId: string } | undefined;
}

/** A booking a reply could be about, as the answer names it: its salon, its time. */
export interface AwaitingBooking {
  id: string;
  tenantId: string;
  salonName: string;
  startTime: Date;
  endTime: Date;
  timezone: string;
}

/**
 * The bookings on the phone that await an answer (docs/rules/reminders.md#answering-by-sms): their
 * reminder SMS went out, they have not started and are still to come (PENDING or CONFIRMED), in any
 * salon; soonest first.
 */
export async function bookingsAwaitingAnswerOnPhone(db: Db, phone: string, now: Date): Promise<AwaitingBooking[]> {
  const rows = (await BookingModel.query(db)
    .join('tenants as t', 't.id', 'bookings.tenantId')
    .leftJoin('customers as c', 'c.id', 'bookings.customerId')
    .whereExists(
      BookingNotificationModel.query(db)
        .whereColumn('booking_notifications.bookingId', 'bookings.id')
        .where({ 'booking_notifications.kind': 'REMINDER', 'booking_notifications.channel': 'SMS' })
        .whereNotNull('booking_notifications.sentAt'),
    )
    .where('bookings.startTime', '>', now)
    .whereIn('bookings.status', [...REMINDABLE_BOOKING_STATUSES])
    .where((w) => w.where('bookings.contactPhone', phone).orWhere((c) => c.whereNull('bookings.contactPhone').where('c.phone', phone)))
    .orderBy('bookings.startTime')
    .orderBy('bookings.id')
    .select('bookings.id', 'bookings.tenantId', 't.name as salonName', 'bookings.startTime', 'bookings.endTime', 't.settings')) as unknown as (Omit<
    AwaitingBooking,
    'timezone'
  > & { settings: { timezone?: string } | null })[];
  return rows.map(({ settings, ...b }) => ({ ...b, timezone: settings?.timezone ?? 'Europe/Oslo' }));
}

/** One salon's figures for /api/metrics (docs/rules/reminders.md#measured). */
export interface SalonReminderFigures {
  salon: string;
  remindersSent: { SMS: number; EMAIL: number };
  promises: { LINK: number; SMS: number; STAFF: number };
  completed: number;
  noShows: number;
}

/** Per salon, counted from the rows: reminders sent by channel, promises by channel, completed visits and no-shows. */
export async function reminderFiguresBySalon(db: Db): Promise<SalonReminderFigures[]> {
  const rows = (await BookingModel.query(db)
    .join('tenants as t', 't.id', 'bookings.tenantId')
    .groupBy('t.slug')
    .select('t.slug as salon')
    .select(
      raw(`count(*) FILTER (WHERE bookings.promised_via = 'LINK')::int AS link`),
      raw(`count(*) FILTER (WHERE bookings.promised_via = 'SMS')::int AS sms`),
      raw(`count(*) FILTER (WHERE bookings.promised_via = 'STAFF')::int AS staff`),
      raw(`count(*) FILTER (WHERE bookings.status = 'COMPLETED')::int AS completed`),
      raw(`count(*) FILTER (WHERE bookings.status = 'NO_SHOW')::int AS no_shows`),
    )
    .toKnexQuery()) as { salon: string; link: number; sms: number; staff: number; completed: number; noShows: number }[];
  const sent = (await BookingNotificationModel.query(db)
    .join('tenants as t', 't.id', 'booking_notifications.tenantId')
    .where({ 'booking_notifications.kind': 'REMINDER' })
    .whereNotNull('booking_notifications.sentAt')
    .groupBy('t.slug', 'booking_notifications.channel')
    .select('t.slug as salon', 'booking_notifications.channel as channel', raw('count(*)::int AS n'))
    .toKnexQuery()) as { salon: string; channel: 'SMS' | 'EMAIL'; n: number }[];
  return rows.map((r) => ({
    salon: r.salon,
    remindersSent: {
      SMS: sent.find((s) => s.salon === r.salon && s.channel === 'SMS')?.n ?? 0,
      EMAIL: sent.find((s) => s.salon === r.salon && s.channel === 'EMAIL')?.n ?? 0,
    },
    promises: { LINK: r.link, SMS: r.sms, STAFF: r.staff },
    completed: r.completed,
    noShows: r.noShows,
  }));
}
