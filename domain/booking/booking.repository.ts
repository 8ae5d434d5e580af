/**
 * The write path's data access: a booking's own rows (the booking, its items, their segments, its
 * audit log) as the booking services read, lock and write them, tenant-scoped; a booking of another
 * tenant is 404 BOOKING_NOT_FOUND. Every query goes through the models of db/models (BookingModel,
 * BookingItemModel, BookingSegmentModel, BookingAuditLogModel) with the caller's handle, and rows
 * come back as plain objects (camelCase here, snake_case in Postgres). The other reads of bookings
 * have their own files: booking-list (staff lists), booking-account (a signed-in customer's),
 * booking-customer, booking-loyalty, booking-message and booking-timeline (.repository.ts).
 */
import { raw } from 'objection';
import type { Db, Transaction } from '../../db/db-handle';
import { BookingModel } from '../../db/models/booking.model';
import { BookingItemModel } from '../../db/models/booking-item.model';
import { BookingAuditLogModel } from '../../db/models/booking-audit-log.model';
import { BookingSegmentModel } from '../../db/models/booking-segment.model';
import { plain, returnedRows } from '../../db/plain';
import { insertStatement } from '../../db/insert-statement';
import { errors } from '../errors';
import { toDto, type BookingDto } from './booking.dto';
import type { Actor, BookingRow, ItemRow, SegmentRow } from './booking.types';
import { runNamedStatement } from '../../db/named-statement';

/** db/ types the status as a string; the domain's BookingRow narrows it (and the other enums). */
const bookingRow = (model: BookingModel): BookingRow => plain(model) as unknown as BookingRow;

