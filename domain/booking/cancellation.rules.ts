/**
 * Cancellation refund policy (docs/rules/booking.md#cancellation-refund-policy), as one pure function used by
 * GET /bookings/:id/cancel-preview and by the cancellation itself. Money is integer minor units.
 *
 * - Free window: cancelled at least `cancellationHours` before the booking start
 *   (start - now >= cancellationHours hours; exactly on the boundary is still free).
 * - Salon-initiated cancellation: always full refund, whatever the window:
 *   captured deposit -> REFUND_FULL (the not-yet-refunded remainder), authorized -> VOID.
 * - Customer inside the window: the same as salon-initiated.
 * - Customer outside the window: no refund; the salon keeps the deposit. action FORFEIT,
 *   cancellationFee = the kept amount (captured amount minus anything already refunded), and
 *   depositStatus FORFEIT. For a deposit that is only AUTHORIZED, keeping it means capturing it:
 *   `captureRequired` is true (as for a no-show).
 * - No deposit: action NONE, nothing to refund, no fee (a late cancellation without a deposit costs
 *   nothing: the only fee is a kept deposit).
 * - A captured deposit that is already fully refunded: action NONE, status REFUNDED.
 *
 * Invalid numbers (non-integers, negatives, refunded > amount, cancellationHours outside 0..168)
 * are programming errors and throw RangeError.
 */
export type CancelledBy = 'CUSTOMER' | 'SALON';

export type DepositState = { state: 'NONE' } | { state: 'AUTHORIZED'; amount: number } | { state: 'CAPTURED'; amount: number };

export interface CancellationInput {
  bookingStart: Date;
  now: Date;
  /** settings.cancellationHours, integer 0..168 */
  cancellationHours: number;
  cancelledBy: CancelledBy;
  deposit: DepositState;
  /** Minor units already refunded on a captured deposit (default 0). */
  alreadyRefundedAmount?: number;
}

export type CancellationAction = 'NONE' | 'REFUND_FULL' | 'VOID' | 'FORFEIT';

/** Booking.depositStatus after the cancellation; null = leave unchanged (no deposit). 'VOIDED'
 *  is what the payment context stores for a voided authorisation. */
export type DepositStatusAfter = 'REFUNDED' | 'FORFEIT' | 'VOIDED' | null;

export interface CancellationDecision {
  withinFreeWindow: boolean;
  action: CancellationAction;
  /** minor units to refund now */
  refundAmount: number;
  /** minor units kept by the salon, recorded as Booking.cancellationFee */
  cancellationFee: number;
  depositStatusAfter: DepositStatusAfter;
  /** FORFEIT of an AUTHORIZED deposit: the hold must be captured to keep it. */
  captureRequired: boolean;
  /** The event for the cancellation (docs/rules/booking.md#cancellation-refund-policy). */
  event: 'BookingCancelled' | 'BookingCancelledBySalon';
}

const HOUR_MS = 3_600_000;

function assertMinor(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer (minor units), got ${value}`);
}

/** True when cancelling at `now` is free: start - now >= cancellationHours. */
export function isWithinFreeCancellationWindow(bookingStart: Date, now: Date, cancellationHours: number): boolean {
  if (!Number.isInteger(cancellationHours) || cancellationHours < 0 || cancellationHours > 168) {
    throw new RangeError(`cancellationHours must be an integer 0..168, got ${cancellationHours}`);
  }
  return bookingStart.getTime() - now.getTime() >= cancellationHours * HOUR_MS;
}

export function decideCancellation(input: CancellationInput): CancellationDecision {
  const withinFreeWindow = isWithinFreeCancellationWindow(input.bookingStart, input.now, input.cancellationHours);
  const event = input.cancelledBy === 'SALON' ? 'BookingCancelledBySalon' : 'BookingCancelled';
  const refunded = input.alreadyRefundedAmount ?? 0;
  assertMinor('alreadyRefundedAmount', refunded);
  const base = { withinFreeWindow, event, refundAmount: 0, cancellationFee: 0, captureRequired: false } as const;
  const deposit = input.deposit;

  if (deposit.state === 'NONE') {
    if (refunded !== 0) throw new RangeError('alreadyRefundedAmount given without a deposit');
    return { ...base, action: 'NONE', depositStatusAfter: null };
  }
  assertMinor('deposit.amount', deposit.amount);
  const free = input.cancelledBy === 'SALON' || withinFreeWindow;

  if (deposit.state === 'AUTHORIZED') {
    if (refunded !== 0) throw new RangeError('an authorized deposit cannot have refunds');
    if (free) return { ...base, action: 'VOID', depositStatusAfter: 'VOIDED' };
    return { ...base, action: 'FORFEIT', cancellationFee: deposit.amount, depositStatusAfter: 'FORFEIT', captureRequired: true };
  }

  if (refunded > deposit.amount) throw new RangeError('alreadyRefundedAmount exceeds the captured amount');
  const remaining = deposit.amount - refunded;
  if (remaining === 0) return { ...base, action: 'NONE', depositStatusAfter: 'REFUNDED' };
  if (free) return { ...base, action: 'REFUND_FULL', refundAmount: remaining, depositStatusAfter: 'REFUNDED' };
  return { ...base, action: 'FORFEIT', cancellationFee: remaining, depositStatusAfter: 'FORFEIT' };
}
