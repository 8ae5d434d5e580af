/**
 * Data access of bookings, their items and audit log, tenant-scoped; a booking of another tenant is
 * 404 BOOKING_NOT_FOUND. Every query goes through the models of db/models (BookingModel,
 * BookingItemModel, BookingAuditLogModel) with the caller's handle, and rows come back as plain
 * objects (camelCase here, snake_case in Postgres).
 */
import type { Language } from '../language/language.rules';
import type { Db, Transaction } from '../../db/db-handle';
import { BookingModel } from '../../db/models/booking.model';
import { TenantModel } from '../../db/models/tenant.model';
import { BookingItemModel } from '../../db/models/booking-item.model';
import { BookingAuditLogModel } from '../../db/models/booking-audit-log.model';
import { BookingSegmentModel } from '../../db/models/booking-segment.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain, returnedRows } from '../../db/plain';
import { insertStatement } from '../../db/insert-statement';
import { errors } from '../errors';
import { toDto, type BookingDto } from './booking.dto';
import type { Actor, BookingRow, ItemRow, SegmentRow } from './booking.types';
import type { BookingStatus } from './booking-status.rules';
import { runNamedStatement } from '../../db/named-statement';
import { columnOf } from '../../db/column-name';
import { REMINDABLE_BOOKING_STATUSES } from './booking-status.rules';

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

