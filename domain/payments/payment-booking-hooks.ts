/**
 * What the booking services ask of payments through their port (domain/booking/booking-hooks.ts),
 * each as one call inside their own transaction: the deposit of a new booking
 * (docs/rules/payments.md#deposits), the deposit a cancellation decides about, the refund / void /
 * capture the cancellation policy chose, and the capture of an authorized manual-capture deposit once
 * the customer arrived (or the booking completed, or was a no-show). The composition root hands these
 * functions to booking (composition/domain-hooks.ts).
 */
import type { BookingHooks } from '../booking/booking-hooks';
import { CHECKOUT_SESSION_TTL_MS, DEPOSIT_SCHEDULED, isCapturedStatus } from './payment.rules';
import { depositTiming } from './deposit-timing.rules';
import { changePayment, insertPayment, newPaymentRow, SYSTEM } from './payment-change';
import { reserveRefund } from './payment-refunds';
import { activeConfig, lockPaymentById, lockPaymentsOfBooking, paymentsOfBooking } from './payment.repository';

const NO_ACTIVE_PROVIDER = 'NO_ACTIVE_PROVIDER';

/**
 * Inside the booking's creating transaction: a booking that pays online on a deposit tenant gets
 * its deposit payment (INITIATED; the workflow opens the provider session). A booking further ahead
 * than a reservation can be held owes its deposit later (docs/rules/payments.md#deposits-at-any-distance):
 * depositStatus SCHEDULED, no payment yet; its workflow asks for it. Without an active payment
 * config the payment is recorded FAILED with reason NO_ACTIVE_PROVIDER and nothing is owed online.
 * Returns whether the customer must pay now, and the booking's depositStatus.
 */
export const startDepositForNewBooking: BookingHooks['startDeposit'] = async (signaller, trx, tenant, booking, now) => {
  const s = tenant.settings;
  const timing = depositTiming({
    settings: s,
    paymentMode: booking.paymentMode === 'ONLINE' ? 'ONLINE' : 'IN_PERSON',
    totalAmount: booking.totalAmount,
    discountAmount: booking.discountAmount,
    startTime: new Date(booking.startTime),
    now,
  });
  if (timing.when === 'NONE') return { paymentRequired: false, depositStatus: null };
  if (timing.when === 'LATER') return { paymentRequired: false, depositStatus: DEPOSIT_SCHEDULED };
  const amount = timing.amount;
  const config = await activeConfig(trx, tenant.id);
  const deposit = { tenantId: tenant.id, bookingId: booking.id, intent: 'DEPOSIT' as const, amount, currency: s.currency };
  if (!config) {
    await insertPayment(
      signaller,
      trx,
      newPaymentRow({
        ...deposit,
        configId: null,
        provider: null,
        captureMode: 'AUTO',
        status: 'FAILED',
        expiresAt: null,
        failureKind: 'PERMANENT',
        failureReason: NO_ACTIVE_PROVIDER,
      }),
      SYSTEM,
      { signal: false },
    );
    return { paymentRequired: false, depositStatus: null };
  }
  await insertPayment(
    signaller,
    trx,
    newPaymentRow({
      ...deposit,
      configId: config.id,
      provider: config.provider,
      captureMode: config.captureMode,
      status: 'INITIATED',
      expiresAt: new Date(now.getTime() + CHECKOUT_SESSION_TTL_MS),
    }),
    SYSTEM,
  );
  return { paymentRequired: true, depositStatus: 'PENDING' };
};

/** The deposit a cancellation decides about (locked): the latest authorized or captured deposit. */
export const depositForCancellation: BookingHooks['depositForCancellation'] = async (trx, tenantId, bookingId) => {
  const payments = await lockPaymentsOfBooking(trx, tenantId, bookingId);
  const deposit = [...payments].reverse().find((p) => p.intent === 'DEPOSIT' && (p.status === 'AUTHORIZED' || isCapturedStatus(p.status)));
  if (!deposit) return { deposit: { state: 'NONE' }, alreadyRefunded: 0, paymentId: null };
  if (deposit.status === 'AUTHORIZED') return { deposit: { state: 'AUTHORIZED', amount: deposit.amount }, alreadyRefunded: 0, paymentId: deposit.id };
  return { deposit: { state: 'CAPTURED', amount: deposit.capturedAmount }, alreadyRefunded: deposit.refundedAmount, paymentId: deposit.id };
};

/**
 * Carries out what the cancellation policy decided, inside the cancellation's transaction: refund
 * (reserved now, paid out by the workflow), void or capture (requested now, done by the workflow).
 * An open checkout (INITIATED) of the cancelled booking expires at once.
 */
export const applyCancellationToPayments: BookingHooks['cancelled'] = async (signaller, trx, tenantId, bookingId, paymentId, decision, actor, now) => {
  for (const open of await lockPaymentsOfBooking(trx, tenantId, bookingId)) {
    if (open.status === 'INITIATED')
      await changePayment(signaller, trx, open, { status: 'EXPIRED' }, { type: 'PaymentExpired', actor, data: { reason: 'BOOKING_CANCELLED' } });
  }
  if (!paymentId) return;
  const locked = (await lockPaymentById(trx, paymentId))!;
  if (decision.action === 'REFUND_FULL' && decision.refundAmount > 0) {
    await reserveRefund(signaller, trx, locked, decision.refundAmount, 'BOOKING_CANCELLED', actor);
  } else if (decision.action === 'VOID' && locked.status === 'AUTHORIZED' && !locked.voidRequestedAt) {
    await changePayment(signaller, trx, locked, { voidRequestedAt: now }, { type: 'PaymentVoidRequested', actor, data: { reason: 'BOOKING_CANCELLED' } });
  } else if (decision.captureRequired && locked.status === 'AUTHORIZED' && !locked.captureRequestedAt) {
    await changePayment(signaller, trx, locked, { captureRequestedAt: now }, { type: 'PaymentCaptureRequested', actor, data: { reason: 'DEPOSIT_FORFEIT' } });
  }
};

/** What the customer has paid online for a booking and not been refunded: captured minus refunded, over its payments. */
export const paidAmountOfBooking: BookingHooks['paidAmount'] = async (db, tenantId, bookingId) =>
  (await paymentsOfBooking(db, tenantId, bookingId)).reduce((sum, p) => sum + Math.max(0, p.capturedAmount - p.refundedAmount), 0);

/** The statuses at which an authorized manual-capture deposit is captured (docs/rules/payments.md#capture). */
const CAPTURE_ON: readonly string[] = ['ARRIVED', 'COMPLETED', 'NO_SHOW'];

/**
 * Inside a booking status change's transaction, like every change: ARRIVED (or COMPLETED as the
 * fallback, or NO_SHOW) asks the payment workflow to capture an authorized manual-capture payment,
 * exactly once (a compare-and-set on `capture_requested_at`), signalled before the status commits.
 * When the payment workflow cannot be told, the status change rolls back with it (503).
 */
export const requestCaptureForStatus: BookingHooks['statusChanged'] = async (signaller, trx, tenantId, bookingId, status, now) => {
  if (!CAPTURE_ON.includes(status)) return;
  for (const payment of await lockPaymentsOfBooking(trx, tenantId, bookingId)) {
    if (payment.status !== 'AUTHORIZED' || payment.captureMode !== 'MANUAL' || payment.captureRequestedAt) continue;
    await changePayment(
      signaller,
      trx,
      payment,
      { captureRequestedAt: now },
      { type: 'PaymentCaptureRequested', actor: SYSTEM, data: { bookingStatus: status } },
    );
  }
};
