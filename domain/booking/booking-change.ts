/**
 * The write side every booking state change shares (docs/rules/consistency.md#the-change-primitive): the booking row
 * gets version + 1 (and its items' `is_active` follows the status), an audit row is written, and the
 * booking workflow is signalled BEFORE the caller's transaction commits. A failed signal throws 503
 * WORKFLOW_UNAVAILABLE, which rolls the whole transaction back.
 */
import type { Knex } from 'knex';
import { signalEntity } from '../workflow-signals/signal-entity';
import { isBlockingStatus } from '../availability/working-hours.rules';
import { eventForStatus, type BookingStatus } from './booking-status.rules';
import { BOOKING_EVENT_SIGNAL, BOOKING_WORKFLOW_TYPE, bookingWorkflowId, type BookingEventType } from './booking-events.rules';
import type { BookingDeps, BookingRow } from './booking.types';
import { insertAuditEntry, setItemsActive, updateBookingVersioned, type AuditEntry } from './booking.repository';

export type { AuditEntry } from './booking.repository';

export async function signalBooking(deps: BookingDeps, b: { id: string; tenantId: string }, type: BookingEventType, entityVersion: number): Promise<void> {
  await signalEntity(
    deps.signaller,
    'booking',
    { workflowType: BOOKING_WORKFLOW_TYPE, workflowId: bookingWorkflowId(b.id), startArgs: { bookingId: b.id, tenantId: b.tenantId } },
    BOOKING_EVENT_SIGNAL,
    { type, entityVersion },
  );
}

/** The last steps of a change, inside its transaction: the audit row, then the signal before commit. */
export async function auditAndSignal(
  deps: BookingDeps,
  trx: Knex.Transaction,
  booking: { id: string; tenantId: string },
  entry: AuditEntry,
  event: BookingEventType,
  version: number,
): Promise<void> {
  await insertAuditEntry(trx, booking, entry);
  await signalBooking(deps, booking, event, version);
}

/** Writes `update` with version + 1; returns the new version. */
export async function bumpVersion(trx: Knex.Transaction, row: BookingRow, update: Record<string, unknown>): Promise<number> {
  return updateBookingVersioned(trx, row, update);
}

/** New status (plus `extra` columns) with version + 1; the items stop or start blocking time with it. */
export async function setStatus(trx: Knex.Transaction, row: BookingRow, to: BookingStatus, extra: Record<string, unknown> = {}): Promise<number> {
  const version = await bumpVersion(trx, row, { status: to, ...extra });
  if (isBlockingStatus(row.status) !== isBlockingStatus(to)) {
    await setItemsActive(trx, row.id, isBlockingStatus(to));
  }
  return version;
}

/** The workflow event for entering `to` (IN_PROGRESS: BookingStarted; PENDING: BookingUpdated). */
export function statusEvent(to: BookingStatus, bySalon = false): BookingEventType {
  return eventForStatus(to, { bySalon }) ?? (to === 'IN_PROGRESS' ? 'BookingStarted' : 'BookingUpdated');
}
