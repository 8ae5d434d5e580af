/**
 * Moving a booking's time (docs/rules/booking.md#moving-a-booking): every part of the visit shifts
 * by the same amount (or goes to another staff member), is placed again under the tenant booking
 * lock with the booking's own time counting as free (booking-placement.service.ts), and replaces its
 * segments; the caller writes the row through changeBooking, which frees the old time for the
 * waitlist, raises the calendar SEQUENCE and signals the workflow (that moves the reminder and tells
 * the customer). The salon's PATCH and the customer's move share it.
 */
import type { Db, Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { nowOf } from '../time/clock';
import { requireApiDateTime, toIso } from '../time/iso';
import { assertAcceptingBookings } from './accepting-bookings.rules';
import { assertNotPassed, assertOnSlotGrid, assertWithinWindow } from './booking-start.rules';
import { changeBooking } from './booking-change.service';
import { guestBooking, type GuestProof } from './booking-access.service';
import { publicDto, type PublicBookingDto } from './booking-public.dto';
import { isWithinFreeCancellationWindow } from './cancellation.rules';
import { isBlockingStatus } from '../availability/working-hours.rules';
import { NeedsExclusiveLock, withBookingLock, type LockMode, retryingTakenRooms } from './booking-lock.service';
import type { BookingEventType } from './booking-events.rules';
import { assertMovable } from './booking-errors.rules';
import { choosesRooms, plannedFromItems, spanOf } from './booking-plan.rules';
import { placeVisit, replacePlacedSegments } from './booking-placement.service';
import { customerMovesOf, itemsOf, loadDto, lockBookingRow, moveItem } from './booking.repository';
import { assertMoveLeft, hasMoveLeft } from './booking-move.rules';
import { isRecordedAfterTheFact, RECORDED_AFTER_THE_FACT, wasRecordedAfterTheFact } from './booking-past.rules';
import { GUEST_ACTOR, type BookingDeps, type BookingRow } from './booking.types';

export type MoveEvent = Extract<BookingEventType, 'BookingUpdated' | 'BookingRescheduled' | 'BookingReassigned' | 'BookingRecordedAfterTheFact'>;

/** The audit action of each move event (a move into the past is still RESCHEDULED). */
export const MOVE_AUDIT_ACTION: Record<MoveEvent, string> = {
  BookingUpdated: 'UPDATED',
  BookingRescheduled: 'RESCHEDULED',
  BookingReassigned: 'REASSIGNED',
  BookingRecordedAfterTheFact: 'RESCHEDULED',
};

/** What a move writes to the row, records in the audit entry and tells the workflow. */
export interface PlacedMove {
  update: Record<string, unknown>;
  changes: Record<string, unknown>;
  event: MoveEvent;
}

/**
 * Places the locked booking `row` at `target` (a new start for its first item, and/or one staff
 * member for every item) and writes its items and segments. `mode` is the tenant lock held; a
 * SHARED one that is not enough throws NeedsExclusiveLock (withBookingLock reruns). `onRooms` is
 * told whether the visit holds rooms or equipment (a race for them is retried).
 */
export async function placeMove(
  trx: Transaction,
  tenant: TenantContext,
  row: BookingRow,
  mode: LockMode | null,
  target: { startTime?: Date; resourceId?: string | null },
  opts: { onlineOnly: boolean; now: Date; onRooms?: (chosen: boolean) => void },
): Promise<PlacedMove> {
  assertMovable(row.status, 'moved');
  const items = await itemsOf(trx, [row.id]);
  const delta = target.startTime !== undefined ? target.startTime.getTime() - new Date(row.startTime).getTime() : 0;
  const newResourceId = target.resourceId;
  const shifted = plannedFromItems(items, { shiftMs: delta, resourceId: newResourceId !== undefined ? () => newResourceId : undefined });
  opts.onRooms?.(choosesRooms(shifted));
  if (!mode) throw new NeedsExclusiveLock();
  const placed = await placeVisit(trx, tenant, shifted, {
    mode,
    excludeBookingId: row.id,
    onlineOnly: opts.onlineOnly,
    allowDoubleBooking: row.allowDoubleBooking,
    assignsStaff: true,
  });
  // as placed: "anyone" at a salon that assigns every booking has its staff member now
  const planned = placed.items;
  for (const p of planned) await moveItem(trx, p);
  await replacePlacedSegments(trx, row, planned, placed, isBlockingStatus(row.status));

  const span = spanOf(planned);
  const changes: Record<string, unknown> = {};
  const update: Record<string, unknown> = {};
  let event: MoveEvent = 'BookingUpdated';
  if (delta !== 0) {
    changes.startTime = { from: toIso(row.startTime), to: span.start.toISOString() };
    event = 'BookingRescheduled';
    // Moved into the past: recorded after the fact, the customer is told nothing (booking-past.rules.ts).
    const past = isRecordedAfterTheFact(span.start, opts.now);
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
  return { update, changes, event };
}

/** Whether the customer may still move the booking (docs/rules/booking.md#moving-a-booking): the manage page offers the move only then. */
export async function customerMayMoveAgain(db: Db, tenantId: string, bookingId: string): Promise<boolean> {
  return hasMoveLeft(await customerMovesOf(db, tenantId, bookingId));
}

/** Who asks for a customer's move: the holder of the booking's token or contact phone, or the signed-in account that owns it. */
export type CustomerMover = { proof: GuestProof } | { accountId: string };

/** The salon's move window for its customers is its free-cancellation window (docs/rules/booking.md#moving-a-booking). */
export function moveWindowClosed(cancellationHours: number) {
  return errors.unprocessable('MOVE_WINDOW_CLOSED', `A booking can be moved until ${cancellationHours} hours before the appointment; please call the salon`);
}

/**
 * POST /public/tenants/:slug/bookings/:id/move (and the manage page's form): the customer moves the
 * booking to `startTime`, same services, same staff choice (the staff member each item was booked
 * with, or "any"), up to cancellationHours before its CURRENT start. The new time is checked like a
 * new public booking (not passed, inside the booking window, online staff, working hours, free),
 * in one transaction under the row lock: of a move and a cancellation (or two moves) of one
 * booking, one runs after the other has committed and sees its result.
 */
export async function moveForCustomer(
  deps: BookingDeps,
  tenant: TenantContext,
  id: string,
  startTime: string,
  mover: CustomerMover,
): Promise<PublicBookingDto> {
  const now = nowOf(deps);
  assertAcceptingBookings(tenant, now);
  const start = requireApiDateTime(startTime, 'startTime');
  assertNotPassed(start, now);
  assertWithinWindow(tenant, start, now);
  assertOnSlotGrid(tenant, start);
  if ('proof' in mover) await guestBooking(deps, tenant, id, mover.proof);
  let roomsChosen = false;
  const write = () =>
    withBookingLock(deps.knex, tenant.id, 'shared', async (trx, mode) => {
      const row = await lockBookingRow(trx, tenant.id, id);
      if ('accountId' in mover && row.customerAccountId !== mover.accountId) throw errors.notFound('booking');
      assertMovable(row.status, 'moved');
      if (!isWithinFreeCancellationWindow(new Date(row.startTime), now, tenant.settings.cancellationHours))
        throw moveWindowClosed(tenant.settings.cancellationHours);
      if (new Date(row.startTime).getTime() === start.getTime()) return;
      // counted under the row lock: of two moves at once the second sees the first
      assertMoveLeft(await customerMovesOf(trx, tenant.id, row.id));
      const move = await placeMove(trx, tenant, row, mode, { startTime: start }, { onlineOnly: true, now, onRooms: (chosen) => (roomsChosen = chosen) });
      await changeBooking(deps, trx, row, {
        update: move.update,
        audit: { actor: GUEST_ACTOR, action: MOVE_AUDIT_ACTION[move.event], changes: move.changes },
        event: move.event,
      });
    });
  await retryingTakenRooms(write, () => roomsChosen);
  return publicDto(deps.knex, tenant, await loadDto(deps.knex, tenant.id, id));
}
