// What the booking workflow may ask of the outside world. The workflow imports these types only;
// activities/booking.activities.ts implements them.
import type { BookingMessageKind } from '../domain/notifications/booking-messages.rules';

export interface BookingSnapshot {
  bookingId: string;
  tenantId: string;
  status: string;
  version: number;
  /** UTC ISO string */
  startTime: string;
}

export interface BookingActivities {
  /** Committed state of the booking, once it has reached `minVersion` (retried until then). */
  readBooking(input: { bookingId: string; minVersion: number }): Promise<BookingSnapshot>;
  /** Sends one message kind once per `dedupeKey` (SMS and/or e-mail, whichever contact exists). */
  sendBookingMessage(input: { bookingId: string; kind: BookingMessageKind; dedupeKey: string }): Promise<'SENT' | 'ALREADY_SENT' | 'NO_CONTACT'>;
  /** Adds the visit to the tenant-customer metrics exactly once per booking. */
  recordCompletedVisit(input: { bookingId: string }): Promise<'RECORDED' | 'ALREADY_RECORDED' | 'NO_CUSTOMER' | 'NOT_COMPLETED'>;
}

/** Error types activities throw as non-retryable ApplicationFailures, and the retryable wait. */
export const BookingActivityErrors = {
  notFound: 'BOOKING_NOT_FOUND',
  versionNotVisible: 'BOOKING_VERSION_NOT_VISIBLE',
} as const;
