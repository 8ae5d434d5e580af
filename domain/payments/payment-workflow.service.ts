/**
 * The payment's own changes that its workflow asks for (docs/rules/payments.md), one function per
 * activity (activities/payments.activities.ts): open the checkout, confirm the booking, follow the
 * deposit, settle a failure, capture, void, pay out refunds, expire, release a late payment. Each
 * re-reads committed state under a row lock, acts only when the state still asks for it (so a
 * retried activity changes nothing twice) and calls the provider with the payment's idempotency
 * keys. The payment's read and its messages are the activities' own, as in every area.
 */
import type { Transaction } from '../../db/db-handle';
import { tenantById } from '../tenant/tenant-context';
import { nowOf } from '../time/clock';
import { applyCancellation } from '../booking/booking-cancel.service';
import { changeBooking } from '../booking/booking-change.service';
import { findBookingRow, lockBookingRow } from '../booking/booking.repository';
import type { Actor, BookingDeps } from '../booking/booking.types';
import { depositStatusFor, isDepositRequestedLater, isOpenStatus, PAYMENT_RETRY_CAP, retryHeldUntil } from './payment.rules';
import { changePayment, SYSTEM, type PaymentDeps } from './payment-change';
import { openConfigCredentials, providerOf } from './payment-config.service';
import { ProviderError, webhookUrlOf, type PaymentProvider, type ProviderCredentials } from './payment-provider';
import {
  configById,
  lockPaymentById,
  lockPaymentsOfBooking,
  lockPayouts,
  paymentById,
  refundsOfPayment,
  settleRefund,
  type PaymentRow,
} from './payment.repository';
import { payOutRefundOnce } from './provider-refunds';
import { applyProviderEvent, type ProviderEventOutcome } from './provider-events';

const SYSTEM_ACTOR: Actor = { userId: null, role: 'SYSTEM', resourceId: null };

export const AUTHORIZATION_EXPIRED = 'AUTHORIZATION_EXPIRED';
export const PAYMENT_RETRY_EXHAUSTED = 'PAYMENT_RETRY_EXHAUSTED';

function bookingDeps(deps: PaymentDeps): BookingDeps {
  return { knex: deps.knex, signaller: deps.signaller, manageLinkKey: deps.manageLinkKey, now: deps.now, bookingHooks: deps.bookingHooks };
}

async function providerFor(deps: PaymentDeps, p: PaymentRow): Promise<{ provider: PaymentProvider; credentials: ProviderCredentials }> {
  const config = p.configId ? await configById(deps.knex, p.configId) : undefined;
  if (!config) throw new ProviderError('PERMANENT', 'NO_ACTIVE_PROVIDER', `payment ${p.id} has no payment config`);
  return { provider: providerOf(deps.providers, config.provider), credentials: openConfigCredentials(deps.keyring, config) };
}

/** Records a failed attempt (docs/rules/payments.md#failures-and-retry): PERMANENT counts toward the cap, TRANSIENT does not. */
async function recordFailure(deps: PaymentDeps, trx: Transaction, p: PaymentRow, kind: 'TRANSIENT' | 'PERMANENT', reason: string): Promise<void> {
  if (p.status !== 'INITIATED') return;
  const failedCount = kind === 'PERMANENT' ? p.failedCount + 1 : p.failedCount;
  await changePayment(
    deps.signaller,
    trx,
    p,
    { status: 'FAILED', failureKind: kind, failureReason: reason.slice(0, 60), failedCount, expiresAt: retryHeldUntil(nowOf(deps)) },
    { type: 'PaymentFailed', actor: SYSTEM, data: { kind, reason } },
  );
}

