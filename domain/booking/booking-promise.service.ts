/**
 * The customer promises to come (docs/rules/reminders.md#promising-to-come): from the manage page or
 * the public API with the booking's manage token or phone (LINK), by replying JA to the reminder
 * (SMS), or through the salon (STAFF, POST /bookings/:id/promise). The promise is not the salon's
 * confirmation: it is recorded beside the status through the change primitive (version + 1, audit
 * row, signal), so the booking's workflow drops its flag to the salon; promising twice changes nothing.
 */
import type { Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { canPromise, type PromiseChannel } from './booking-reminder.rules';
import { changeBooking } from './booking-change.service';
import { assertStaffScope, guestBooking, type GuestProof } from './booking-access.service';
import { loadDto, lockBookingRow } from './booking.repository';
import type { BookingDto } from './booking.dto';
import { publicDto, type PublicBookingDto } from './booking-public.dto';
import { GUEST_ACTOR, type Actor, type BookingDeps, type BookingRow } from './booking.types';
import { nowOf } from '../time/clock';

export type PromiseOutcome = 'PROMISED' | 'ALREADY_PROMISED';

/** 409 when a booking is no longer ahead of the customer; the released routes answer it with their own code (docs/rules/errors.md). */
export type NotPromisableCode = 'BOOKING_NOT_PROMISABLE' | 'BOOKING_NOT_CONFIRMABLE';

/**
 * Records the promise on the locked row inside the caller's transaction. A booking already promised
 * is left as it is (ALREADY_PROMISED, the first channel kept); one no longer ahead of the customer
 * (cancelled, arrived, finished, started) is 409 BOOKING_NOT_PROMISABLE.
 */
export async function applyPromise(
  deps: BookingDeps,
  trx: Transaction,
  row: BookingRow,
  actor: Actor,
  via: PromiseChannel,
  now: Date,
  notPromisable: NotPromisableCode = 'BOOKING_NOT_PROMISABLE',
): Promise<PromiseOutcome> {
  if (row.promisedAt) return 'ALREADY_PROMISED';
  if (!canPromise(row, now.getTime())) {
    throw errors.conflict(notPromisable, `The customer cannot promise to come to a ${row.status.toLowerCase()} booking`, [
      { field: 'status', message: row.status },
    ]);
  }
  await changeBooking(deps, trx, row, {
    update: { promisedAt: now, promisedVia: via },
    audit: { actor, action: 'UPDATED', changes: { promisedAt: now.toISOString(), promisedVia: via } },
    event: 'BookingPromised',
  });
  return 'PROMISED';
}

/** POST /public/tenants/:slug/bookings/:id/promise, and the manage page's "I promise to come": proven by the token or the contact phone. */
export async function recordPublicBookingPromise(
  deps: BookingDeps,
  tenant: TenantContext,
  id: string,
  proof: GuestProof,
  notPromisable?: NotPromisableCode,
): Promise<PublicBookingDto> {
  await guestBooking(deps, tenant, id, proof);
  const now = nowOf(deps);
  await deps.knex.transaction(async (trx) => {
    await applyPromise(deps, trx, await lockBookingRow(trx, tenant.id, id), GUEST_ACTOR, 'LINK', now, notPromisable);
  });
  return publicDto(deps.knex, tenant, await loadDto(deps.knex, tenant.id, id));
}

/** POST /bookings/:id/promise: the customer told the salon they are coming (STAFF). */
export async function recordBookingPromise(
  deps: BookingDeps,
  tenant: TenantContext,
  actor: Actor,
  id: string,
  notPromisable?: NotPromisableCode,
): Promise<BookingDto> {
  const now = nowOf(deps);
  await deps.knex.transaction(async (trx) => {
    const row = await lockBookingRow(trx, tenant.id, id);
    await assertStaffScope(trx, actor, row);
    await applyPromise(deps, trx, row, actor, 'STAFF', now, notPromisable);
  });
  return loadDto(deps.knex, tenant.id, id);
}
