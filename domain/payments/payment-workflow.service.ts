/**
 * The side effects of the payment workflow (docs/rules/payments.md), one function per activity. Each re-reads
 * committed state under a row lock, acts only when the state still asks for it (so a retried
 * activity changes nothing twice) and calls the provider with the payment's idempotency keys.
 */
import type { Language } from '../language/language.rules';
import type { Db, Transaction } from '../../db/db-handle';
import { tenantById } from '../tenant/tenant-context';
import { nowOf } from '../time/clock';
import { findTenant } from '../tenant/tenant.repository';
import { findCustomer } from '../customer/customer.repository';
import { bookingById } from '../booking/booking.repository';
import { claimBookingNotification, markBookingNotificationSent } from '../booking/booking-notification.repository';
import { applyCancellation } from '../booking/booking-cancel.service';
import { changeBooking } from '../booking/booking-change';
import { lockBookingRow } from '../booking/booking.repository';
import type { Actor, BookingDeps } from '../booking/booking.types';
import {
  AUTHORIZATION_HOLD_MS,
  depositStatusFor,
  isOpenStatus,
  latePaymentReleasedMessage,
  PAYMENT_RETRY_CAP,
  refundSmsText,
  retryHeldUntil,
} from './payment.rules';
import { changePayment, SYSTEM, type PaymentDeps } from './payment-change';
import { openConfigCredentials, providerOf } from './payment-config.service';
import { ProviderError, type PaymentProvider, type ProviderCredentials } from './payment-provider';
import type { PaymentSnapshot } from './payment-events.rules';
import {
  configById,
  lockPaymentById,
  lockPaymentsOfBooking,
  lockPayouts,
  paymentById,
  pendingRefundCount,
  refundsOfPayment,
  settleRefund,
  type PaymentRow,
} from './payment.repository';
import { payOutRefundOnce } from './provider-refunds';

const SYSTEM_ACTOR: Actor = { userId: null, role: 'SYSTEM', resourceId: null };

export const AUTHORIZATION_EXPIRED = 'AUTHORIZATION_EXPIRED';
export const PAYMENT_RETRY_EXHAUSTED = 'PAYMENT_RETRY_EXHAUSTED';

function bookingDeps(deps: PaymentDeps): BookingDeps {
  return { knex: deps.knex, signaller: deps.signaller, manageLinkKey: deps.manageLinkKey, now: deps.now, bookingHooks: deps.bookingHooks };
}

