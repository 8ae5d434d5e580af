/**
 * Data access of bookings, their items and audit log, tenant-scoped; a booking of another tenant is
 * 404 BOOKING_NOT_FOUND. Rows are plain objects (knexSnakeCaseMappers: camelCase here).
 */
import type { Knex } from 'knex';
import type { Transaction } from '../../db/db-handle';
import { BookingModel } from '../../db/models/booking.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { returnedRows } from '../../db/plain';
import { errors } from '../errors';
import { toDto, type BookingDto } from './booking.dto';
import type { Actor, BookingRow, Db, ItemRow } from './booking.types';

/** A booking_items row as written: the item plus the booking's tenant and the denormalised flags. */
export interface NewItemRow extends Omit<ItemRow, 'serviceName'> {
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
    changes: JSON.stringify(entry.changes ?? {}),
    ...(createdAt ? { createdAt } : {}),
  };
}

export async function insertAuditEntry(trx: Knex.Transaction, booking: { id: string; tenantId: string }, entry: AuditEntry): Promise<void> {
  await trx('bookingAuditLogs').insert(auditRow(booking, entry));
}

/**
 * The hot path of booking creation: the booking, its items and the CREATED audit entry in ONE
 * statement (one round trip inside the transaction). Each INSERT's column list and parameters come
 * from its row object, so a new column is one edit where the row is built. booking_items_no_overlap
 * is checked as the items are inserted; the FK to bookings at the end of the statement, when the
 * booking row exists.
 */
export async function insertNewBooking(trx: Knex.Transaction, booking: BookingRow, items: NewItemRow[], created: AuditEntry): Promise<void> {
  const inserts = [
    trx('bookings').insert({ ...booking, metadata: JSON.stringify(booking.metadata) }).toSQL(),
    trx('bookingItems').insert(items).toSQL(),
    trx('bookingAuditLogs').insert(auditRow(booking, created, booking.createdAt)).toSQL(),
  ];
  await trx.raw(
    `WITH b AS (${inserts[0].sql}), i AS (${inserts[1].sql}), a AS (${inserts[2].sql}) SELECT 1`,
    inserts.flatMap((insert) => insert.bindings),
  );
}

/** The booking row (or the given columns of it); 404 when it is not this tenant's. */
export async function findBookingRow(db: Db, tenantId: string, id: string): Promise<BookingRow>;
export async function findBookingRow<K extends keyof BookingRow>(db: Db, tenantId: string, id: string, columns: K[]): Promise<Pick<BookingRow, K>>;
export async function findBookingRow(db: Db, tenantId: string, id: string, columns?: (keyof BookingRow)[]): Promise<Partial<BookingRow>> {
  const query = db('bookings').where({ tenantId, id });
  if (columns) query.select(columns);
  const row = await query.first();
  if (!row) throw errors.notFound('booking');
  return row;
}

/** SELECT ... FOR UPDATE of the booking row inside the caller's transaction. */
export async function lockBookingRow(trx: Knex.Transaction, tenantId: string, id: string): Promise<BookingRow> {
  const row: BookingRow | undefined = await trx('bookings').where({ tenantId, id }).forUpdate().first();
  if (!row) throw errors.notFound('booking');
  return row;
}

export async function itemsOf(db: Db, bookingIds: string[]): Promise<ItemRow[]> {
  if (!bookingIds.length) return [];
  return db('bookingItems as bi')
    .join('services as s', 's.id', 'bi.serviceId')
    .select('bi.id', 'bi.bookingId', 'bi.serviceId', 's.name as serviceName', 'bi.resourceId', 'bi.startTime', 'bi.endTime', 'bi.duration', 'bi.price', 'bi.sortOrder')
    .whereIn('bi.bookingId', bookingIds);
}

export async function loadDto(db: Db, tenantId: string, id: string): Promise<BookingDto> {
  const row = await findBookingRow(db, tenantId, id);
  return toDto(row, await itemsOf(db, [id]));
}

/** The booking row, or undefined (the caller decides what a miss means). */
export async function findBooking(db: Db, tenantId: string, id: string): Promise<BookingRow | undefined> {
  return db('bookings').where({ tenantId, id }).first();
}

/** Does one of the booking's items use this resource? */
export async function hasItemOnResource(db: Db, bookingId: string, resourceId: string): Promise<boolean> {
  return !!(await db('bookingItems').select('id').where({ bookingId, resourceId }).first());
}

export interface BookingFilter {
  statuses?: string[];
  startFrom?: Date;
  startBefore?: Date;
  resourceId?: string;
  /** STAFF scope: unassigned bookings, and (when given) those with the booking or one item on this resource */
  visibleToStaffResource?: string | null;
  sort?: 'createdAt' | 'startTime' | 'endTime' | 'status' | 'updatedAt';
  order?: 'asc' | 'desc';
}

