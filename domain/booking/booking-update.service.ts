/**
 * PATCH /bookings/:id (docs/rules/booking.md): reschedule (the whole booking shifts, every part of it),
 * reassign (every item to one staff member), notes. Moving places the booking's own parts again
 * under the tenant booking lock (booking-reservation.ts: SHARED, escalated to EXCLUSIVE when
 * unassigned capacity is involved; its rooms kept where they are still free) and replaces its
 * segments; a notes-only edit is a plain transaction.
 */
import type { Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import { assertResourcesExist } from '../availability/availability.service';
import type { TenantContext } from '../tenant/tenant-context';
import { withBookingLock, NeedsExclusiveLock, type LockMode } from './booking-lock';
import type { BookingEventType } from './booking-events.rules';
import { changeBooking } from './booking-change';
import { assertMovable } from './booking-errors';
import { choosesRooms, placeVisit, plannedFromItems, retryingTakenRooms, segmentRows, spanOf } from './booking-reservation';
import { assertStaffScope } from './booking-scope';
import { itemsOf, loadDto, lockBookingRow, moveItem, replaceSegments } from './booking.repository';
import { isBlockingStatus } from '../availability/working-hours.rules';
import type { BookingDto } from './booking.dto';
import type { Actor, BookingDeps } from './booking.types';
import { nowOf } from '../time/clock';
import { isRecordedAfterTheFact, RECORDED_AFTER_THE_FACT, wasRecordedAfterTheFact } from './booking-past.rules';
import { requireApiDateTime, toIso } from '../time/iso';

export interface PatchInput {
  startTime?: string;
  resourceId?: string | null;
  notes?: string | null;
}

type UpdateEvent = Extract<BookingEventType, 'BookingUpdated' | 'BookingRescheduled' | 'BookingReassigned' | 'BookingRecordedAfterTheFact'>;
const AUDIT_ACTION: Record<UpdateEvent, string> = {
  BookingUpdated: 'UPDATED',
  BookingRescheduled: 'RESCHEDULED',
  BookingReassigned: 'REASSIGNED',
  BookingRecordedAfterTheFact: 'RESCHEDULED',
};

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
    let event: UpdateEvent = 'BookingUpdated';
    if (patch.notes !== undefined && patch.notes !== row.notes) {
      changes.notes = { from: row.notes, to: patch.notes };
      update.notes = patch.notes;
    }
    if (moving) {
      assertMovable(row.status, 'moved');
      const items = await itemsOf(trx, [row.id]);
      const delta = patch.startTime !== undefined ? requireApiDateTime(patch.startTime, 'startTime').getTime() - new Date(row.startTime).getTime() : 0;
      const newResourceId = patch.resourceId;
      const planned = plannedFromItems(items, { shiftMs: delta, resourceId: newResourceId !== undefined ? () => newResourceId : undefined });
      roomsChosen = choosesRooms(planned);
      if (!mode) throw new NeedsExclusiveLock();
      const placed = await placeVisit(trx, tenant, planned, { mode, excludeBookingId: row.id, onlineOnly: false, allowDoubleBooking: row.allowDoubleBooking });
      for (const p of planned) {
        await moveItem(trx, p);
      }
      const flags = { isActive: isBlockingStatus(row.status), isExclusive: !row.allowDoubleBooking };
      await replaceSegments(trx, row.id, segmentRows(tenant.id, row.id, planned.map((p) => p.id), placed.parts, flags));
      const span = spanOf(planned);
      if (delta !== 0) {
        changes.startTime = { from: toIso(row.startTime), to: span.start.toISOString() };
        event = 'BookingRescheduled';
        // Moved into the past: recorded after the fact, the customer is told nothing (booking-past.rules.ts).
        const past = isRecordedAfterTheFact(span.start, nowOf(deps));
        if (past !== wasRecordedAfterTheFact(row.metadata)) {
          const { [RECORDED_AFTER_THE_FACT]: _was, ...rest } = row.metadata;
          update.metadata = JSON.stringify(past ? { ...rest, [RECORDED_AFTER_THE_FACT]: true } : rest);
        }
        if (past) {
          changes[RECORDED_AFTER_THE_FACT] = true;
          event = 'BookingRecordedAfterTheFact';
        }
      }
      const newResource = planned[0].resourceId;
      if (newResource !== row.resourceId) {
        changes.resourceId = { from: row.resourceId, to: newResource };
        if (event === 'BookingUpdated') event = 'BookingReassigned';
      }
      Object.assign(update, { startTime: span.start, endTime: span.end, resourceId: newResource });
    }
    if (Object.keys(changes).length === 0) return;
    await changeBooking(deps, trx, row, { update, audit: { actor, action: AUDIT_ACTION[event], changes }, event });
  };
  if (moving) {
    await retryingTakenRooms(() => withBookingLock(deps.knex, tenant.id, 'shared', (trx, mode) => run(trx, mode)), () => roomsChosen);
  } else {
    await deps.knex.transaction((trx) => run(trx, null));
  }
  return loadDto(deps.knex, tenant.id, id);
}
