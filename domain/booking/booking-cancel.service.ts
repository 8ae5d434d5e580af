/**
 * Cancellation (docs/rules/booking.md#cancellation): salon side (POST /bookings/:id/cancel), guest side inside the free
 * window (POST /public/tenants/:slug/bookings/:id/cancel), and the read-only preview of the refund
 * policy (GET /bookings/:id/cancel-preview). applyCancellation is also the CANCELLED edge of
 * changeStatus, inside that service's transaction.
 */
import type { Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { decideTransition, type BookingStatus } from './booking-status.rules';
import { decideCancellation, isWithinFreeCancellationWindow, type CancellationDecision } from './cancellation.rules';
import { changeBooking } from './booking-change.service';
import { transitionError } from './booking-errors.rules';
import { assertStaffScope, guestBooking, type GuestProof } from './booking-access.service';
import { findBookingRow, loadDto, lockBookingRow } from './booking.repository';
import { freeCancellationUntil, type BookingDto } from './booking.dto';
import { publicDto, type PublicBookingDto } from './booking-public.dto';
import { GUEST_ACTOR, type Actor, type BookingDeps, type BookingRow } from './booking.types';
import { nowOf } from '../time/clock';
import { toIso } from '../time/iso';

/** The cancellation refund policy over the booking's deposit (payments finds it, through booking-hooks.ts). */
async function cancellationPolicy(deps: BookingDeps, trx: Transaction, tenant: TenantContext, row: BookingRow, bySalon: boolean, now: Date) {
  const found = await deps.bookingHooks.depositForCancellation(trx, tenant.id, row.id);
  const decision: CancellationDecision = decideCancellation({
    bookingStart: new Date(row.startTime),
    now,
    cancellationHours: tenant.settings.cancellationHours,
    cancelledBy: bySalon ? 'SALON' : 'CUSTOMER',
    deposit: found.deposit,
    alreadyRefundedAmount: found.alreadyRefunded,
  });
  return { ...decision, deposit: found.deposit, paymentId: found.paymentId };
}

/** What a cancellation did with the deposit: the policy's action and amounts (the SMS reply tells it, docs/rules/reminders.md#answering-by-sms). */
export interface CancellationOutcome {
  action: CancellationDecision['action'];
  deposit: 'NONE' | 'AUTHORIZED' | 'CAPTURED';
  depositAmount: number;
  refundAmount: number;
}

/** Cancels the locked row inside the caller's transaction: status, fee, audit, signal before commit. */
export async function applyCancellation(
  deps: BookingDeps,
  trx: Transaction,
  tenant: TenantContext,
  row: BookingRow,
  actor: Actor,
  opts: { bySalon: boolean; reason: string | null; now: Date; forced?: boolean },
): Promise<CancellationOutcome> {
  const decision = decideTransition(row.status, 'CANCELLED', { bySalon: opts.bySalon });
  if (!decision.allowed && !opts.forced) throw transitionError(decision.rejection, row.status, 'CANCELLED');
  const policy = await cancellationPolicy(deps, trx, tenant, row, opts.bySalon, opts.now);
  // The reserved voucher comes back, unless a captured payment is kept (forfeited with it)
  const voucherRelease = await deps.bookingHooks.releaseVoucher(trx, deps.signaller, row, policy.action === 'FORFEIT', actor, opts.now);
  const cancelledBy = actor.role === 'SYSTEM' ? 'SYSTEM' : opts.bySalon ? 'SALON' : 'CUSTOMER';
  await changeBooking(deps, trx, row, {
    status: 'CANCELLED',
    update: {
      ...voucherRelease,
      cancelReason: opts.reason,
      cancelledBy,
      cancelledAt: opts.now,
      cancellationFee: policy.cancellationFee,
      ...(policy.depositStatusAfter ? { depositStatus: policy.depositStatusAfter } : {}),
    },
    audit: {
      actor,
      action: 'CANCELLED',
      fromStatus: row.status,
      toStatus: 'CANCELLED',
      reason: opts.reason,
      forced: opts.forced ?? false,
      changes: { bySalon: opts.bySalon, withinFreeWindow: policy.withinFreeWindow, refundAction: policy.action, cancellationFee: policy.cancellationFee },
    },
    event: opts.bySalon ? 'BookingCancelledBySalon' : 'BookingCancelled',
  });
  await deps.bookingHooks.cancelled(deps.signaller, trx, row.tenantId, row.id, policy.paymentId, policy, { role: actor.role, userId: actor.userId }, opts.now);
  await deps.bookingHooks.bookingCancelled(deps.signaller, trx, { tenantId: row.tenantId, bookingId: row.id, by: cancelledBy }, opts.now);
  return {
    action: policy.action,
    deposit: policy.deposit.state,
    depositAmount: policy.deposit.state === 'NONE' ? 0 : policy.deposit.amount,
    refundAmount: policy.refundAmount,
  };
}

/** POST /bookings/:id/cancel (salon side; `bySalon` false = the customer cancelled through the salon). */
export async function cancelBooking(
  deps: BookingDeps,
  tenant: TenantContext,
  actor: Actor,
  id: string,
  input: { bySalon?: boolean; reason?: string },
): Promise<BookingDto> {
  await deps.knex.transaction(async (trx) => {
    const row = await lockBookingRow(trx, tenant.id, id);
    await assertStaffScope(trx, actor, row);
    await applyCancellation(deps, trx, tenant, row, actor, { bySalon: input.bySalon ?? false, reason: input.reason ?? null, now: nowOf(deps) });
  });
  return loadDto(deps.knex, tenant.id, id);
}

/** POST /public/tenants/:slug/bookings/:id/cancel: inside the free window only. */
export async function cancelPublicBooking(
  deps: BookingDeps,
  tenant: TenantContext,
  id: string,
  input: GuestProof & { reason?: string },
): Promise<PublicBookingDto> {
  await guestBooking(deps, tenant, id, input);
  const now = nowOf(deps);
  await deps.knex.transaction(async (trx) => {
    const row = await lockBookingRow(trx, tenant.id, id);
    if (!isWithinFreeCancellationWindow(new Date(row.startTime), now, tenant.settings.cancellationHours)) {
      throw errors.unprocessable(
        'CANCELLATION_WINDOW_CLOSED',
        `Free cancellation ends ${tenant.settings.cancellationHours} hours before the appointment; please contact the salon`,
      );
    }
    await applyCancellation(deps, trx, tenant, row, GUEST_ACTOR, { bySalon: false, reason: input.reason ?? null, now });
  });
  return publicDto(deps.knex, tenant, await loadDto(deps.knex, tenant.id, id));
}

export interface CancelPreviewDto {
  bookingId: string;
  status: BookingStatus;
  startTime: string;
  cancellationHours: number;
  freeCancellationUntil: string;
  cancelledBy: 'CUSTOMER' | 'SALON';
  deposit: 'NONE' | 'AUTHORIZED' | 'CAPTURED';
  depositAmount: number;
  withinFreeWindow: boolean;
  action: string;
  refundAmount: number;
  cancellationFee: number;
  depositStatusAfter: string | null;
  captureRequired: boolean;
  event: string;
  cancellable: boolean;
}

/** GET /bookings/:id/cancel-preview: what cancelling now would do; changes nothing. */
export async function cancelPreview(deps: BookingDeps, tenant: TenantContext, actor: Actor, id: string, bySalon: boolean): Promise<CancelPreviewDto> {
  const row = await findBookingRow(deps.knex, tenant.id, id);
  await assertStaffScope(deps.knex, actor, row);
  return previewOf(deps, tenant, row, bySalon);
}

/** The customer's manage page: what cancelling now would do, for whoever holds the booking's token or phone. */
export async function guestCancelPreview(deps: BookingDeps, tenant: TenantContext, id: string, proof: GuestProof): Promise<CancelPreviewDto> {
  return previewOf(deps, tenant, await guestBooking(deps, tenant, id, proof), false);
}

/** What cancelling the row now would do, as the customer (the SMS reply outside the free window tells it). */
export async function customerCancelPreview(deps: BookingDeps, tenant: TenantContext, row: BookingRow): Promise<CancelPreviewDto> {
  return previewOf(deps, tenant, row, false);
}

async function previewOf(deps: BookingDeps, tenant: TenantContext, row: BookingRow, bySalon: boolean): Promise<CancelPreviewDto> {
  const p = await deps.knex.transaction((trx) => cancellationPolicy(deps, trx, tenant, row, bySalon, nowOf(deps)));
  return {
    bookingId: row.id,
    status: row.status,
    startTime: toIso(row.startTime),
    cancellationHours: tenant.settings.cancellationHours,
    freeCancellationUntil: freeCancellationUntil(row.startTime, tenant.settings.cancellationHours),
    cancelledBy: bySalon ? 'SALON' : 'CUSTOMER',
    deposit: p.deposit.state,
    depositAmount: p.deposit.state === 'NONE' ? 0 : p.deposit.amount,
    withinFreeWindow: p.withinFreeWindow,
    action: p.action,
    refundAmount: p.refundAmount,
    cancellationFee: p.cancellationFee,
    depositStatusAfter: p.depositStatusAfter,
    captureRequired: p.captureRequired,
    event: p.event,
    cancellable: decideTransition(row.status, 'CANCELLED').allowed,
  };
}
