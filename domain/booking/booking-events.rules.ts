// The booking's workflow contract (docs/rules/consistency.md#the-entity-contract): one workflow per
// booking, `bookingWorkflow` with id `booking:<id>`, told about every committed change by the signal
// `bookingEvent` `{type, entityVersion}`, reading the booking as a BookingSnapshot.
// Pure: imported by the booking services, the activities and the workflow.
import { entityContract, type EntityEvent } from '../workflow-signals/entity-contract.rules';
import type { BookingStatus } from './booking-status.rules';

export type BookingEventType =
  | 'BookingCreated'
  | 'BookingConfirmed'
  | 'BookingArrived'
  | 'BookingStarted'
  | 'BookingCompleted'
  | 'BookingCancelled'
  | 'BookingCancelledBySalon'
  | 'BookingMarkedNoShow'
  | 'BookingRescheduled'
  // staff change (PATCH resourceId, self-pick) and other edits (notes): the workflow may ignore them
  | 'BookingReassigned'
  | 'BookingUpdated'
  // the customer promised to come (docs/rules/reminders.md#promising-to-come): no flag to the salon
  | 'BookingPromised'
  // created in, or moved into, the past by the salon (a visit recorded after the fact, see
  // booking-past.rules.ts): the workflow sends the customer nothing for it (no confirmation, no
  // reschedule notice, no reminder) but still records the visit once the booking is completed
  | 'BookingRecordedAfterTheFact';

export type BookingEvent = EntityEvent<BookingEventType>;

export interface BookingWorkflowArgs {
  bookingId: string;
  tenantId: string;
}

/** The booking as its workflow reads it (the read activity, once the event's version committed). */
export interface BookingSnapshot {
  bookingId: string;
  tenantId: string;
  status: BookingStatus;
  version: number;
  /** UTC ISO string */
  startTime: string;
  /** a past visit the salon recorded (booking-past.rules.ts): the customer is told nothing */
  recordedAfterTheFact: boolean;
  /**
   * The salon's reminder and flag times in ms before the start, and when the customer promised to
   * come (docs/rules/reminders.md). Absent in snapshots recorded before they existed: 24 hours, no flag.
   */
  reminderLeadMs?: number;
  unpromisedFlagLeadMs?: number | null;
  promisedAt?: string | null;
  /**
   * The deposit (docs/rules/payments.md#deposits-at-any-distance): SCHEDULED or REQUESTED while it is
   * owed later, and the salon's deadline in hours before the start. Absent in snapshots recorded before them.
   */
  depositStatus?: string | null;
  depositDeadlineHours?: number;
  /** The same two under the names snapshots were recorded with before migration 180 (a run replays its history as recorded). */
  unconfirmedFlagLeadMs?: number | null;
  confirmedAt?: string | null;
}

/** The snapshot's flag time and promise, whichever names it was recorded with. */
export function promiseOf(snapshot: BookingSnapshot): { flagLeadMs: number | null; promisedAt: string | null } {
  return {
    flagLeadMs: snapshot.unpromisedFlagLeadMs ?? snapshot.unconfirmedFlagLeadMs ?? null,
    promisedAt: snapshot.promisedAt ?? snapshot.confirmedAt ?? null,
  };
}

export const bookingContract = entityContract<BookingEventType, BookingWorkflowArgs, BookingSnapshot>({
  entity: 'booking',
  startArgs: (b) => ({ bookingId: b.id, tenantId: b.tenantId }),
});