/** A booking_items row as written: the item plus the booking's tenant and the denormalised flags. */
export interface NewItemRow extends Omit<ItemRow, 'serviceName' | 'segments'> {
  tenantId: string;
  /** the booking's status blocks time (not CANCELLED / NO_SHOW) */
  isActive: boolean;
  /** created without allowDoubleBooking */
  isExclusive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** One entry of a booking's audit log: who did what, from which status to which. */
export interface AuditEntry {
  actor: Actor;
  action: string;
  fromStatus?: string | null;
  toStatus?: string | null;
  reason?: string | null;
  forced?: boolean;
  changes?: Record<string, unknown>;
}

/** The booking_audit_logs row of an entry (`createdAt` defaults to now() in the database). */
function auditRow(booking: { id: string; tenantId: string }, entry: AuditEntry, createdAt?: Date) {
  return {
    bookingId: booking.id,
    tenantId: booking.tenantId,
    actorUserId: entry.actor.userId,
    actorRole: entry.actor.role,
    action: entry.action,
    fromStatus: entry.fromStatus ?? null,
    toStatus: entry.toStatus ?? null,
    reason: entry.reason ?? null,
    forced: entry.forced ?? false,
    changes: entry.changes ?? {},
    ...(createdAt ? { createdAt } : {}),
  };
}

/**
 * A change's audit entry, stamped when it is written: after the row lock the change waited for, so
 * the log's order is the order the changes committed in (the column's default, now(), is the
 * transaction's start, before a wait).
 */
export async function insertAuditEntry(trx: Transaction, booking: { id: string; tenantId: string }, entry: AuditEntry): Promise<void> {
  await BookingAuditLogModel.query(trx).insert({ ...auditRow(booking, entry), createdAt: raw('clock_timestamp()') });
}

/** How many times the customer has moved the booking: its RESCHEDULED audit entries by CUSTOMER (the salon's own moves are not counted). */
export async function customerMovesOf(db: Db, tenantId: string, bookingId: string): Promise<number> {
  const row = (await BookingAuditLogModel.query(db)
    .where({ tenantId, bookingId, action: 'RESCHEDULED', actorRole: 'CUSTOMER' })
    .count('* as n')
    .first()) as unknown as { n: string } | undefined;
  return Number(row?.n ?? 0);
}

/** A booking_segments row as written: one part of an item's (or a hold's) time, with the denormalised flags. */
export interface NewSegmentRow {
  id: string;
  tenantId: string;
  bookingId: string | null;
  bookingItemId: string | null;
  waitlistRoundId: string | null;
  resourceType: string;
  resourceId: string | null;
  kind: string;
  phaseIndex: number | null;
  startTime: Date;
  endTime: Date;
  /** the booking's status blocks time (not CANCELLED / NO_SHOW) */
  isActive: boolean;
  /** made without allowDoubleBooking (covered by booking_segments_no_overlap) */
  isExclusive: boolean;
}

/**
 * The hot path of booking creation: the booking, its items, their segments and the CREATED audit
 * entry in ONE statement (one round trip inside the transaction). Raw SQL composes the INSERTs into
 * one statement, which neither a model nor the builder can; each INSERT is built from its row
 * objects by insertStatement (db/insert-statement.ts), its SQL text once per row shape, so a new
 * column is one edit where the row is built (a model built them all on every booking); a named
 * statement per shape, parsed once per connection. booking_segments_no_overlap is checked as the
 * segments are inserted; the FKs to bookings and booking_items at the end of the statement, when
 * those rows exist.
 */
export async function insertNewBooking(
  trx: Transaction,
  booking: BookingRow,
  items: NewItemRow[],
  segments: NewSegmentRow[],
  created: AuditEntry,
): Promise<void> {
  const b = insertStatement(BookingModel, [booking]);
  const i = insertStatement(BookingItemModel, items);
  const g = insertStatement(BookingSegmentModel, segments);
  const a = insertStatement(BookingAuditLogModel, [auditRow(booking, created, booking.createdAt)]);
  await runNamedStatement(trx, {
    name: `new-booking-${b.shape}-${i.shape}-${g.shape}-${a.shape}`,
    sql: `WITH b AS (${b.sql}), i AS (${i.sql}), g AS (${g.sql}), a AS (${a.sql}) SELECT 1`,
    bindings: [...b.bindings, ...i.bindings, ...g.bindings, ...a.bindings],
  });
}

/** A moved booking's parts: its segments are replaced by `segments` (checked by booking_segments_no_overlap as they go in). */
export async function replaceSegments(trx: Transaction, bookingId: string, segments: NewSegmentRow[]): Promise<void> {
  await BookingSegmentModel.query(trx).delete().where({ bookingId });
  if (segments.length) await BookingSegmentModel.query(trx).insert(segments);
}

/** Segments of the items, by item, in time order (staff before rooms at one instant). */
export async function segmentsOf(db: Db, bookingIds: string[]): Promise<Map<string, SegmentRow[]>> {
  const byItem = new Map<string, SegmentRow[]>();
  if (!bookingIds.length) return byItem;
  const rows = await BookingSegmentModel.query(db)
    .select('bookingItemId', 'kind', 'phaseIndex', 'resourceType', 'resourceId', 'startTime', 'endTime')
    .whereIn('bookingId', bookingIds)
    .orderBy([{ column: 'startTime' }, { column: 'resourceType', order: 'desc' }, { column: 'endTime' }]);
  for (const r of rows.map((m) => plain(m) as unknown as SegmentRow)) {
    const list = byItem.get(r.bookingItemId) ?? [];
    list.push(r);
    byItem.set(r.bookingItemId, list);
  }
  return byItem;
}

/** The booking row (or the given columns of it); 404 when it is not this tenant's. */
export async function findBookingRow(db: Db, tenantId: string, id: string): Promise<BookingRow>;
export async function findBookingRow<K extends keyof BookingRow>(db: Db, tenantId: string, id: string, columns: K[]): Promise<Pick<BookingRow, K>>;
export async function findBookingRow(db: Db, tenantId: string, id: string, columns?: (keyof BookingRow)[]): Promise<Partial<BookingRow>> {
  const query = BookingModel.query(db).findOne({ tenantId, id });
  if (columns) query.select(columns);
  const row = await query;
  if (!row) throw errors.notFound('booking');
  return bookingRow(row);
}

/** SELECT ... FOR UPDATE of the booking row inside the caller's transaction. */
export async function lockBookingRow(trx: Transaction, tenantId: string, id: string): Promise<BookingRow> {
  const row = await BookingModel.query(trx).findOne({ tenantId, id }).forUpdate();
  if (!row) throw errors.notFound('booking');
  return bookingRow(row);
}

export async function itemsOf(db: Db, bookingIds: string[]): Promise<ItemRow[]> {
  if (!bookingIds.length) return [];
  const rows = await BookingItemModel.query(db)
    .join('services as s', 's.id', 'booking_items.serviceId')
    .select(
      'booking_items.id',
      'booking_items.bookingId',
      'booking_items.serviceId',
      's.name as serviceName',
      'booking_items.resourceId',
      'booking_items.startTime',
      'booking_items.endTime',
      'booking_items.duration',
      'booking_items.price',
      'booking_items.sortOrder',
    )
    .whereIn('booking_items.bookingId', bookingIds);
  const segments = await segmentsOf(db, bookingIds);
  return rows.map((r) => ({ ...(plain(r) as unknown as Omit<ItemRow, 'segments'>), segments: segments.get(r.id) ?? [] }));
}

export async function loadDto(db: Db, tenantId: string, id: string): Promise<BookingDto> {
  const row = await findBookingRow(db, tenantId, id);
  return toDto(row, await itemsOf(db, [id]));
}

/** The booking row, or undefined (the caller decides what a miss means). */
export async function findBooking(db: Db, tenantId: string, id: string): Promise<BookingRow | undefined> {
  const row = await BookingModel.query(db).findOne({ tenantId, id });
  return row && bookingRow(row);
}

/** Does one of the booking's items use this resource? */
export async function hasItemOnResource(db: Db, bookingId: string, resourceId: string): Promise<boolean> {
  return !!(await BookingItemModel.query(db).select('id').findOne({ bookingId, resourceId }));
}

/** `changes` with version + 1 (the model stamps updatedAt); returns the new version. */
export async function updateBookingVersioned(trx: Transaction, row: BookingRow, changes: Record<string, unknown>): Promise<number> {
  const version = row.version + 1;
  await BookingModel.query(trx)
    .patch({ ...changes, version })
    .where({ id: row.id, tenantId: row.tenantId });
  return version;
}

/** The booking's items and every part of their time start or stop blocking (they follow the booking's status). */
export async function setItemsActive(trx: Transaction, bookingId: string, isActive: boolean): Promise<void> {
  await BookingItemModel.query(trx).patch({ isActive }).where({ bookingId });
  await BookingSegmentModel.query(trx).patch({ isActive }).where({ bookingId });
}

export async function moveItem(trx: Transaction, item: { id: string; resourceId: string | null; start: Date; end: Date }): Promise<void> {
  await BookingItemModel.query(trx).patch({ resourceId: item.resourceId, startTime: item.start, endTime: item.end }).where({ id: item.id });
}

/**
 * Compare-and-set: the unassigned booking (its unassigned items and their staff segments) goes to `resourceId`, version + 1.
 * False when someone else assigned it first.
 */
export async function assignUnassigned(trx: Transaction, row: BookingRow, resourceId: string): Promise<boolean> {
  const updated = await returnedRows(
    BookingModel.query(trx)
      .patch({ resourceId, version: row.version + 1 })
      .where({ id: row.id, tenantId: row.tenantId })
      .whereNull('resourceId')
      .returning('version'),
  );
  if (updated.length !== 1) return false;
  await BookingItemModel.query(trx).patch({ resourceId }).where({ bookingId: row.id }).whereNull('resourceId');
  await BookingSegmentModel.query(trx).patch({ resourceId }).where({ bookingId: row.id, resourceType: 'staff' }).whereNull('resourceId');
  return true;
}

/** The deposit the new booking starts with (set in its creating transaction, after the insert). */
export async function setDepositStatus(trx: Transaction, id: string, depositStatus: string): Promise<void> {
  await BookingModel.query(trx).patch({ depositStatus }).where({ id });
}
