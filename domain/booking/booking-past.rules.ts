/**
 * Bookings in the past (docs/rules/booking.md#bookings-in-the-past). The public portal refuses them
 * (422 BOOKING_IN_PAST, booking-start.rules.ts).
 * The salon side (OWNER, ADMIN, STAFF) may create a booking whose start has passed, or move one
 * there, because recording a visit after the fact is a real need (a phone booking typed in late, a
 * visit noted at the end of the day). It is made explicit, never silent:
 * - the booking's `metadata.recordedAfterTheFact` is true (and removed again if a later move puts
 *   the start back in the future);
 * - its audit entry (CREATED or RESCHEDULED) carries `changes.recordedAfterTheFact: true`;
 * - the workflow is signalled `BookingRecordedAfterTheFact` instead of `BookingCreated` /
 *   `BookingRescheduled`, so no confirmation, reschedule notice or reminder goes to the customer.
 * Pure: importable from workflows.
 */
export const RECORDED_AFTER_THE_FACT = 'recordedAfterTheFact';

/** True when a salon-side booking starting at `start` is recorded after the fact at `now`. */
export function isRecordedAfterTheFact(start: Date, now: Date): boolean {
  return start.getTime() < now.getTime();
}

/** True when the booking metadata says it was recorded after the fact (for workflows and activities). */
export function wasRecordedAfterTheFact(metadata: Record<string, unknown> | null | undefined): boolean {
  return metadata?.[RECORDED_AFTER_THE_FACT] === true;
}
