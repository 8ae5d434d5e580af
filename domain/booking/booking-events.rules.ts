// The booking's workflow contract (docs/rules/consistency.md#one-workflow-per-entity): one workflow per booking with id
// `booking:<id>`, told about every committed change by a small signal `{type, entityVersion}`.
// Pure and dependency-free: imported by the booking service, the Temporal signaller and the workflow.

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
  // created in, or moved into, the past by the salon (a visit recorded after the fact, see
  // booking-past.rules.ts): the workflow sends the customer nothing for it (no confirmation, no
  // reschedule notice, no reminder) but still records the visit once the booking is completed
  | 'BookingRecordedAfterTheFact';

export interface BookingEvent {
  type: BookingEventType;
  /** the booking row's `version` after the change; the workflow acts once it can read this version */
  entityVersion: number;
}

export interface BookingWorkflowArgs {
  bookingId: string;
  tenantId: string;
}

export const BOOKING_WORKFLOW_TYPE = 'bookingWorkflow';
export const BOOKING_EVENT_SIGNAL = 'bookingEvent';

export function bookingWorkflowId(bookingId: string): string {
  return `booking:${bookingId}`;
}
