/**
 * The customer confirms they are coming (docs/rules/reminders.md#confirming): from the manage page
 * or the public API with the booking's token or phone (LINK), by replying to the reminder (SMS), or
 * through the salon (STAFF, POST /bookings/:id/confirmation). The confirmation is recorded beside the
 * status through the change primitive (version + 1, audit row, signal), so the booking's workflow
 * drops its unconfirmed flag; confirming twice changes nothing.
 */
import type { Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { canConfirmAttendance, type ConfirmationChannel } from './booking-confirmation.rules';
import { changeBooking } from './booking-change.service';
import { assertStaffScope, guestBooking, type GuestProof } from './booking-access.service';
import { loadDto, lockBookingRow } from './booking.repository';
import type { BookingDto } from './booking.dto';
import { publicDto, type PublicBookingDto } from './booking-public.dto';
import { GUEST_ACTOR, type Actor, type BookingDeps, type BookingRow } from './booking.types';
import { nowOf } from '../time/clock';

export type ConfirmOutcome = 'CONFIRMED' | 'ALREADY_CONFIRMED';

/**
 * Records the confirmation on the locked row inside the caller's transaction. A booking already
 * confirmed is left as it is (ALREADY_CONFIRMED, first channel kept); one no longer ahead of the
 * customer (cancelled, arrived, finished, started) is 409 BOOKING_NOT_CONFIRMABLE.
 */
export async function applyConfirmation(
  deps: BookingDeps,
  trx: Transaction,
  row: BookingRow,
  actor: Actor,
  via: ConfirmationChannel,
  now: Date,
): Promise<ConfirmOutcome> {
  if (row.confirmedAt) return 'ALREADY_CONFIRMED';
  if (!canConfirmAttendance(row, now.getTime())) {
    throw errors.conflict('BOOKING_NOT_CONFIRMABLE', `A ${row.status.toLowerCase()} booking cannot be confirmed`, [{ field: 'status', message: row.status }]);
  }
  await changeBooking(deps, trx, row, {
    update: { confirmedAt: now, confirmedVia: via },
    audit: { actor, action: 'UPDATED', changes: { confirmedAt: now.toISOString(), confirmedVia: via } },
    event: 'BookingAttendanceConfirmed',
  });
  return 'CONFIRMED';
}

/** POST /public/tenants/:slug/bookings/:id/confirm, and the manage page's Confirm: proven by the token or the contact phone. */
export async function confirmPublicBooking(deps: BookingDeps, tenant: TenantContext, id: string, proof: GuestProof): Promise<PublicBookingDto> {
  await guestBooking(deps, tenant, id, proof);
  const now = nowOf(deps);
  await deps.knex.transaction(async (trx) => {
    await applyConfirmation(deps, trx, await lockBookingRow(trx, tenant.id, id), GUEST_ACTOR, 'LINK', now);
  });
  return publicDto(deps.knex, tenant, await loadDto(deps.knex, tenant.id, id));
}

/** POST /bookings/:id/confirmation: the customer told the salon they are coming (STAFF). */
export async function recordConfirmation(deps: BookingDeps, tenant: TenantContext, actor: Actor, id: string): Promise<BookingDto> {
  const now = nowOf(deps);
  await deps.knex.transaction(async (trx) => {
    const row = await lockBookingRow(trx, tenant.id, id);
    await assertStaffScope(trx, actor, row);
    await applyConfirmation(deps, trx, row, actor, 'STAFF', now);
  });
  return loadDto(deps.knex, tenant.id, id);
}