/** Opens the provider's hosted checkout for an INITIATED payment, once (the payment's idempotency key). */
export async function openSession(deps: PaymentDeps, paymentId: string): Promise<'OPENED' | 'ALREADY_OPEN' | 'NOT_OPEN' | 'FAILED'> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p || p.status !== 'INITIATED') return 'NOT_OPEN';
  if (p.providerSessionId) return 'ALREADY_OPEN';
  try {
    const { provider, credentials } = await providerFor(deps, p);
    const [booking, tenant] = await Promise.all([findBookingRow(deps.knex, p.tenantId, p.bookingId, ['contactPhone']), tenantById(deps.knex, p.tenantId)]);
    const session = await provider.createSession(credentials, {
      paymentId: p.id,
      amount: p.amount,
      currency: p.currency,
      captureMode: p.captureMode,
      webhookUrl: webhookUrlOf(deps.providers, provider.name, p.tenantId),
      returnUrl: `${deps.providers.returnBaseUrl}/payments/${p.id}/return`,
      idempotencyKey: p.idempotencyKey,
      // the customer approves on their own phone (Vipps prefills it on its landing page)
      customerPhone: booking.contactPhone,
      description: `${p.intent === 'DEPOSIT' ? 'Depositum' : 'Betaling'} ${tenant.name}`,
    });
    return deps.knex.transaction(async (trx) => {
      const locked = await lockPaymentById(trx, paymentId);
      if (!locked || locked.status !== 'INITIATED' || locked.providerSessionId) return 'ALREADY_OPEN';
      await changePayment(
        deps.signaller,
        trx,
        locked,
        { providerSessionId: session.sessionId, redirectUrl: session.redirectUrl },
        { type: 'PaymentSessionCreated', actor: SYSTEM },
      );
      return 'OPENED';
    });
  } catch (err) {
    // TRANSIENT errors are retried by the activity; a PERMANENT one fails the attempt
    if (!(err instanceof ProviderError) || err.kind === 'TRANSIENT') throw err;
    await deps.knex.transaction(async (trx) => {
      const locked = await lockPaymentById(trx, paymentId);
      if (locked) await recordFailure(deps, trx, locked, 'PERMANENT', err.reason);
    });
    return 'FAILED';
  }
}

/** Payment authorized (or captured) -> a PENDING booking becomes CONFIRMED, once. */
export async function confirmBookingForPayment(deps: PaymentDeps, paymentId: string): Promise<'CONFIRMED' | 'NOT_PENDING'> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p) return 'NOT_PENDING';
  return deps.knex.transaction(async (trx) => {
    const row = await lockBookingRow(trx, p.tenantId, p.bookingId);
    if (row.status !== 'PENDING') return 'NOT_PENDING';
    await changeBooking(deps, trx, row, {
      status: 'CONFIRMED',
      audit: { actor: SYSTEM_ACTOR, action: 'STATUS_CHANGED', fromStatus: 'PENDING', toStatus: 'CONFIRMED', reason: 'PAYMENT_AUTHORIZED' },
      event: 'BookingConfirmed',
    });
    return 'CONFIRMED';
  });
}

/** Booking.depositStatus follows the deposit (PAID on capture, REFUNDED after refunds...). */
export async function followDepositStatus(deps: PaymentDeps, paymentId: string): Promise<string | null> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p || p.intent !== 'DEPOSIT') return null;
  return deps.knex.transaction(async (trx) => {
    const row = await lockBookingRow(trx, p.tenantId, p.bookingId);
    const locked = (await lockPaymentById(trx, paymentId))!;
    const next = depositStatusFor(locked.status, row.depositStatus);
    if (next === null) return null;
    // a failure of a booking that is already over changes nothing
    if (next === 'RETRY_PENDING' && row.status !== 'PENDING' && row.status !== 'CONFIRMED') return null;
    await changeBooking(deps, trx, row, {
      update: { depositStatus: next },
      audit: { actor: SYSTEM_ACTOR, action: 'UPDATED', changes: { depositStatus: next, paymentId } },
      event: 'BookingUpdated',
    });
    return next;
  });
}