export async function insertAuditEntry(trx: Transaction, booking: { id: string; tenantId: string }, entry: AuditEntry): Promise<void> {
  await BookingAuditLogModel.query(trx).insert(auditRow(booking, entry));
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

export interface BookingFilter {
  statuses?: string[];
  startFrom?: Date;
  startBefore?: Date;
  resourceId?: string;
  /** STAFF scope: unassigned bookings, and (when given) those with the booking or one item on this resource */
  visibleToStaffResource?: string | null;
  sort?: 'createdAt' | 'startTime' | 'endTime' | 'status' | 'updatedAt';
  order?: 'asc' | 'desc';
  /** true: still ahead (PENDING or CONFIRMED, starting after `now`) and not confirmed by the customer; false: confirmed */
  unconfirmed?: { unconfirmed: boolean; now: Date };
}

export async function pageOfBookings(db: Db, tenantId: string, f: BookingFilter, page: PageQuery): Promise<PageResult<BookingRow>> {
  const query = BookingModel.query(db).where({ tenantId });
  if (f.statuses) query.whereIn('status', f.statuses);
  if (f.startFrom) query.where('startTime', '>=', f.startFrom);
  if (f.startBefore) query.where('startTime', '<', f.startBefore);
  if (f.resourceId) query.where('resourceId', f.resourceId);
  if (f.unconfirmed?.unconfirmed)
    query
      .whereNull('confirmedAt')
      .whereIn('status', [...REMINDABLE_BOOKING_STATUSES])
      .where('startTime', '>', f.unconfirmed.now);
  else if (f.unconfirmed) query.whereNotNull('confirmedAt');
  if (f.visibleToStaffResource !== undefined) {
    const own = f.visibleToStaffResource;
    query.where((w) => {
      w.whereNull('resourceId');
      if (own) {
        w.orWhere('resourceId', own).orWhereExists(
          BookingItemModel.query(db).select(1).whereColumn('booking_items.bookingId', 'bookings.id').where('booking_items.resourceId', own),
        );
      }
    });
  }
  query.orderBy([
    { column: f.sort ?? 'createdAt', order: f.order ?? 'desc' },
    { column: 'id', order: 'asc' },
  ]);
  return (await paginate(query, page)) as unknown as PageResult<BookingRow>;
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
export async function pageOfAuditEntries(db: Db, tenantId: string, bookingId: string, page: PageQuery): Promise<PageResult<AuditLogRow>> {
  const query = BookingAuditLogModel.query(db)
    .where({ tenantId, bookingId })
    .select('id', 'actorUserId', 'actorRole', 'action', 'fromStatus', 'toStatus', 'reason', 'forced', 'changes', 'createdAt')
    .orderBy([
      { column: 'createdAt', order: 'asc' },
      { column: 'id', order: 'asc' },
    ]);
  return paginate(query, page);
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
    .orderBy([
      { column: 'bookings.startTime', order: 'desc' },
      { column: 'bookings.id', order: 'asc' },
    ]);
  return (await paginate(query, page)) as unknown as PageResult<AccountBookingRow>;
}

/**
 * Compare-and-set: the booking becomes the account's (version + 1) only while no account owns it.
 * The new version, or undefined when another claim won.
 */
export async function claimForAccount(trx: Transaction, row: BookingRow, customerAccountId: string, now: Date): Promise<number | undefined> {
  const version = row.version + 1;
  const updated = await returnedRows(
    BookingModel.query(trx)
      .patch({ customerAccountId, version, updatedAt: now })
      .where({ id: row.id, tenantId: row.tenantId })
      .whereNull('customerAccountId')
      .returning('id'),
  );
  return updated.length === 1 ? version : undefined;
}

// ---------------------------------------------------------------- by id alone (workflow activities)

/**
 * Every column of bookings, by its BookingRow key. Listed rather than `*`: a prepared statement
 * whose result gains a column (a migration while a process runs) fails with "cached plan must not
 * change result type". test/integration/hot-path-statements.test.ts holds this list to the table.
 */
export const BOOKING_KEYS = [
  'id',
  'tenantId',
  'customerId',
  'resourceId',
  'startTime',
  'endTime',
  'status',
  'source',
  'paymentMode',
  'totalAmount',
  'discountAmount',
  'appliedVoucherId',
  'cancellationFee',
  'depositStatus',
  'processedForLoyalty',
  'metadata',
  'isGuest',
  'contactName',
  'contactPhone',
  'contactEmail',
  'notes',
  'version',
  'cancelReason',
  'cancelledBy',
  'cancelledAt',
  'cancellationTokenHash',
  'allowDoubleBooking',
  'createdBy',
  'createdAt',
  'updatedAt',
  'customerAccountId',
  'language',
  'calendarSequence',
  'confirmedAt',
  'confirmedVia',
  'unconfirmedFlaggedAt',
  'customerErased',
  'identityRemovedAt',
] as const satisfies readonly (keyof BookingRow)[];

const BOOKING_BY_ID = `SELECT ${BOOKING_KEYS.map((key) => `${columnOf(key)} AS "${key}"`).join(', ')} FROM bookings WHERE id = ?`;

/**
 * The booking by id alone: the workflows' activities (the id came from the tenant's own row), each
 * delivery reading it once. A named statement (db/named-statement.ts): the model's query path cost
 * the worker 0.3-0.4 ms of CPU per read against 0.16-0.17 ms (docs/performance.md).
 */
export async function bookingById(db: Db, id: string): Promise<BookingRow | undefined> {
  const [row] = await runNamedStatement<BookingRow>(db, { name: 'booking-by-id', sql: BOOKING_BY_ID, bindings: [id] });
  return row;
}

// ---------------------------------------------------------------- loyalty's claim on a completed booking

/** A completed booking as loyalty processes it. */
export interface LoyaltyBookingRow {
  id: string;
  tenantId: string;
  customerId: string | null;
  status: string;
  totalAmount: number;
  discountAmount: number;
  appliedVoucherId: string | null;
  startTime: Date;
}

/**
 * Compare-and-set (docs/rules/loyalty.md#completion): marks a COMPLETED booking processed for
 * loyalty (the model stamps updatedAt);
 * undefined when it was already processed (or is not COMPLETED), so the caller does nothing.
 */
export async function claimBookingForLoyalty(db: Db, bookingId: string): Promise<LoyaltyBookingRow | undefined> {
  const [row] = await returnedRows<LoyaltyBookingRow>(
    BookingModel.query(db)
      .patch({ processedForLoyalty: true })
      .where({ id: bookingId, processedForLoyalty: false, status: 'COMPLETED' })
      .returning(['id', 'tenantId', 'customerId', 'status', 'totalAmount', 'discountAmount', 'appliedVoucherId', 'startTime']),
  );
  return row;
}

export async function serviceIdsOfBooking(db: Db, bookingId: string): Promise<string[]> {
  return (await BookingItemModel.query(db).where({ bookingId }).select('serviceId')).map((r) => r.serviceId);
}

export interface BookingMessageParties {
  /** the salon as its messages name and link it */
  salon: { name: string; slug: string; address: unknown; timezone: string };
  /** the booking's services and their staff by name, in item order */
  items: { serviceName: string; resourceName: string | null }[];
  /** the booking's customer record, when it has one */
  customer: { name: string; phone: string | null; email: string | null } | null;
}

// Sent for every message the worker delivers: a named statement (db/named-statement.ts), not
// objection's query path (docs/performance.md).
const MESSAGE_PARTIES = `SELECT bi.id AS "itemId", s.name AS "serviceName", r.name AS "resourceName",
    t.name AS "salonName", t.slug AS "salonSlug", t.address AS "salonAddress", t.settings->>'timezone' AS "salonTimezone",
    c.id AS "customerId", c.name AS "customerName", c.phone AS "customerPhone", c.email AS "customerEmail"
  FROM tenants t
  LEFT JOIN booking_items bi ON bi.booking_id = ?
  LEFT JOIN services s ON s.id = bi.service_id
  LEFT JOIN resources r ON r.id = bi.resource_id
  LEFT JOIN customers c ON c.id = ? AND c.tenant_id = t.id
  WHERE t.id = ?
  ORDER BY bi.sort_order`;

/** Who sends a message about the booking, what it names (services and staff) and who it goes to, in one query. */
export async function messagePartiesOf(db: Db, booking: { id: string; tenantId: string; customerId: string | null }): Promise<BookingMessageParties> {
  const rows = await runNamedStatement<{
    itemId: string | null;
    serviceName: string;
    resourceName: string | null;
    salonName: string;
    salonSlug: string;
    salonAddress: unknown;
    salonTimezone: string;
    customerId: string | null;
    customerName: string;
    customerPhone: string | null;
    customerEmail: string | null;
  }>(db, { name: 'booking-message-parties', sql: MESSAGE_PARTIES, bindings: [booking.id, booking.customerId, booking.tenantId] });
  const first = rows[0];
  if (!first) throw new Error(`salon ${booking.tenantId} of booking ${booking.id} not found`);
  return {
    salon: { name: first.salonName, slug: first.salonSlug, address: first.salonAddress, timezone: first.salonTimezone },
    items: rows.filter((r) => r.itemId).map((r) => ({ serviceName: r.serviceName, resourceName: r.resourceName })),
    customer: first.customerId ? { name: first.customerName, phone: first.customerPhone, email: first.customerEmail } : null,
  };
}

/** What the booking's workflow follows (its status, version, start and confirmation) and its salon's settings. */
export interface BookingTimelineRow {
  tenantId: string;
  status: BookingStatus;
  version: number;
  startTime: Date;
  confirmedAt: Date | null;
  metadata: BookingRow['metadata'] | null;
  salonSettings: Record<string, unknown> | null;
}

const TIMELINE = `
  SELECT b.tenant_id AS "tenantId", b.status, b.version, b.start_time AS "startTime", b.confirmed_at AS "confirmedAt", b.metadata, t.settings AS "salonSettings"
    FROM bookings b JOIN tenants t ON t.id = b.tenant_id
   WHERE b.id = ?`;

/**
 * The booking workflow's read of committed state, once per signal it gets: one named statement
 * (db/named-statement.ts) instead of the booking and then its salon through the models.
 */
export async function bookingTimelineRow(db: Db, id: string): Promise<BookingTimelineRow | undefined> {
  const [row] = await runNamedStatement<BookingTimelineRow>(db, { name: 'booking-timeline', sql: TIMELINE, bindings: [id] });
  return row;
}

/** The statuses of these bookings (a series shows whether each occurrence is still on). */
export async function statusesOfBookings(db: Db, ids: readonly string[]): Promise<Map<string, BookingStatus>> {
  if (!ids.length) return new Map();
  const rows = await BookingModel.query(db).whereIn('id', ids).select('id', 'status');
  return new Map(rows.map((r) => [r.id, r.status as BookingStatus]));
}

/** Does the customer have a booking at the salon that starts after `after` and is still on (docs/rules/series.md#rebooking-nudges)? */
export async function hasUpcomingBooking(db: Db, tenantId: string, customerId: string, after: Date): Promise<boolean> {
  const row = await BookingModel.query(db)
    .select('id')
    .where({ tenantId, customerId })
    .where('startTime', '>', after)
    .whereIn('status', ['PENDING', 'CONFIRMED', 'ARRIVED', 'IN_PROGRESS'])
    .first();
  return !!row;
}

/** The language of the customer's latest booking at the salon (its messages' language); undefined when there is none. */
export async function latestBookingLanguage(db: Db, tenantId: string, customerId: string): Promise<Language | undefined> {
  const row = await BookingModel.query(db).select('language').where({ tenantId, customerId }).orderBy('createdAt', 'desc').orderBy('id', 'desc').first();
  return row ? (row.language as Language) : undefined;
}
