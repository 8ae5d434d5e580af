/**
 * Payment operations behind the HTTP routes (docs/rules/payments.md): the provider webhook, the
 * customer's payment page data, status poll and retry, and the admin list, detail, refund, void,
 * capture and remaining payment. Each owns its transaction; every change signals `payment:<id>`.
 */
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { guestBooking, assertStaffScope } from '../booking/booking-access.service';
import { changeBooking } from '../booking/booking-change.service';
import { findBookingRow, lockBookingRow } from '../booking/booking.repository';
import { isBookingOfAccount } from '../booking/booking-account.repository';
import type { Actor, BookingRow } from '../booking/booking.types';

/** How a customer proves a booking is theirs on the public payment routes. */
export interface PaymentOwnerProof {
  token?: string;
  phone?: string;
  customerAccountId?: string;
}
import { CHECKOUT_SESSION_TTL_MS, remainingAmount, retryRejection } from './payment.rules';
import { changePayment, insertPayment, newIdempotencyKey, newPaymentRow, type PaymentActor, type PaymentDeps } from './payment-change';
import { nowOf } from '../time/clock';
import { openConfigCredentials, providerOf } from './payment-config.service';
import { reserveRefund } from './payment-refunds';
import { openSession } from './payment-workflow.service';
import { openRequestedDeposit } from './deposit-request.service';
import { webhookUrlOf, type RawWebhook } from './payment-provider';
import { applyProviderEvent, type LateConfirmation, type ProviderEventOutcome } from './provider-events';
import { paymentDetailDto, paymentDto, publicPaymentDto, type PaymentDto } from './payment.dto';
import * as repo from './payment.repository';
import type { PaymentRow } from './payment.repository';

// ------------------------------------------------------------------ webhooks

export type WebhookOutcome = ProviderEventOutcome;
export type { LateConfirmation } from './provider-events';

/**
 * The signature is checked over the raw request with the tenant's decrypted secret (each config of
 * that provider is tried), against the address the provider was given for the salon's webhooks; a
 * mismatch is 401 and writes nothing. A verified event is applied in one transaction
 * (provider-events.ts): claimed in the inbox, then the payment moved where its status allows.
 */
export async function receiveWebhook(
  deps: PaymentDeps,
  providerName: string,
  tenantId: string,
  raw: Omit<RawWebhook, 'url'> & { search: string },
): Promise<{ outcome: WebhookOutcome; late?: LateConfirmation }> {
  const provider = deps.providers.get(providerName.toLowerCase());
  if (!provider) throw errors.notFound('paymentProvider', 'unknown payment provider');
  const webhook: RawWebhook = { ...raw, url: `${webhookUrlOf(deps.providers, provider.name, tenantId)}${raw.search}` };
  const configs = (await repo.configsOfTenant(deps.knex, tenantId)).filter((c) => c.provider === provider.name);
  let event = null;
  for (const config of configs) {
    try {
      event = provider.verifyWebhook(openConfigCredentials(deps.keyring, config), webhook);
    } catch {
      event = null;
    }
    if (event) break;
  }
  if (!event) throw errors.unauthorized('The webhook signature is not valid');
  const verified = event;
  return deps.knex.transaction((trx) => applyProviderEvent(deps, trx, provider, tenantId, verified));
}

// ------------------------------------------------------------------ customer side

/** Who may act on a booking's payment from the portal (docs/rules/payments.md#failures-and-retry): the booking's owner: the signed-in customer whose booking it is, or whoever holds its token or contact phone. */
export async function assertPaymentOwner(deps: PaymentDeps, tenant: TenantContext, bookingId: string, proof: PaymentOwnerProof): Promise<void> {
  if (proof.customerAccountId && (await isBookingOfAccount(deps.knex, tenant.id, bookingId, proof.customerAccountId))) return;
  if (!proof.token && !proof.phone) throw errors.notFound('booking');
  await guestBooking(deps, tenant, bookingId, proof);
}

async function withOpenSession(deps: PaymentDeps, p: PaymentRow): Promise<PaymentRow> {
  if (p.status !== 'INITIATED' || p.providerSessionId) return p;
  await openSession(deps, p.id);
  return repo.findPayment(deps.knex, p.tenantId, p.id);
}

/** GET /public/tenants/:slug/bookings/:bookingId/payment: the latest deposit and where to pay it. */
export async function publicPayment(deps: PaymentDeps, tenant: TenantContext, bookingId: string, proof: PaymentOwnerProof) {
  await assertPaymentOwner(deps, tenant, bookingId, proof);
  // a deposit requested later gets its attempt when the customer comes to pay it (docs/rules/payments.md#deposits-at-any-distance)
  await openRequestedDeposit(deps, tenant, bookingId);
  const latest = (await repo.paymentsOfBooking(deps.knex, tenant.id, bookingId)).filter((p) => p.provider !== null).pop();
  if (!latest) throw errors.notFound('payment', 'This booking has no online payment');
  return publicPaymentDto(await withOpenSession(deps, latest));
}

