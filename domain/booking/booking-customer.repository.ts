/**
 * A salon customer's bookings as the areas above booking ask about them: whether something is
 * still booked (a rebooking nudge waits for it) and the language of the latest booking (a
 * voucher's messages are in it).
 */
import type { Db } from '../../db/db-handle';
import { BookingModel } from '../../db/models/booking.model';
import type { Language } from '../language/language.rules';

/** Does the customer have a booking at the salon that starts after `after` and is still on (docs/rules/series.md#rebooking-nudges)? */
export async function hasUpcomingBooking(db: Db, tenantId: string, customerId: string, after: Date): Promise<boolean> {
  const row = await BookingModel.query(db)
    .select('id')
    .where({ tenantId, customerId })
    .where('startTime', '>', after)
    .whereIn('status', ['PENDING', 'CONFIRMED', 'ARRIVED', 'IN_PROGRESS'])
    .first();
  return !!row;
}

/** The language of the customer's latest booking at the salon (its messages' language); undefined when there is none. */
export async function latestBookingLanguage(db: Db, tenantId: string, customerId: string): Promise<Language | undefined> {
  const row = await BookingModel.query(db).select('language').where({ tenantId, customerId }).orderBy('createdAt', 'desc').orderBy('id', 'desc').first();
  return row ? (row.language as Language) : undefined;
}