/** Cancels the payment's booking by the SYSTEM role when it is still PENDING or CONFIRMED (docs/rules/booking.md#statuses). */
async function cancelBookingBySystem(deps: PaymentDeps, trx: Transaction, p: PaymentRow, reason: string): Promise<boolean> {
  const row = await lockBookingRow(trx, p.tenantId, p.bookingId);
  if (row.status !== 'PENDING' && row.status !== 'CONFIRMED') return false;
  // a deposit requested later is kept waiting for by its deadline, not by this attempt (docs/rules/payments.md#deposits-at-any-distance)
  if (isDepositRequestedLater(row.depositStatus)) return false;
  const tenant = await tenantById(trx, p.tenantId);
  await applyCancellation(bookingDeps(deps), trx, tenant, row, SYSTEM_ACTOR, { bySalon: false, reason, now: nowOf(deps) });
  return true;
}

/** PaymentFailed: at the cap the booking is cancelled (PAYMENT_RETRY_EXHAUSTED); below it, RETRY_PENDING. */
export async function settleFailure(deps: PaymentDeps, paymentId: string): Promise<'CANCELLED' | 'RETRY_PENDING' | 'NOTHING'> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p || p.status !== 'FAILED') return 'NOTHING';
  if (p.failedCount >= PAYMENT_RETRY_CAP) {
    const cancelled = await deps.knex.transaction((trx) => cancelBookingBySystem(deps, trx, p, PAYMENT_RETRY_EXHAUSTED));
    return cancelled ? 'CANCELLED' : 'NOTHING';
  }
  return (await followDepositStatus(deps, paymentId)) === 'RETRY_PENDING' ? 'RETRY_PENDING' : 'NOTHING';
}

export const PAYMENT_NOT_RETRIED = 'PAYMENT_NOT_RETRIED';

/**
 * The retry window of a failed deposit ended (docs/rules/payments.md#failures-and-retry): when the
 * customer started no new attempt (this is still the booking's latest deposit payment) and the
 * booking still waits for it (PENDING, RETRY_PENDING), it is cancelled by SYSTEM with
 * PAYMENT_NOT_RETRIED and its time freed. Otherwise nothing (a retried activity cancels nothing twice).
 */
export async function closeRetryWindow(deps: PaymentDeps, paymentId: string): Promise<'CANCELLED' | 'NOTHING'> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p || p.status !== 'FAILED' || p.intent !== 'DEPOSIT') return 'NOTHING';
  return deps.knex.transaction(async (trx) => {
    const row = await lockBookingRow(trx, p.tenantId, p.bookingId);
    const payments = await lockPaymentsOfBooking(trx, p.tenantId, p.bookingId);
    const latest = payments.filter((x) => x.intent === 'DEPOSIT').pop();
    if (latest?.id !== p.id) return 'NOTHING';
    if (row.status !== 'PENDING' || row.depositStatus !== 'RETRY_PENDING') return 'NOTHING';
    return (await cancelBookingBySystem(deps, trx, p, PAYMENT_NOT_RETRIED)) ? 'CANCELLED' : 'NOTHING';
  });
}

/** Captures an authorized payment whose capture was asked for, exactly once (idempotency key `capture:<id>`). */
export async function capturePayment(deps: PaymentDeps, paymentId: string): Promise<'CAPTURED' | 'ALREADY_CAPTURED' | 'NOT_CAPTURABLE'> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p) return 'NOT_CAPTURABLE';
  if (p.status !== 'AUTHORIZED') return p.capturedAt ? 'ALREADY_CAPTURED' : 'NOT_CAPTURABLE';
  const { provider, credentials } = await providerFor(deps, p);
  const result = await provider.capture(credentials, {
    sessionId: p.providerSessionId!,
    transactionId: p.providerTransactionId,
    amount: p.amount,
    currency: p.currency,
    idempotencyKey: `capture:${p.id}`,
  });
  return deps.knex.transaction(async (trx) => {
    const locked = (await lockPaymentById(trx, paymentId))!;
    if (locked.status !== 'AUTHORIZED') return 'ALREADY_CAPTURED';
    await changePayment(
      deps.signaller,
      trx,
      locked,
      {
        status: 'CAPTURED',
        capturedAmount: locked.amount,
        capturedAt: nowOf(deps),
        providerTransactionId: result.transactionId || locked.providerTransactionId,
      },
      { type: 'PaymentCaptured', actor: SYSTEM, amount: locked.amount },
    );
    return 'CAPTURED';
  });
}