/**
 * GET /public/payments/:tenantId/status: what the return page shows (docs/rules/payments.md#the-return-page),
 * and not the booking's id: anyone with the payment id (it is in the provider's return address) may
 * poll, and a booking is only reached with proof.
 */
export async function paymentStatus(deps: PaymentDeps, tenantId: string, paymentId: string) {
  const p = await repo.findPayment(deps.knex, tenantId, paymentId);
  const booking = await findBookingRow(deps.knex, tenantId, p.bookingId, ['status', 'depositStatus']);
  return { paymentId: p.id, status: p.status, bookingStatus: booking.status, depositStatus: booking.depositStatus };
}

async function activeProviderConfig(deps: PaymentDeps, tenantId: string) {
  const config = await repo.activeConfig(deps.knex, tenantId);
  if (!config) throw errors.unprocessable('NO_ACTIVE_PROVIDER', 'The salon has no active payment provider');
  return config;
}

/**
 * POST /public/tenants/:slug/bookings/:id/payment/retry (docs/rules/payments.md#failures-and-retry): a new payment with a new
 * idempotency key, the same amount, intent and capture mode, for a PENDING booking in RETRY_PENDING
 * whose failures are below the cap. The booking's depositStatus goes back to PENDING.
 */
export async function retryPayment(deps: PaymentDeps, tenant: TenantContext, bookingId: string, proof: PaymentOwnerProof) {
  await assertPaymentOwner(deps, tenant, bookingId, proof);
  const config = await activeProviderConfig(deps, tenant.id);
  const created = await deps.knex.transaction(async (trx) => {
    const booking = await lockBookingRow(trx, tenant.id, bookingId);
    const payments = await repo.lockPaymentsOfBooking(trx, tenant.id, bookingId);
    const last = payments.filter((p) => p.intent === 'DEPOSIT').pop();
    const rejection = retryRejection({
      bookingStatus: booking.status,
      depositStatus: booking.depositStatus,
      lastPaymentStatus: last?.status ?? null,
      failedCount: last?.failedCount ?? 0,
    });
    if (rejection || !last) {
      if ((last?.failedCount ?? 0) >= 3) throw errors.unprocessable('PAYMENT_RETRY_CAP', `Payment cannot be retried: ${rejection}`);
      throw errors.conflict('PAYMENT_NOT_RETRYABLE', `Payment cannot be retried: ${rejection ?? 'no payment'}`);
    }
    const payment = await insertPayment(
      deps.signaller,
      trx,
      newPaymentRow({
        tenantId: tenant.id,
        bookingId,
        configId: config.id,
        provider: config.provider,
        intent: last.intent,
        captureMode: last.captureMode,
        status: 'INITIATED',
        amount: last.amount,
        currency: last.currency,
        expiresAt: new Date(nowOf(deps).getTime() + CHECKOUT_SESSION_TTL_MS),
        failedCount: last.failedCount,
      }),
      { role: 'CUSTOMER' },
      { data: { retryOf: last.id } },
    );
    await changeBooking(deps, trx, booking, {
      update: { depositStatus: 'PENDING' },
      audit: { actor: { userId: null, role: 'CUSTOMER', resourceId: null }, action: 'UPDATED', changes: { depositStatus: 'PENDING', paymentId: payment.id } },
      event: 'BookingUpdated',
    });
    return payment;
  });
  return publicPaymentDto(await withOpenSession(deps, created));
}

// ------------------------------------------------------------------ admin side

function actorOf(actor: Actor): PaymentActor {
  return { role: actor.role === 'SYSTEM' ? 'SYSTEM' : actor.role, userId: actor.userId };
}

/** STAFF see payments of their own (or unassigned) bookings only (docs/rules/auth.md#staff-scoping); others: the tenant's. */
async function assertPaymentScope(deps: PaymentDeps, actor: Actor, p: PaymentRow): Promise<void> {
  if (actor.role !== 'STAFF') return;
  const booking = await findBookingRow(deps.knex, p.tenantId, p.bookingId, ['id', 'resourceId']);
  await assertStaffScope(deps.knex, actor, booking);
}

export async function listPayments(deps: PaymentDeps, tenantId: string, q: { status?: string; page: number; limit: number }) {
  const status = q.status
    ? q.status
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
  const { rows, total } = await repo.pageOfPayments(deps.knex, tenantId, { status }, q);
  return { rows: rows.map(paymentDto), total, page: q.page, limit: q.limit };
}

