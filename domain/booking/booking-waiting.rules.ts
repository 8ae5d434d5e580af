/**
 * What a PENDING booking waits for (docs/rules/front-desk.md#the-day): its deposit, while one is
 * being paid online (an authorised or captured deposit confirms it, docs/rules/payments.md#booking-deposit-status),
 * or otherwise the salon's approval (docs/rules/booking.md#statuses). Pure.
 */
import type { BookingStatus } from './booking-status.rules';

export type WaitingFor = 'SALON' | 'DEPOSIT' | null;

/** Deposit statuses of a deposit still to be paid. */
const UNPAID_DEPOSIT = new Set(['PENDING', 'RETRY_PENDING']);

export function waitingFor(booking: { status: BookingStatus; paymentMode: string; depositStatus: string | null }): WaitingFor {
  if (booking.status !== 'PENDING') return null;
  return booking.paymentMode === 'ONLINE' && booking.depositStatus !== null && UNPAID_DEPOSIT.has(booking.depositStatus) ? 'DEPOSIT' : 'SALON';
}