/** Voids an authorized payment whose void was asked for (best effort at the provider). */
export async function voidPayment(deps: PaymentDeps, paymentId: string): Promise<'VOIDED' | 'NOT_VOIDABLE'> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p || p.status !== 'AUTHORIZED') return 'NOT_VOIDABLE';
  const providerVoid = await bestEffortVoid(deps, p);
  return deps.knex.transaction(async (trx) => {
    const locked = (await lockPaymentById(trx, paymentId))!;
    if (locked.status !== 'AUTHORIZED') return 'NOT_VOIDABLE';
    await changePayment(deps.signaller, trx, locked, { status: 'VOIDED' }, { type: 'PaymentVoided', actor: SYSTEM, data: { providerVoid } });
    return 'VOIDED';
  });
}

async function bestEffortVoid(deps: PaymentDeps, p: PaymentRow): Promise<'DONE' | 'FAILED' | 'NO_SESSION'> {
  if (!p.providerSessionId) return 'NO_SESSION';
  try {
    const { provider, credentials } = await providerFor(deps, p);
    await provider.void(credentials, {
      sessionId: p.providerSessionId,
      transactionId: p.providerTransactionId,
      currency: p.currency,
      idempotencyKey: `void:${p.id}`,
    });
    return 'DONE';
  } catch {
    return 'FAILED';
  }
}

/**
 * Pays out every pending refund of the payment at the provider, each exactly once (its own
 * idempotency key, or for a provider without keys what it already refunded: provider-refunds.ts).
 * A refund the provider refuses for good gives its amount back to the payment.
 */
export async function processRefunds(deps: PaymentDeps, paymentId: string): Promise<number> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p) return 0;
  let done = 0;
  for (const refund of (await refundsOfPayment(deps.knex, paymentId)).filter((r) => r.status === 'PENDING')) {
    if (await payOutRefund(deps, p, refund.id)) done += 1;
  }
  return done;
}

/** One pending refund, under the payment's payout lock; true when this call settled it as paid. */
async function payOutRefund(deps: PaymentDeps, p: PaymentRow, refundId: string): Promise<boolean> {
  const { provider, credentials } = await providerFor(deps, p);
  return deps.knex.transaction(async (trx) => {
    await lockPayouts(trx, p.id);
    const refunds = await refundsOfPayment(trx, p.id);
    const refund = refunds.find((r) => r.id === refundId);
    if (!refund || refund.status !== 'PENDING') return false;
    const paidOutBefore = refunds.filter((r) => r.status === 'SUCCEEDED').reduce((sum, r) => sum + r.amount, 0);
    try {
      const payout = await payOutRefundOnce(
        provider,
        credentials,
        {
          sessionId: p.providerSessionId!,
          transactionId: p.providerTransactionId,
          amount: refund.amount,
          currency: p.currency,
          idempotencyKey: refund.idempotencyKey,
        },
        paidOutBefore,
      );
      return settleRefund(trx, refund.id, 'SUCCEEDED', payout.refundId);
    } catch (err) {
      if (!(err instanceof ProviderError) || err.kind === 'TRANSIENT') throw err;
      const locked = (await lockPaymentById(trx, p.id))!;
      if (!(await settleRefund(trx, refund.id, 'FAILED', null))) return false;
      const refundedAmount = locked.refundedAmount - refund.amount;
      await changePayment(
        deps.signaller,
        trx,
        locked,
        { refundedAmount, status: refundedAmount === 0 ? 'CAPTURED' : 'PARTIALLY_REFUNDED' },
        { type: 'PaymentRefundFailed', actor: SYSTEM, amount: refund.amount, data: { refundId: refund.id, reason: err.reason } },
      );
      return false;
    }
  });
}

/**
 * A polled provider's webhook is late (docs/rules/payments.md#provider-webhooks): the provider is
 * asked how the open payment stands and what it says is applied as its webhook would have been
 * (claimed in the inbox under the poll's own event id, the payment moved where its status allows).
 */