export async function paymentDetail(deps: PaymentDeps, tenantId: string, actor: Actor, id: string) {
  const p = await repo.findPayment(deps.knex, tenantId, id);
  await assertPaymentScope(deps, actor, p);
  return paymentDetailDto(p, await repo.eventsOfPayment(deps.knex, p.id), await repo.refundsOfPayment(deps.knex, p.id));
}

export async function paymentsByBooking(deps: PaymentDeps, tenantId: string, actor: Actor, bookingId: string): Promise<PaymentDto[]> {
  const booking = await findBookingRow(deps.knex, tenantId, bookingId, ['id', 'resourceId']);
  await assertStaffScope(deps.knex, actor, booking);
  return (await repo.paymentsOfBooking(deps.knex, tenantId, bookingId)).map(paymentDto);
}

/** POST /admin/payments/:id/refund: at most captured - refunded, under the payment's row lock. */
export async function refundPayment(
  deps: PaymentDeps,
  tenantId: string,
  actor: Actor,
  id: string,
  input: { amount: number; reason?: string },
): Promise<PaymentDto> {
  const payment = await deps.knex.transaction(async (trx) => {
    const locked = await repo.lockPayment(trx, tenantId, id);
    return (await reserveRefund(deps.signaller, trx, locked, input.amount, input.reason ?? null, actorOf(actor))).payment;
  });
  return paymentDto(payment);
}

/** POST /admin/payments/:id/capture and /void: asks the workflow to do it at the provider (once). */
export async function requestCapture(deps: PaymentDeps, tenantId: string, actor: Actor, id: string): Promise<PaymentDto> {
  return requestAction(deps, tenantId, actor, id, 'capture');
}

export async function requestVoid(deps: PaymentDeps, tenantId: string, actor: Actor, id: string): Promise<PaymentDto> {
  return requestAction(deps, tenantId, actor, id, 'void');
}

async function requestAction(deps: PaymentDeps, tenantId: string, actor: Actor, id: string, action: 'capture' | 'void'): Promise<PaymentDto> {
  const now = nowOf(deps);
  const payment = await deps.knex.transaction(async (trx) => {
    const locked = await repo.lockPayment(trx, tenantId, id);
    if (locked.status !== 'AUTHORIZED')
      throw errors.conflict('PAYMENT_NOT_AUTHORIZED', `A ${locked.status} payment cannot be ${action === 'capture' ? 'captured' : 'voided'}`);
    if (action === 'capture' && locked.voidRequestedAt) throw errors.conflict('PAYMENT_VOID_PENDING', 'The payment is being voided');
    if (action === 'void' && locked.captureRequestedAt) throw errors.conflict('PAYMENT_CAPTURE_PENDING', 'The payment is being captured');
    if (action === 'capture' && locked.captureRequestedAt) return locked;
    if (action === 'void' && locked.voidRequestedAt) return locked;
    return changePayment(deps.signaller, trx, locked, action === 'capture' ? { captureRequestedAt: now } : { voidRequestedAt: now }, {
      type: action === 'capture' ? 'PaymentCaptureRequested' : 'PaymentVoidRequested',
      actor: actorOf(actor),
    });
  });
  return paymentDto(payment);
}

/**
 * POST /admin/payments/remaining (docs/rules/payments.md#remaining-payment): remaining = total - captured + refunded (above 0), as a
 * new automatic-capture payment; answers its redirect URL (the front-end shows it as a QR code).
 */
export async function collectRemaining(deps: PaymentDeps, tenant: TenantContext, actor: Actor, bookingId: string): Promise<PaymentDto> {
  const config = await activeProviderConfig(deps, tenant.id);
  const created = await deps.knex.transaction(async (trx) => {
    const booking = await lockBookingRow(trx, tenant.id, bookingId);
    await assertStaffScope(trx, actor, booking);
    const payments = await repo.lockPaymentsOfBooking(trx, tenant.id, bookingId);
    if (payments.some((p) => p.intent === 'REMAINING' && p.status === 'INITIATED')) {
      throw errors.conflict('PAYMENT_REMAINING_OPEN', 'A remaining payment of this booking is already waiting for the customer');
    }
    const amount = remainingAmount(booking.totalAmount, booking.discountAmount, payments);
    if (amount <= 0) throw errors.unprocessable('PAYMENT_NOTHING_REMAINING', 'Nothing remains to be paid for this booking');
    return insertPayment(
      deps.signaller,
      trx,
      newPaymentRow({
        tenantId: tenant.id,
        bookingId,
        configId: config.id,
        provider: config.provider,
        intent: 'REMAINING',
        captureMode: 'AUTO',
        status: 'INITIATED',
        amount,
        currency: tenant.settings.currency,
        expiresAt: new Date(nowOf(deps).getTime() + CHECKOUT_SESSION_TTL_MS),
      }),
      actorOf(actor),
    );
  });
  return paymentDto(await withOpenSession(deps, created));
}
