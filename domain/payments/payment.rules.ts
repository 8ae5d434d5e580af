/**
 * Payments (docs/rules/payments.md), pure: the state machine, money arithmetic in integer minor
 * units, and the limits. Imported by the services, the activities and the payment workflow.
 */

export type PaymentStatus = 'INITIATED' | 'AUTHORIZED' | 'CAPTURED' | 'PARTIALLY_REFUNDED' | 'REFUNDED' | 'FAILED' | 'EXPIRED' | 'VOIDED';
export type PaymentIntent = 'DEPOSIT' | 'REMAINING';
export type CaptureMode = 'AUTO' | 'MANUAL';
export type FailureKind = 'TRANSIENT' | 'PERMANENT';

/** Payment retry cap (3 failed attempts) and the authorization hold (7 days). */
export const PAYMENT_RETRY_CAP = 3;
export const AUTHORIZATION_HOLD_MS = 7 * 24 * 3_600_000;
/** How long a hosted checkout session stays open before the INITIATED payment expires. */
export const CHECKOUT_SESSION_TTL_MS = 30 * 60_000;

/**
 * When a polled provider's webhook is late (docs/rules/payments.md#provider-webhooks): the first
 * poll a minute after the checkout opened, then twice as long each time, at most 8 minutes apart.
 */
export const POLL_FIRST_MS = 60_000;
export const POLL_MAX_MS = 8 * 60_000;

export function pollDelayMs(pollsDone: number): number {
  return Math.min(POLL_FIRST_MS * 2 ** pollsDone, POLL_MAX_MS);
}

/** The hold of an authorization (7 days) from the moment it was authorized. */
export function holdExpiry(authorizedAt: Date): Date {
  return new Date(authorizedAt.getTime() + AUTHORIZATION_HOLD_MS);
}

/** docs/rules/payments.md#payment-statuses as a table: which status may follow which. */
const TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  INITIATED: ['AUTHORIZED', 'CAPTURED', 'FAILED', 'EXPIRED'],
  AUTHORIZED: ['CAPTURED', 'VOIDED', 'EXPIRED'],
  CAPTURED: ['PARTIALLY_REFUNDED', 'REFUNDED'],
  PARTIALLY_REFUNDED: ['PARTIALLY_REFUNDED', 'REFUNDED'],
  REFUNDED: [],
  FAILED: [],
  EXPIRED: [],
  VOIDED: [],
};

export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Money has been taken (and maybe partly given back). */
export function isCapturedStatus(status: PaymentStatus): boolean {
  return status === 'CAPTURED' || status === 'PARTIALLY_REFUNDED' || status === 'REFUNDED';
}

/** Waiting on the customer or the hold: these expire at `expiresAt`. */
export function isOpenStatus(status: PaymentStatus): boolean {
  return status === 'INITIATED' || status === 'AUTHORIZED';
}

/**
 * How long a booking whose deposit failed keeps its time for the customer to try again
 * (docs/rules/payments.md#failures-and-retry): as long as a checkout session, counted from the
 * failure. A FAILED payment's `expiresAt` is that deadline; when it passes with no new attempt, the
 * booking is cancelled and its time freed.
 */
export const RETRY_WINDOW_MS = CHECKOUT_SESSION_TTL_MS;

export function retryHeldUntil(failedAt: Date): Date {
  return new Date(failedAt.getTime() + RETRY_WINDOW_MS);
}

/** A failed payment whose booking still waits for a retry until `expiresAt` (the payment workflow waits for it). */
export function holdsForRetry(p: { status: PaymentStatus; expiresAt: string | null; failedCount: number }): boolean {
  return p.status === 'FAILED' && p.expiresAt !== null && p.failedCount < PAYMENT_RETRY_CAP;
}

