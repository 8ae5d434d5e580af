/**
 * A deposit requested later (docs/rules/payments.md#deposits-at-any-distance), the steps the booking's
 * workflow and the customer take: the request (SCHEDULED -> REQUESTED; the workflow sends the SMS
 * and e-mail), the customer's attempt from the request's link (a checkout like any other), and the
 * deadline (still not paid: the booking is cancelled by SYSTEM with DEPOSIT_NOT_PAID and its time
 * offered to the waitlist, as every cancellation frees it). Each re-reads the booking under its row
 * lock and acts only when the booking still asks for it, so a retried activity changes nothing twice.
 */
import { errors } from '../errors';
import { nowOf } from '../time/clock';
import { tenantById, type TenantContext } from '../tenant/tenant-context';
import { applyCancellation } from '../booking/booking-cancel.service';
import { changeBooking } from '../booking/booking-change.service';
import { lockBookingRow } from '../booking/booking.repository';
import type { Actor, BookingDeps, BookingRow } from '../booking/booking.types';
import { bookingById } from '../booking/booking-timeline.repository';
import { CHECKOUT_SESSION_TTL_MS, DEPOSIT_REQUESTED, DEPOSIT_SCHEDULED, isCapturedStatus, isDepositRequestedLater } from './payment.rules';
import { bookingDeposit } from './deposit-timing.rules';
import { insertPayment, newPaymentRow, SYSTEM, type PaymentDeps } from './payment-change';
import { activeConfig, lockPaymentsOfBooking } from './payment.repository';

export const DEPOSIT_NOT_PAID = 'DEPOSIT_NOT_PAID';

const SYSTEM_ACTOR: Actor = { userId: null, role: 'SYSTEM', resourceId: null };

function bookingDeps(deps: PaymentDeps): BookingDeps {
  return { knex: deps.knex, signaller: deps.signaller, manageLinkKey: deps.manageLinkKey, now: deps.now, bookingHooks: deps.bookingHooks };
}

function isAhead(row: BookingRow): boolean {
  return row.status === 'PENDING' || row.status === 'CONFIRMED';
}

/** The request's time came: the deposit is asked for (REQUESTED); the workflow then tells the customer. */
export async function requestDeposit(deps: PaymentDeps, bookingId: string): Promise<'REQUESTED' | 'NOT_SCHEDULED'> {
  const found = await bookingById(deps.knex, bookingId);
  if (!found) return 'NOT_SCHEDULED';
  return deps.knex.transaction(async (trx) => {
    const row = await lockBookingRow(trx, found.tenantId, bookingId);
    if (!isAhead(row) || row.depositStatus !== DEPOSIT_SCHEDULED) return 'NOT_SCHEDULED';
    await changeBooking(bookingDeps(deps), trx, row, {
      update: { depositStatus: DEPOSIT_REQUESTED },
      audit: { actor: SYSTEM_ACTOR, action: 'UPDATED', changes: { depositStatus: DEPOSIT_REQUESTED } },
      event: 'BookingUpdated',
    });
    return 'REQUESTED';
  });
}

/**
 * The customer follows the request's link: a new deposit attempt (INITIATED, the checkout's 30
 * minutes) for a REQUESTED booking, unless one is open or the deposit is already reserved or paid.
 * 422 NO_ACTIVE_PROVIDER when the salon has no active payment configuration.
 */
export async function openRequestedDeposit(deps: PaymentDeps, tenant: TenantContext, bookingId: string): Promise<void> {
  const config = await activeConfig(deps.knex, tenant.id);
  await deps.knex.transaction(async (trx) => {
    const row = await lockBookingRow(trx, tenant.id, bookingId);
    if (!isAhead(row) || row.depositStatus !== DEPOSIT_REQUESTED) return;
    const deposits = (await lockPaymentsOfBooking(trx, tenant.id, bookingId)).filter((p) => p.intent === 'DEPOSIT');
    if (deposits.some((p) => p.status === 'INITIATED' || p.status === 'AUTHORIZED' || isCapturedStatus(p.status))) return;
    if (!config) throw errors.unprocessable('NO_ACTIVE_PROVIDER', 'The salon has no active payment provider');
    const s = tenant.settings;
    const amount = bookingDeposit(s, row);
    await insertPayment(
      deps.signaller,
      trx,
      newPaymentRow({
        tenantId: tenant.id,
        bookingId,
        intent: 'DEPOSIT',
        amount,
        currency: s.currency,
        configId: config.id,
        provider: config.provider,
        captureMode: config.captureMode,
        status: 'INITIATED',
        expiresAt: new Date(nowOf(deps).getTime() + CHECKOUT_SESSION_TTL_MS),
      }),
      SYSTEM,
      { data: { requestedLater: true } },
    );
  });
}

/** The deadline: a deposit still owed cancels its booking (DEPOSIT_NOT_PAID); a reserved or paid one changes nothing. */
export async function cancelUnpaidDeposit(deps: PaymentDeps, bookingId: string): Promise<'CANCELLED' | 'NOTHING'> {
  const found = await bookingById(deps.knex, bookingId);
  if (!found) return 'NOTHING';
  return deps.knex.transaction(async (trx) => {
    const row = await lockBookingRow(trx, found.tenantId, bookingId);
    if (!isAhead(row) || !isDepositRequestedLater(row.depositStatus)) return 'NOTHING';
    const tenant = await tenantById(trx, row.tenantId);
    await applyCancellation(bookingDeps(deps), trx, tenant, row, SYSTEM_ACTOR, { bySalon: false, reason: DEPOSIT_NOT_PAID, now: nowOf(deps) });
    return 'CANCELLED';
  });
}