export async function pollProvider(deps: PaymentDeps, paymentId: string): Promise<ProviderEventOutcome | 'NOT_POLLED' | 'NOTHING_YET'> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p || p.status !== 'INITIATED' || !p.providerSessionId) return 'NOT_POLLED';
  const { provider, credentials } = await providerFor(deps, p);
  if (!provider.pollPayment) return 'NOT_POLLED';
  const seen = await provider.pollPayment(credentials, { sessionId: p.providerSessionId, paymentId: p.id });
  if (!seen) return 'NOTHING_YET';
  return (await deps.knex.transaction((trx) => applyProviderEvent(deps, trx, provider, p.tenantId, seen))).outcome;
}

/**
 * `expiresAt` passed (docs/rules/payments.md#expiry): an INITIATED or AUTHORIZED payment gets a
 * best-effort void, becomes EXPIRED, and its PENDING or CONFIRMED booking is cancelled by SYSTEM
 * with AUTHORIZATION_EXPIRED, in one transaction (so a retried activity cancels nothing twice).
 */
export async function expirePayment(deps: PaymentDeps, paymentId: string): Promise<'EXPIRED' | 'NOT_OPEN'> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p || !isOpenStatus(p.status)) return 'NOT_OPEN';
  const providerVoid = await bestEffortVoid(deps, p);
  return deps.knex.transaction(async (trx) => {
    await lockBookingRow(trx, p.tenantId, p.bookingId);
    const locked = (await lockPaymentById(trx, paymentId))!;
    if (!isOpenStatus(locked.status)) return 'NOT_OPEN';
    await changePayment(
      deps.signaller,
      trx,
      locked,
      { status: 'EXPIRED' },
      { type: 'PaymentExpired', actor: SYSTEM, data: { bookingId: locked.bookingId, expiredAt: nowOf(deps).toISOString(), providerVoid } },
    );
    await cancelBookingBySystem(deps, trx, locked, AUTHORIZATION_EXPIRED);
    return 'EXPIRED';
  });
}

/**
 * An open checkout that expired here (e.g. its booking was cancelled) is closed at the provider too
 * (best effort), so the customer can no longer pay on the page.
 */
export async function releaseExpiredSession(deps: PaymentDeps, paymentId: string): Promise<'DONE' | 'FAILED' | 'NO_SESSION' | 'NOT_EXPIRED'> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p || p.status !== 'EXPIRED') return 'NOT_EXPIRED';
  return bestEffortVoid(deps, p);
}

/**
 * A provider's authorization or capture that arrived after the payment expired here (the booking was
 * cancelled meanwhile) is released: an authorization voided, a capture refunded (once, as every
 * refund: provider-refunds.ts), under the payment's payout lock, and the release recorded.
 */
export async function releaseLatePayment(deps: PaymentDeps, paymentId: string): Promise<'VOIDED' | 'REFUNDED' | 'NOTHING'> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p?.lateOutcome || p.lateReleasedAt) return 'NOTHING';
  const { provider, credentials } = await providerFor(deps, p);
  return deps.knex.transaction(async (trx) => {
    await lockPayouts(trx, paymentId);
    const late = (await lockPaymentById(trx, paymentId))!;
    if (!late.lateOutcome || late.lateReleasedAt) return 'NOTHING';
    const on = { sessionId: late.providerSessionId!, transactionId: late.providerTransactionId, currency: late.currency };
    let release: 'VOIDED' | 'REFUNDED';
    if (late.lateOutcome === 'AUTHORIZED') {
      await provider.void(credentials, { ...on, idempotencyKey: `late-void:${late.id}` });
      release = 'VOIDED';
    } else {
      // nothing else was ever refunded of an expired payment
      await payOutRefundOnce(provider, credentials, { ...on, amount: late.lateAmount!, idempotencyKey: `late-refund:${late.id}` }, 0);
      release = 'REFUNDED';
    }
    await changePayment(
      deps.signaller,
      trx,
      late,
      { lateReleasedAt: nowOf(deps), lateRelease: release },
      { type: 'PaymentLateReleased', actor: SYSTEM, amount: late.lateAmount, data: { release } },
    );
    return release;
  });
}