function assertMinor(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer (minor units), got ${value}`);
}

/**
 * The deposit of a booking (docs/rules/payments.md#deposits). Payable = total - discount; percentage
 * deposits round half up to the whole minor unit; a fixed deposit never exceeds the payable amount.
 */
export function depositAmount(input: { totalAmount: number; discountAmount: number; depositType: 'percentage' | 'fixed'; depositValue: number }): number {
  assertMinor('totalAmount', input.totalAmount);
  assertMinor('discountAmount', input.discountAmount);
  assertMinor('depositValue', input.depositValue);
  const payable = Math.max(0, input.totalAmount - input.discountAmount);
  if (input.depositType === 'fixed') return Math.min(input.depositValue, payable);
  if (input.depositValue > 100) throw new RangeError(`a percentage deposit is 0..100, got ${input.depositValue}`);
  // integer arithmetic: (payable * percent + 50) / 100, floored
  return Math.floor((payable * input.depositValue + 50) / 100);
}

/** What may still be refunded of a payment. */
export function refundableAmount(p: { capturedAmount: number; refundedAmount: number }): number {
  return p.capturedAmount - p.refundedAmount;
}

export type RefundCheck =
  | { ok: true; statusAfter: 'REFUNDED' | 'PARTIALLY_REFUNDED'; refundedAfter: number }
  | { ok: false; reason: 'NOT_CAPTURED' | 'AMOUNT_INVALID' | 'EXCEEDS_REFUNDABLE' };

/** A refund of `amount` (> 0, at most captured - refunded); full -> REFUNDED, part -> PARTIALLY_REFUNDED. */
export function checkRefund(p: { status: PaymentStatus; capturedAmount: number; refundedAmount: number }, amount: number): RefundCheck {
  if (p.status !== 'CAPTURED' && p.status !== 'PARTIALLY_REFUNDED') return { ok: false, reason: 'NOT_CAPTURED' };
  if (!Number.isSafeInteger(amount) || amount <= 0) return { ok: false, reason: 'AMOUNT_INVALID' };
  if (amount > refundableAmount(p)) return { ok: false, reason: 'EXCEEDS_REFUNDABLE' };
  const refundedAfter = p.refundedAmount + amount;
  return { ok: true, refundedAfter, statusAfter: refundedAfter === p.capturedAmount ? 'REFUNDED' : 'PARTIALLY_REFUNDED' };
}

/**
 * Remaining amount of a booking = total - captured + refunded over its payments (the
 * discount is not owed); it must be above 0 to collect it.
 */
export function remainingAmount(totalAmount: number, discountAmount: number, payments: { capturedAmount: number; refundedAmount: number }[]): number {
  assertMinor('totalAmount', totalAmount);
  const payable = Math.max(0, totalAmount - discountAmount);
  const captured = payments.reduce((sum, p) => sum + p.capturedAmount, 0);
  const refunded = payments.reduce((sum, p) => sum + p.refundedAmount, 0);
  return payable - captured + refunded;
}

/** PaymentFailed: TRANSIENT never counts; PERMANENT counts; the cap cancels the booking. */
export function failureOutcome(failedCountBefore: number, kind: FailureKind): { failedCount: number; cancelBooking: boolean } {
  const failedCount = kind === 'PERMANENT' ? failedCountBefore + 1 : failedCountBefore;
  return { failedCount, cancelBooking: failedCount >= PAYMENT_RETRY_CAP };
}

/** Retry (docs/rules/payments.md#failures-and-retry): only PENDING bookings in RETRY_PENDING whose last payment failed below the cap. */
export function retryRejection(input: {
  bookingStatus: string;
  depositStatus: string | null;
  lastPaymentStatus: PaymentStatus | null;
  failedCount: number;
}): string | null {
  if (input.bookingStatus !== 'PENDING') return 'the booking is not waiting for payment';
  if (input.depositStatus !== 'RETRY_PENDING' || input.lastPaymentStatus !== 'FAILED') return 'there is no failed payment to retry';
  if (input.failedCount >= PAYMENT_RETRY_CAP) return `the payment failed ${PAYMENT_RETRY_CAP} times`;
  return null;
}

/**
 * Booking.depositStatus that follows a deposit payment's status (docs/rules/payments.md). A deposit the salon
 * kept after a late cancellation stays FORFEIT until part of it is refunded; null: leave it.
 */
/**
 * Booking.depositStatus of a deposit requested later (docs/rules/payments.md#deposits-at-any-distance):
 * SCHEDULED until its workflow asks for it, then REQUESTED until it is paid. While REQUESTED, an
 * attempt that fails or runs out changes nothing: the deadline, not the attempt, decides.
 */
export const DEPOSIT_SCHEDULED = 'SCHEDULED';
export const DEPOSIT_REQUESTED = 'REQUESTED';

/** The booking's deposit is owed later, or asked for and not paid: its deadline decides, not its attempts. */
export function isDepositRequestedLater(depositStatus: string | null): boolean {
  return depositStatus === DEPOSIT_SCHEDULED || depositStatus === DEPOSIT_REQUESTED;
}

export function depositStatusFor(paymentStatus: PaymentStatus, current: string | null): string | null {
  const next: Partial<Record<PaymentStatus, string>> = {
    INITIATED: 'PENDING',
    AUTHORIZED: 'AUTHORIZED',
    CAPTURED: 'PAID',
    PARTIALLY_REFUNDED: 'PARTIALLY_REFUNDED',
    REFUNDED: 'REFUNDED',
    VOIDED: 'VOIDED',
    FAILED: 'RETRY_PENDING',
  };
  const wanted = next[paymentStatus] ?? null;
  if (wanted === null || wanted === current) return null;
  if (current === DEPOSIT_REQUESTED && (paymentStatus === 'INITIATED' || paymentStatus === 'FAILED')) return null;
  if (current === 'FORFEIT' && (paymentStatus === 'CAPTURED' || paymentStatus === 'AUTHORIZED')) return null;
  return wanted;
}