export async function paymentSnapshot(db: Db, paymentId: string): Promise<PaymentSnapshot | undefined> {
  const p = await paymentById(db, paymentId);
  if (!p) return undefined;
  return {
    paymentId: p.id,
    tenantId: p.tenantId,
    bookingId: p.bookingId,
    status: p.status,
    version: p.version,
    intent: p.intent,
    captureMode: p.captureMode,
    expiresAt: p.expiresAt ? new Date(p.expiresAt).toISOString() : null,
    hasSession: p.providerSessionId !== null,
    captureRequested: p.captureRequestedAt !== null,
    voidRequested: p.voidRequestedAt !== null,
    pendingRefunds: await pendingRefundCount(db, p.id),
    failedCount: p.failedCount,
    failureKind: p.failureKind,
    lateOutcome: p.lateOutcome ?? null,
    lateReleased: p.lateReleasedAt != null,
  };
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
    const session = await provider.createSession(credentials, {
      paymentId: p.id,
      amount: p.amount,
      currency: p.currency,
      captureMode: p.captureMode,
      webhookUrl: `${deps.providers.webhookBaseUrl}/webhooks/payments/${provider.name}/${p.tenantId}`,
      returnUrl: `${deps.providers.returnBaseUrl}/payments/${p.id}/return`,
      idempotencyKey: p.idempotencyKey,
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
    const locked = (await lockPaymentById(trx, paymentId))!;
    const row = await lockBookingRow(trx, p.tenantId, p.bookingId);
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
    const payments = await lockPaymentsOfBooking(trx, p.tenantId, p.bookingId);
    const latest = payments.filter((x) => x.intent === 'DEPOSIT').pop();
    if (latest?.id !== p.id) return 'NOTHING';
    const row = await lockBookingRow(trx, p.tenantId, p.bookingId);
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
    await provider.void(credentials, { sessionId: p.providerSessionId, transactionId: p.providerTransactionId, idempotencyKey: `void:${p.id}` });
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
        { sessionId: p.providerSessionId!, transactionId: p.providerTransactionId, amount: refund.amount, idempotencyKey: refund.idempotencyKey },
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
 * `expiresAt` passed (docs/rules/payments.md#expiry): an INITIATED or AUTHORIZED payment gets a
 * best-effort void, becomes EXPIRED, and its PENDING or CONFIRMED booking is cancelled by SYSTEM
 * with AUTHORIZATION_EXPIRED, in one transaction (so a retried activity cancels nothing twice).
 */
export async function expirePayment(deps: PaymentDeps, paymentId: string): Promise<'EXPIRED' | 'NOT_OPEN'> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p || !isOpenStatus(p.status)) return 'NOT_OPEN';
  const providerVoid = await bestEffortVoid(deps, p);
  return deps.knex.transaction(async (trx) => {
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

/** The hold of an authorization (7 days) from the moment it was authorized. */
export function holdExpiry(authorizedAt: Date): Date {
  return new Date(authorizedAt.getTime() + AUTHORIZATION_HOLD_MS);
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
    const on = { sessionId: late.providerSessionId!, transactionId: late.providerTransactionId };
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

/** Where the booking's customer is reached, and how they are greeted. */
async function customerOfBooking(
  deps: PaymentDeps,
  p: PaymentRow,
): Promise<{ name: string; phone: string | null; email: string | null; salonName: string; language: Language }> {
  const booking = await bookingById(deps.knex, p.bookingId);
  const customer = booking?.customerId ? await findCustomer(deps.knex, booking.tenantId, booking.customerId) : undefined;
  const tenant = (await findTenant(deps.knex, p.tenantId))!;
  const language = booking?.language ?? 'nb';
  return {
    name: booking?.contactName ?? customer?.name ?? (language === 'en' ? 'customer' : 'kunde'),
    phone: booking?.contactPhone ?? customer?.phone ?? null,
    email: booking?.contactEmail ?? customer?.email ?? null,
    salonName: tenant.name,
    language,
  };
}

/**
 * One message on one channel at most once: a booking_notifications row is claimed first and stamped
 * when the gateway took the message (a retry after a failure sends again, after success nothing).
 */
async function deliverOnce(
  deps: PaymentDeps,
  p: PaymentRow,
  channel: 'SMS' | 'EMAIL',
  kind: string,
  dedupeKey: string,
  send: (meta: Record<string, unknown>) => Promise<void>,
  sent: { to: string; text: string },
): Promise<boolean> {
  const claim = await claimBookingNotification(deps.knex, { bookingId: p.bookingId, channel, dedupeKey }, { tenantId: p.tenantId, kind });
  if (claim.sentAt) return false;
  await send({ bookingId: p.bookingId, kind, notificationId: claim.id, paymentId: p.id });
  await markBookingNotificationSent(deps.knex, claim.id, sent);
  return true;
}

export interface CustomerChannels {
  sms(to: string, text: string, meta: Record<string, unknown>): Promise<void>;
  email(to: string, subject: string, text: string, meta: Record<string, unknown>): Promise<void>;
}

/** PaymentRefunded: one SMS per paid-out refund, at most once. */
export async function sendRefundMessages(deps: PaymentDeps, paymentId: string, send: CustomerChannels['sms']): Promise<number> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p) return 0;
  const customer = await customerOfBooking(deps, p);
  if (!customer.phone) return 0;
  let sent = 0;
  for (const refund of (await refundsOfPayment(deps.knex, paymentId)).filter((r) => r.status === 'SUCCEEDED')) {
    const text = refundSmsText({
      customerName: customer.name,
      salonName: customer.salonName,
      amount: refund.amount,
      currency: p.currency,
      language: customer.language,
    });
    if (await deliverOnce(deps, p, 'SMS', 'REFUND', `REFUND:${refund.id}`, (meta) => send(customer.phone!, text, meta), { to: customer.phone!, text }))
      sent += 1;
  }
  return sent;
}

/** The customer of a released late payment is told, by SMS and by e-mail, each at most once. */
export async function sendLatePaymentMessages(deps: PaymentDeps, paymentId: string, channels: CustomerChannels): Promise<number> {
  const p = await paymentById(deps.knex, paymentId);
  if (!p?.lateRelease) return 0;
  const customer = await customerOfBooking(deps, p);
  const message = latePaymentReleasedMessage({
    customerName: customer.name,
    salonName: customer.salonName,
    amount: p.lateAmount!,
    currency: p.currency,
    release: p.lateRelease,
    language: customer.language,
  });
  const dedupeKey = `LATE_PAYMENT:${p.id}`;
  let sent = 0;
  if (
    customer.phone &&
    (await deliverOnce(deps, p, 'SMS', 'LATE_PAYMENT', dedupeKey, (meta) => channels.sms(customer.phone!, message.text, meta), {
      to: customer.phone,
      text: message.text,
    }))
  )
    sent += 1;
  if (
    customer.email &&
    (await deliverOnce(deps, p, 'EMAIL', 'LATE_PAYMENT', dedupeKey, (meta) => channels.email(customer.email!, message.subject, message.text, meta), {
      to: customer.email,
      text: message.text,
    }))
  )
    sent += 1;
  return sent;
}
