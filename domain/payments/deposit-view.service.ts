/**
 * What the customer is told about a booking's deposit (docs/rules/booking-page.md#the-manage-page,
 * docs/rules/messages.md#which-messages): while it is unpaid, what is owed, until when the time is
 * held and why the last attempt failed; once the booking is cancelled, what happened to the money
 * (refunded, the card's hold released, or kept by the salon). Reads only.
 */
import type { Db } from '../../db/db-handle';
import { paymentsOfBooking, type PaymentRow } from './payment.repository';
import { DEPOSIT_REQUESTED, DEPOSIT_SCHEDULED, isCapturedStatus } from './payment.rules';
import { bookingDeposit, depositDeadlineHoursOf, depositMoments } from './deposit-timing.rules';
import { findTenant } from '../tenant/tenant.repository';

/** What the cancellation did with the deposit. */
export interface CancelledDeposit {
  kind: 'REFUNDED' | 'RELEASED' | 'KEPT';
  /** minor units */
  amount: number;
  currency: string;
}

/** A deposit the booking still waits for. */
export interface UnpaidDeposit {
  amount: number;
  currency: string;
  /** the latest attempt */
  paymentId: string;
  /** INITIATED: the checkout is open; FAILED: the last attempt failed and a retry is awaited */
  state: 'OPEN' | 'FAILED';
  /** the provider did not answer (TRANSIENT) or the card was refused (PERMANENT) */
  failure: 'PROVIDER_ERROR' | 'DECLINED' | null;
  /** until when the booking's time is held: the checkout's end, or the retry window's */
  heldUntil: Date | null;
}

interface BookingDepositFacts {
  id: string;
  tenantId: string;
  status: string;
  depositStatus: string | null;
  cancellationFee: number;
}

/** A deposit owed later (docs/rules/payments.md#deposits-at-any-distance): what it is, when it is asked for, by when it must be paid. */
export interface LaterDeposit {
  /** SCHEDULED: to be asked for at `requestAt`; REQUESTED: asked for, not paid yet */
  state: 'SCHEDULED' | 'REQUESTED';
  amount: number;
  currency: string;
  requestAt: Date;
  deadline: Date;
}

/** A deposit reserved (AUTHORIZED, taken on arrival) or paid (PAID), of a booking not cancelled; null otherwise. */
export async function takenDeposit(db: Db, booking: BookingDepositFacts): Promise<{ state: 'RESERVED' | 'PAID'; amount: number; currency: string } | null> {
  if (booking.status === 'CANCELLED' || (booking.depositStatus !== 'AUTHORIZED' && booking.depositStatus !== 'PAID')) return null;
  const latest = [...depositsOf(await paymentsOfBooking(db, booking.tenantId, booking.id))]
    .reverse()
    .find((p) => p.status === 'AUTHORIZED' || isCapturedStatus(p.status));
  if (!latest) return null;
  return latest.status === 'AUTHORIZED'
    ? { state: 'RESERVED', amount: latest.amount, currency: latest.currency }
    : { state: 'PAID', amount: latest.capturedAmount - latest.refundedAmount, currency: latest.currency };
}

/** The deposit of a booking still ahead whose deposit is owed later; null otherwise. */
export async function requestedDeposit(
  db: Db,
  booking: BookingDepositFacts & { startTime: Date | string; totalAmount: number; discountAmount: number },
): Promise<LaterDeposit | null> {
  if (booking.status !== 'PENDING' && booking.status !== 'CONFIRMED') return null;
  if (booking.depositStatus !== DEPOSIT_SCHEDULED && booking.depositStatus !== DEPOSIT_REQUESTED) return null;
  const tenant = await findTenant(db, booking.tenantId);
  if (!tenant) return null;
  const s = tenant.settings;
  const amount = bookingDeposit(s, booking);
  const { requestAt, deadline } = depositMoments(new Date(booking.startTime), depositDeadlineHoursOf(s));
  return { state: booking.depositStatus, amount, currency: s.currency, requestAt, deadline };
}

function depositsOf(payments: PaymentRow[]): PaymentRow[] {
  return payments.filter((p) => p.intent === 'DEPOSIT');
}

/** After a cancellation: the deposit refunded, its hold released, or kept; null when there was none. */
export async function cancelledDeposit(db: Db, booking: BookingDepositFacts): Promise<CancelledDeposit | null> {
  if (booking.status !== 'CANCELLED' || !booking.depositStatus) return null;
  const deposits = depositsOf(await paymentsOfBooking(db, booking.tenantId, booking.id));
  const taken = [...deposits].reverse().find((p) => p.status === 'AUTHORIZED' || p.status === 'VOIDED' || isCapturedStatus(p.status));
  if (!taken) return null;
  switch (booking.depositStatus) {
    case 'REFUNDED':
    case 'PARTIALLY_REFUNDED':
      return taken.refundedAmount > 0 ? { kind: 'REFUNDED', amount: taken.refundedAmount, currency: taken.currency } : null;
    case 'VOIDED':
      return { kind: 'RELEASED', amount: taken.amount, currency: taken.currency };
    case 'FORFEIT':
      return { kind: 'KEPT', amount: booking.cancellationFee || taken.amount, currency: taken.currency };
    default:
      return null;
  }
}

/** A PENDING booking's deposit that is not paid yet (the checkout open, or a failed attempt awaiting a retry); null otherwise. */
export async function unpaidDeposit(db: Db, booking: BookingDepositFacts): Promise<UnpaidDeposit | null> {
  if (booking.status !== 'PENDING' || (booking.depositStatus !== 'PENDING' && booking.depositStatus !== 'RETRY_PENDING')) return null;
  const latest = depositsOf(await paymentsOfBooking(db, booking.tenantId, booking.id)).pop();
  if (!latest || (latest.status !== 'INITIATED' && latest.status !== 'FAILED')) return null;
  const failure = latest.status !== 'FAILED' ? null : latest.failureKind === 'TRANSIENT' ? 'PROVIDER_ERROR' : 'DECLINED';
  return {
    amount: latest.amount,
    currency: latest.currency,
    paymentId: latest.id,
    state: latest.status === 'FAILED' ? 'FAILED' : 'OPEN',
    failure,
    heldUntil: latest.expiresAt ? new Date(latest.expiresAt) : null,
  };
}
