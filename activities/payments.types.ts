// What the payment workflow may ask of the outside world. The workflow imports these types only;
// activities/payments.activities.ts implements them (over domain/payments/payment-workflow.service.ts).
import type { PaymentSnapshot } from '../domain/payments/payment-events.rules';
import type { PaymentMessageKind } from '../domain/notifications/payment-messages.rules';
import type { DeliveryOutcome } from './booking.types';

/** One payment message on one channel; its notification rows (one per refund, one per late payment) make it go out at most once. */
export interface PaymentMessageRequest {
  paymentId: string;
  kind: PaymentMessageKind;
  /** names the message in the history and the alerts, e.g. `REFUNDS:<payment version>` */
  dedupeKey: string;
}

export interface PaymentActivities {
  /** Committed state of the payment, once it has reached `minVersion` (retried until then). */
  readPayment(input: { paymentId: string; minVersion: number }): Promise<PaymentSnapshot>;
  /** Opens the provider's hosted checkout (idempotency key: the payment's). */
  openPaymentSession(input: { paymentId: string }): Promise<string>;
  /** A PENDING booking becomes CONFIRMED (payment authorized or captured). */
  confirmBookingForPayment(input: { paymentId: string }): Promise<string>;
  /** Booking.depositStatus follows the deposit payment. */
  followDepositStatus(input: { paymentId: string }): Promise<string | null>;
  /** A failed attempt: RETRY_PENDING, or the booking cancelled at the retry cap. */
  settlePaymentFailure(input: { paymentId: string }): Promise<string>;
  /** Captures at the provider (key `capture:<id>`), then records CAPTURED. */
  capturePayment(input: { paymentId: string }): Promise<string>;
  /** Voids at the provider (best effort), then records VOIDED. */
  voidPayment(input: { paymentId: string }): Promise<string>;
  /** Pays out pending refunds (each refund's own key). */
  processRefunds(input: { paymentId: string }): Promise<number>;
  /** Closes the provider's checkout of a payment that expired here (best effort). */
  releaseExpiredSession(input: { paymentId: string }): Promise<string>;
  /** The provider confirmed after the payment expired: void the authorization or refund the capture, once. */
  releaseLatePayment(input: { paymentId: string }): Promise<string>;
  /**
   * The message by SMS, once (workflows/shared/message-channels.ts): one per paid-out refund
   * (docs/rules/payments.md#refunds), or the released late payment.
   */
  sendPaymentSms(input: PaymentMessageRequest): Promise<DeliveryOutcome>;
  /** The message by e-mail, once: the released late payment (a refund is told by SMS only). */
  sendPaymentEmail(input: PaymentMessageRequest): Promise<DeliveryOutcome>;
  /** @deprecated the refund SMS as runs started before the message channels send it (workflows/payments/payment.workflow.ts MESSAGE_CHANNELS) */
  sendRefundSms(input: { paymentId: string }): Promise<DeliveryOutcome>;
  /** @deprecated the late payment's SMS and e-mail as runs started before the message channels send them */
  sendLatePaymentMessages(input: { paymentId: string }): Promise<DeliveryOutcome[]>;
  /** A webhook is late: asks the provider how the payment stands and applies it as its webhook would have. */
  pollPayment(input: { paymentId: string }): Promise<string>;
  /** A booking's deposit requested later is asked for (SCHEDULED -> REQUESTED); the booking's workflow then tells the customer. */
  requestDeposit(input: { bookingId: string }): Promise<'REQUESTED' | 'NOT_SCHEDULED'>;
  /** The deadline of a deposit requested later: still owed, the booking is cancelled by SYSTEM (DEPOSIT_NOT_PAID). */
  cancelUnpaidDeposit(input: { bookingId: string }): Promise<'CANCELLED' | 'NOTHING'>;
  /** `expiresAt` passed: best-effort void, EXPIRED, booking cancelled by SYSTEM (AUTHORIZATION_EXPIRED). */
  expirePayment(input: { paymentId: string }): Promise<string>;
  /** A failed deposit's retry window ended with no new attempt: the PENDING booking is cancelled by SYSTEM (PAYMENT_NOT_RETRIED). */
  closeRetryWindow(input: { paymentId: string }): Promise<string>;
}

export const PaymentActivityErrors = {
  notFound: 'PAYMENT_NOT_FOUND',
  providerTransient: 'PROVIDER_UNAVAILABLE',
  providerPermanent: 'PROVIDER_REFUSED',
  notConfigured: 'PAYMENTS_NOT_CONFIGURED',
  deliveryFailed: 'PAYMENT_MESSAGE_DELIVERY_FAILED',
} as const;
