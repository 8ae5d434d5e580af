// What the booking workflow may ask of the outside world. The workflow imports these types only;
// activities/booking.activities.ts implements them. The snapshot is part of the booking's contract.
import type { BookingSnapshot } from '../domain/booking/booking-events.rules';
import type { BookingMessageKind } from '../domain/notifications/booking-messages.rules';
import type { SalonNoticeKind } from '../domain/notifications/salon-notice.rules';

/** One booking message on one channel, sent at most once per (booking, channel, dedupeKey). */
export interface BookingMessageRequest {
  bookingId: string;
  kind: BookingMessageKind;
  /** e.g. `CONFIRMED`, or `REMINDER:<startTime>` so a moved booking is reminded again */
  dedupeKey: string;
}

/**
 * SUPERSEDED: the message was about a time the booking no longer has (booking-status.rules.ts
 * isMessageSuperseded), so nothing was sent; NOTHING_TO_SEND: the message has nothing to say on this
 * channel (a refund by e-mail, a late payment not released)
 */
/** ABROAD: an SMS to a number of another country than the salon's, which is not sent (docs/rules/messages.md#numbers-of-other-countries). */
export type DeliveryOutcome = 'SENT' | 'ALREADY_SENT' | 'NO_CONTACT' | 'ABROAD' | 'SUPERSEDED' | 'NOTHING_TO_SEND';

export interface BookingActivities {
  /** Committed state of the booking, once it has reached `minVersion` (retried until then). */
  readBooking(input: { bookingId: string; minVersion: number }): Promise<BookingSnapshot>;
  /** Sends the message by SMS once, when the booking has a phone number. */
  sendBookingSms(input: BookingMessageRequest): Promise<DeliveryOutcome>;
  /** Sends the message by e-mail once, when the booking has an e-mail address. */
  sendBookingEmail(input: BookingMessageRequest): Promise<DeliveryOutcome>;
  /**
   * A booking nobody promised to come to at the salon's flag time: marks it flagged (once) and tells
   * the salon by e-mail (once); nothing when the customer promised or the booking is no longer ahead.
   */
  flagUnpromisedBooking(input: { bookingId: string }): Promise<'FLAGGED' | 'NOT_FLAGGED' | 'NO_CONTACT'>;
  /** @deprecated flagUnpromisedBooking under the name runs started before it scheduled (workflows/booking/booking.workflow.ts PROMISE_WORDS) */
  flagUnconfirmedBooking(input: { bookingId: string }): Promise<'FLAGGED' | 'NOT_FLAGGED' | 'NO_CONTACT'>;
  /**
   * Tells the salon's owner about the booking (docs/rules/front-desk.md#the-salon-is-told) when it
   * is, as committed now, a notice of this kind: the notice for the front desk's list (once), and
   * the owner's e-mail (once) unless the salon turned it off. Ids only in and out.
   */
  tellSalon(input: { bookingId: string; kind: SalonNoticeKind }): Promise<'TOLD' | 'LISTED' | 'NOT_A_NOTICE'>;
  /** Adds the visit to the tenant-customer metrics exactly once per booking. */
  recordCompletedVisit(input: { bookingId: string }): Promise<'RECORDED' | 'ALREADY_RECORDED' | 'NO_CUSTOMER' | 'NOT_COMPLETED'>;
}

/** Error types activities throw as non-retryable ApplicationFailures, and the retryable ones. */
export const BookingActivityErrors = {
  notFound: 'BOOKING_NOT_FOUND',
  deliveryFailed: 'BOOKING_MESSAGE_DELIVERY_FAILED',
} as const;
