/**
 * Holds: time a waitlist offer keeps free for the customer it was offered to
 * (docs/rules/waitlist.md#holds). A hold is a booking_items row without a booking (waitlist_round_id
 * set), active and exclusive, so booking_items_no_overlap treats it like a booked item: a booking
 * over held time is refused with 409 BOOKING_CONFLICT, a hold over booked time fails to insert, and
 * availability (which reads active items) does not offer it. The booking module owns the table, so
 * the waitlist writes holds only through these functions.
 */
import type { Transaction } from '../../db/db-handle';
import { BookingItemModel } from '../../db/models/booking-item.model';

export interface TimeHold {
  resourceId: string;
  start: Date;
  end: Date;
}

/** Holds `holds` for the round; throws the exclusion violation when any of it is taken. */
export async function insertTimeHolds(trx: Transaction, tenantId: string, roundId: string, holds: readonly TimeHold[]): Promise<void> {
  if (!holds.length) return;
  const rows = holds.map((h) => ({
    tenantId,
    waitlistRoundId: roundId,
    bookingId: null,
    serviceId: null,
    resourceId: h.resourceId,
    startTime: h.start,
    endTime: h.end,
    duration: Math.max(1, Math.round((h.end.getTime() - h.start.getTime()) / 60_000)),
    price: 0,
    sortOrder: 0,
    isActive: true,
    isExclusive: true,
  }));
  await BookingItemModel.query(trx).insert(rows as unknown as Partial<BookingItemModel>[]);
}

/** Releases every hold of the round; the number of rows released. */
export async function releaseTimeHolds(trx: Transaction, roundId: string): Promise<number> {
  return BookingItemModel.query(trx).delete().where({ waitlistRoundId: roundId }).whereNull('bookingId');
}
