/**
 * PATCH /bookings/:id (docs/rules/booking.md): reschedule (the whole booking shifts, every part of it),
 * reassign (every item to one staff member), notes. Moving places the booking's own parts again
 * under the tenant booking lock (booking-move.service.ts: SHARED, escalated to EXCLUSIVE when unassigned
 * capacity is involved; its rooms kept where they are still free) and replaces its segments, with
 * the effects of every move (docs/rules/booking.md#moving-a-booking); a notes-only edit is a plain
 * transaction.
 */
import type { Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import { assertResourcesExist } from '../availability/availability.service';
import type { TenantContext } from '../tenant/tenant-context';
import { withBookingLock, type LockMode, retryingTakenRooms } from './booking-lock.service';
import { changeBooking } from './booking-change.service';
import { MOVE_AUDIT_ACTION, placeMove, type MoveEvent } from './booking-move.service';
import { assertStaffScope } from './booking-access.service';
import { loadDto, lockBookingRow } from './booking.repository';
import type { BookingDto } from './booking.dto';
import type { Actor, BookingDeps } from './booking.types';
import { nowOf } from '../time/clock';
import { requireApiDateTime } from '../time/iso';

export interface PatchInput {
  startTime?: string;
  resourceId?: string | null;
  notes?: string | null;
}

export async function updateBooking(deps: BookingDeps, tenant: TenantContext, actor: Actor, id: string, patch: PatchInput): Promise<BookingDto> {
  const moving = patch.startTime !== undefined || patch.resourceId !== undefined;
  if (patch.resourceId) await assertResourcesExist(deps.knex, tenant.id, [patch.resourceId]);
  let roomsChosen = false;
  const run = async (trx: Transaction, mode: LockMode | null) => {
    const row = await lockBookingRow(trx, tenant.id, id);
    await assertStaffScope(trx, actor, row);
    if (actor.role === 'STAFF' && patch.resourceId !== undefined && patch.resourceId !== row.resourceId) {
      throw errors.forbidden('Staff may not move a booking to another resource');
    }
    const changes: Record<string, unknown> = {};
    const update: Record<string, unknown> = {};
    let event: MoveEvent = 'BookingUpdated';
    if (patch.notes !== undefined && patch.notes !== row.notes) {
      changes.notes = { from: row.notes, to: patch.notes };
      update.notes = patch.notes;
    }
    if (moving) {
      const target = { startTime: patch.startTime !== undefined ? requireApiDateTime(patch.startTime, 'startTime') : undefined, resourceId: patch.resourceId };
      const move = await placeMove(trx, tenant, row, mode, target, { onlineOnly: false, now: nowOf(deps), onRooms: (chosen) => (roomsChosen = chosen) });
      Object.assign(changes, move.changes);
      Object.assign(update, move.update);
      event = move.event;
    }
    if (Object.keys(changes).length === 0) return;
    await changeBooking(deps, trx, row, { update, audit: { actor, action: MOVE_AUDIT_ACTION[event], changes }, event });
  };
  if (moving) {
    await retryingTakenRooms(
      () => withBookingLock(deps.knex, tenant.id, 'shared', (trx, mode) => run(trx, mode)),
      () => roomsChosen,
    );
  } else {
    await deps.knex.transaction((trx) => run(trx, null));
  }
  return loadDto(deps.knex, tenant.id, id);
}
