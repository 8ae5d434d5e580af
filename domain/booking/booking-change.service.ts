/**
 * Every change of a booking goes through the change primitive (docs/rules/consistency.md#the-change-primitive):
 * the row gets version + 1 (its items' `is_active` follows the status), an audit row is written,
 * and the booking's workflow is signalled BEFORE the caller's transaction commits. A failed signal
 * throws 503 WORKFLOW_UNAVAILABLE, which rolls the whole transaction back.
 */
import type { Transaction } from '../../db/db-handle';
import { changeEntity } from '../workflow-signals/entity-change';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { isBlockingStatus } from '../availability/working-hours.rules';
import { eventForStatus, isRemindable, type BookingStatus } from './booking-status.rules';
import { bookingContract, type BookingEventType } from './booking-events.rules';
import type { BookingRow } from './booking.types';
import type { BookingFreedCause, BookingHooks } from './booking-hooks';
import {
  insertAuditEntry,
  insertNewBooking,
  setItemsActive,
  updateBookingVersioned,
  type AuditEntry,
  type NewItemRow,
  type NewSegmentRow,
} from './booking.repository';

export type { AuditEntry } from './booking.repository';

/** How a change writes the locked row with version + 1. */
export type BookingWrite =
  /** new column values */
  | { update: Record<string, unknown> }
  /** a new status (and more columns): the items start or stop blocking time with it */
  | { status: BookingStatus; update?: Record<string, unknown> }
  /** a compare-and-set that writes version + 1 itself; false when the row had changed */
  | { compareAndSet: () => Promise<boolean> };

/**
 * One change of the locked booking row `row`: the write, its audit row, the signal `event`.
 * Returns the new version, or undefined when a compare-and-set lost (nothing else was written).
 */
export async function changeBooking(
  deps: { signaller: EntitySignaller; bookingHooks: BookingHooks },
  trx: Transaction,
  row: BookingRow,
  change: BookingWrite & { audit: AuditEntry; event: BookingEventType },
): Promise<number | undefined> {
  const written = await changeEntity(deps.signaller, bookingContract, {
    write: async () => {
      const version = await writeVersioned(trx, row, change);
      return version === undefined ? undefined : { id: row.id, tenantId: row.tenantId, version };
    },
    record: () => insertAuditEntry(trx, row, change.audit),
    event: change.event,
  });
  const freed = written && freedBy(row, change);
  if (freed)
    await deps.bookingHooks.timeFreed(deps.signaller, trx, {
      tenantId: row.tenantId,
      resourceId: row.resourceId,
      start: new Date(row.startTime),
      end: new Date(row.endTime),
      cause: freed,
    });
  return written?.version;
}

/**
 * Whether the change gives up time the booking held (docs/rules/waitlist.md#when-time-frees-up): it
 * stops blocking (cancelled, no-show), or it moves off its old time or staff member. The waitlist
 * then offers the old time; what of it is really free is decided when the offer is made.
 */
function freedBy(row: BookingRow, change: BookingWrite): BookingFreedCause | null {
  if (!isBlockingStatus(row.status)) return null;
  if ('status' in change && !isBlockingStatus(change.status)) return change.status === 'NO_SHOW' ? 'NO_SHOW' : 'CANCELLED';
  const update = 'update' in change ? change.update : undefined;
  if (!update) return null;
  const moved = (key: 'startTime' | 'endTime' | 'resourceId') => key in update && String(update[key]) !== String(row[key]);
  return moved('startTime') || moved('endTime') || moved('resourceId') ? 'MOVED' : null;
}

/** A new booking at version 1: the row, its items, their segments and the CREATED audit row in one statement, then the signal. */
export async function createBooking(
  deps: { signaller: EntitySignaller },
  trx: Transaction,
  row: BookingRow,
  items: NewItemRow[],
  segments: NewSegmentRow[],
  created: { audit: AuditEntry; event: BookingEventType },
): Promise<void> {
  await changeEntity(deps.signaller, bookingContract, {
    write: async () => {
      await insertNewBooking(trx, row, items, segments, created.audit);
      return { id: row.id, tenantId: row.tenantId, version: 1 };
    },
    event: created.event,
  });
}

async function writeVersioned(trx: Transaction, row: BookingRow, write: BookingWrite): Promise<number | undefined> {
  if ('compareAndSet' in write) return (await write.compareAndSet()) ? row.version + 1 : undefined;
  const revised = revisesCalendar(row, 'status' in write ? write.status : row.status, write.update?.startTime)
    ? { calendarSequence: row.calendarSequence + 1 }
    : {};
  if (!('status' in write)) return updateBookingVersioned(trx, row, { ...write.update, ...revised });
  const version = await updateBookingVersioned(trx, row, { status: write.status, ...write.update, ...revised });
  if (isBlockingStatus(row.status) !== isBlockingStatus(write.status)) {
    await setItemsActive(trx, row.id, isBlockingStatus(write.status));
  }
  return version;
}

/**
 * Whether the change is one the booking's messages announce, and so raises its calendar SEQUENCE
 * (docs/rules/booking-page.md#calendar-files): confirmed by the salon, cancelled, or moved while it is
 * still to come. Every other change (a deposit's status, notes, a claim) leaves the calendar alone.
 */
export function revisesCalendar(row: Pick<BookingRow, 'status' | 'startTime'>, to: BookingStatus, startTime: unknown): boolean {
  if (to !== row.status) return to === 'CANCELLED' || (row.status === 'PENDING' && to === 'CONFIRMED');
  const moved = startTime !== undefined && new Date(startTime as string | Date).getTime() !== new Date(row.startTime).getTime();
  return moved && isRemindable(to);
}

/** The workflow event for entering `to` (IN_PROGRESS: BookingStarted; PENDING: BookingUpdated). */
export function statusEvent(to: BookingStatus, bySalon = false): BookingEventType {
  return eventForStatus(to, { bySalon }) ?? (to === 'IN_PROGRESS' ? 'BookingStarted' : 'BookingUpdated');
}
