/**
 * POST /bookings/:id/status/:status (docs/rules/booking.md#statuses): the status machine with OWNER/ADMIN force, the
 * audit row and the workflow signal, in one transaction. A change that makes the booking occupy
 * time again (e.g. forced CANCELLED -> CONFIRMED) re-runs the placement check under the EXCLUSIVE
 * tenant booking lock.
 */
import type { Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { isBlockingStatus } from '../availability/working-hours.rules';
import { decideTransition, type BookingStatus } from './booking-status.rules';
import { withBookingLock, NeedsExclusiveLock, type LockMode } from './booking-lock.service';
import { changeBooking, statusEvent } from './booking-change.service';
import { transitionError } from './booking-errors.rules';
import { placeVisit, replacePlacedSegments } from './booking-placement.service';
import { plannedFromItems } from './booking-plan.rules';
import { assertStaffScope } from './booking-access.service';
import { findBookingRow, itemsOf, loadDto, lockBookingRow } from './booking.repository';
import { applyCancellation } from './booking-cancel.service';
import type { BookingDto } from './booking.dto';
import type { Actor, BookingDeps, BookingRow } from './booking.types';
import { nowOf } from '../time/clock';

/**
 * Re-activating time must place the booking's own parts again (its own time excluded); a room or
 * piece of equipment taken meanwhile is exchanged for a free suitable one. The segments are written
 * inactive, as the booking still is: the status change that follows activates them with its items.
 */
async function recheckOwnItems(trx: Transaction, tenant: TenantContext, row: BookingRow, mode: LockMode): Promise<void> {
  const items = plannedFromItems(await itemsOf(trx, [row.id]));
  const placed = await placeVisit(trx, tenant, items, { mode, excludeBookingId: row.id, onlineOnly: false, allowDoubleBooking: row.allowDoubleBooking });
  await replacePlacedSegments(trx, row, items, placed, false);
}

export async function changeStatus(
  deps: BookingDeps,
  tenant: TenantContext,
  actor: Actor,
  id: string,
  to: BookingStatus,
  opts: { force?: boolean; reason?: string },
): Promise<BookingDto> {
  if (opts.force && actor.role !== 'OWNER' && actor.role !== 'ADMIN') throw errors.forbidden('Only an owner or admin may force a status change');
  const peek = await findBookingRow(deps.knex, tenant.id, id, ['status']);
  const reactivates = !isBlockingStatus(peek.status) && isBlockingStatus(to);
  const run = async (trx: Transaction, mode: LockMode | null) => {
    const row = await lockBookingRow(trx, tenant.id, id);
    await assertStaffScope(trx, actor, row);
    const decision = decideTransition(row.status, to, {
      force: opts.force ? { role: actor.role, reason: opts.reason ?? '' } : null,
      bySalon: to === 'CANCELLED' && actor.role !== 'CUSTOMER',
      timing: { startTime: row.startTime, now: nowOf(deps).getTime() },
    });
    if (!decision.allowed) throw transitionError(decision.rejection, row.status, to);
    if (to === 'CANCELLED') {
      await applyCancellation(deps, trx, tenant, row, actor, { bySalon: true, reason: opts.reason ?? null, now: nowOf(deps), forced: decision.forced });
      return;
    }
    if (!isBlockingStatus(row.status) && isBlockingStatus(to)) {
      if (!mode) throw new NeedsExclusiveLock();
      await recheckOwnItems(trx, tenant, row, mode);
    }
    const audit = {
      actor,
      action: 'STATUS_CHANGED',
      fromStatus: row.status,
      toStatus: to,
      reason: decision.auditReason ?? opts.reason ?? null,
      forced: decision.forced,
    };
    await changeBooking(deps, trx, row, { status: to, audit, event: statusEvent(to) });
    // arrival (or completion, or no-show) captures an authorized manual-capture deposit
    await deps.bookingHooks.statusChanged(deps.signaller, trx, tenant.id, id, to, nowOf(deps));
  };
  if (reactivates) await withBookingLock(deps.knex, tenant.id, 'exclusive', run);
  else {
    try {
      await deps.knex.transaction((trx) => run(trx, null));
    } catch (err) {
      // the status changed under us to a non-blocking one: redo under the lock
      if (!(err instanceof NeedsExclusiveLock)) throw err;
      await withBookingLock(deps.knex, tenant.id, 'exclusive', run);
    }
  }
  return loadDto(deps.knex, tenant.id, id);
}