export async function pageOfBookings(db: Db, tenantId: string, f: BookingFilter, page: { page: number; limit: number }): Promise<{ rows: BookingRow[]; total: number }> {
  const query = db('bookings').where({ tenantId });
  if (f.statuses) query.whereIn('status', f.statuses);
  if (f.startFrom) query.where('startTime', '>=', f.startFrom);
  if (f.startBefore) query.where('startTime', '<', f.startBefore);
  if (f.resourceId) query.where('resourceId', f.resourceId);
  if (f.visibleToStaffResource !== undefined) {
    const own = f.visibleToStaffResource;
    query.where((w) => {
      w.whereNull('resourceId');
      if (own) {
        w.orWhere('resourceId', own).orWhereExists(function (this: Knex.QueryBuilder) {
          this.select(1).from('bookingItems').whereRaw('booking_items.booking_id = bookings.id').where('bookingItems.resourceId', own);
        });
      }
    });
  }
  const [{ count }] = await query.clone().count({ count: '*' });
  const rows: BookingRow[] = await query
    .orderBy([{ column: f.sort ?? 'createdAt', order: f.order ?? 'desc' }, { column: 'id', order: 'asc' }])
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
  return { rows, total: Number(count) };
}

export interface AuditLogRow {
  id: string;
  actorUserId: string | null;
  actorRole: string;
  action: string;
  fromStatus: string | null;
  toStatus: string | null;
  reason: string | null;
  forced: boolean;
  changes: Record<string, unknown>;
  createdAt: Date;
}

/** Oldest first; exactly the AuditLogRow columns. */
export async function pageOfAuditEntries(db: Db, tenantId: string, bookingId: string, page: { page: number; limit: number }): Promise<{ rows: AuditLogRow[]; total: number }> {
  const base = db('bookingAuditLogs').where({ tenantId, bookingId });
  const [{ count }] = await base.clone().count({ count: '*' });
  const rows: AuditLogRow[] = await base
    .clone()
    .select('id', 'actorUserId', 'actorRole', 'action', 'fromStatus', 'toStatus', 'reason', 'forced', 'changes', 'createdAt')
    .orderBy([{ column: 'createdAt', order: 'asc' }, { column: 'id', order: 'asc' }])
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
  return { rows, total: Number(count) };
}

/** `changes` with version + 1 (and updatedAt); returns the new version. */
export async function updateBookingVersioned(trx: Knex.Transaction, row: BookingRow, changes: Record<string, unknown>): Promise<number> {
  const version = row.version + 1;
  await trx('bookings').update({ ...changes, version, updatedAt: new Date() }).where({ id: row.id, tenantId: row.tenantId });
  return version;
}

/** The booking's items start or stop blocking time (they follow the booking's status). */
export async function setItemsActive(trx: Knex.Transaction, bookingId: string, isActive: boolean): Promise<void> {
  await trx('bookingItems').update({ isActive, updatedAt: new Date() }).where({ bookingId });
}

export async function moveItem(trx: Knex.Transaction, item: { id: string; resourceId: string | null; start: Date; end: Date }): Promise<void> {
  await trx('bookingItems').update({ resourceId: item.resourceId, startTime: item.start, endTime: item.end, updatedAt: new Date() }).where({ id: item.id });
}

/**
 * Compare-and-set: the unassigned booking (and its unassigned items) goes to `resourceId`, version + 1.
 * False when someone else assigned it first.
 */
export async function assignUnassigned(trx: Knex.Transaction, row: BookingRow, resourceId: string): Promise<boolean> {
  const updated = await trx('bookings')
    .update({ resourceId, version: row.version + 1, updatedAt: new Date() })
    .where({ id: row.id, tenantId: row.tenantId })
    .whereNull('resourceId')
    .returning('version');
  if (updated.length !== 1) return false;
  await trx('bookingItems').update({ resourceId, updatedAt: new Date() }).where({ bookingId: row.id }).whereNull('resourceId');
  return true;
}

// ---------------------------------------------------------------- a customer account's bookings

/** Is the booking this tenant's and the account's? */
export async function isBookingOfAccount(db: Db, tenantId: string, bookingId: string, customerAccountId: string): Promise<boolean> {
  return !!(await BookingModel.query(db).select('id').findOne({ id: bookingId, tenantId, customerAccountId }));
}

export type AccountBookingRow = BookingRow & { tenantSlug: string; tenantName: string };

/** The account's bookings across salons with their salon's slug and name, newest appointment first. */
export async function pageOfAccountBookings(db: Db, customerAccountId: string, page: PageQuery): Promise<PageResult<AccountBookingRow>> {
  const query = BookingModel.query(db)
    .join('tenants as t', 't.id', 'bookings.tenantId')
    .where('bookings.customerAccountId', customerAccountId)
    .select('bookings.*', 't.slug as tenantSlug', 't.name as tenantName')
    .orderBy([{ column: 'bookings.startTime', order: 'desc' }, { column: 'bookings.id', order: 'asc' }]);
  return (await paginate(query, page)) as unknown as PageResult<AccountBookingRow>;
}

/**
 * Compare-and-set: the booking becomes the account's (version + 1) only while no account owns it.
 * The new version, or undefined when another claim won.
 */
export async function claimForAccount(trx: Transaction, row: BookingRow, customerAccountId: string, now: Date): Promise<number | undefined> {
  const version = row.version + 1;
  const updated = await returnedRows(
    BookingModel.query(trx).patch({ customerAccountId, version, updatedAt: now }).where({ id: row.id, tenantId: row.tenantId }).whereNull('customerAccountId').returning('id'),
  );
  return updated.length === 1 ? version : undefined;
}
