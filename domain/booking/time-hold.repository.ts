/**
 * Holds: time a waitlist offer keeps free for the customer it was offered to
 * (docs/rules/waitlist.md#holds). A hold is booking_segments rows without a booking
 * (waitlist_round_id set) - the offered visit's parts that block, each on its staff member, room
 * or piece of equipment - active and exclusive, so booking_segments_no_overlap treats them like a
 * booking's parts: a booking over held time is refused with 409 BOOKING_CONFLICT, a hold over
 * booked time fails to insert, and availability (which reads active blocking segments) does not
 * offer it. The booking module owns the table, so the waitlist writes holds only through these
 * functions.
 */
import crypto from 'node:crypto';
import type { Transaction } from '../../db/db-handle';
import { BookingSegmentModel } from '../../db/models/booking-segment.model';
import type { HeldPart } from '../availability/availability.types';
import { segmentRows } from './booking-plan.rules';

/** Holds the parts of the offered visits that block (on their resources) for the round; throws the exclusion violation when any of it is taken. */
export async function insertTimeHolds(trx: Transaction, tenantId: string, roundId: string, parts: readonly HeldPart[]): Promise<void> {
  const held = parts.filter((p) => p.blocks && p.resourceId !== null);
  if (!held.length) return;
  const owner = { tenantId, waitlistRoundId: roundId, flags: { isActive: true, isExclusive: true } };
  await BookingSegmentModel.query(trx).insert(segmentRows(owner, [held], crypto.randomUUID));
}

/** Releases every hold of the round; the number of rows released. */
export async function releaseTimeHolds(trx: Transaction, roundId: string): Promise<number> {
  return BookingSegmentModel.query(trx).delete().where({ waitlistRoundId: roundId }).whereNull('bookingId');
}
