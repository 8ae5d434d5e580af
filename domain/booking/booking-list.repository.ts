/**
 * The booking lists staff read (docs/rules/booking.md): a page of the salon's bookings by filter
 * (STAFF scoped, docs/rules/auth.md#staff-scoping), a booking's audit log, and the statuses of a
 * set of bookings (a series' occurrences). Plain rows out, tenant-scoped.
 */
import type { Db } from '../../db/db-handle';
import { BookingModel } from '../../db/models/booking.model';
import { BookingItemModel } from '../../db/models/booking-item.model';
import { BookingAuditLogModel } from '../../db/models/booking-audit-log.model';
import { DEFAULT_LIMIT, paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain } from '../../db/plain';
import { REMINDABLE_BOOKING_STATUSES, type BookingStatus } from './booking-status.rules';
import type { BookingRow } from './booking.types';

type SortKey = 'createdAt' | 'startTime' | 'endTime' | 'status' | 'updatedAt';
const SORT_COLUMNS: Record<SortKey, string> = {
  createdAt: 'created_at',
  startTime: 'start_time',
  endTime: 'end_time',
  status: 'status',
  updatedAt: 'updated_at',
};

export interface BookingFilter {
  statuses?: string[];
  startFrom?: Date;
  startBefore?: Date;
  resourceId?: string;
  /** STAFF scope: unassigned bookings, and (when given) those with the booking or one item on this resource */
  visibleToStaffResource?: string | null;
  sort?: SortKey;
  order?: 'asc' | 'desc';
  /** false: still ahead (PENDING or CONFIRMED, starting after `now`) and not promised by the customer; true: promised */
  promised?: { promised: boolean; now: Date };
  /** keyset paging: only the bookings after this one in the sort and order (docs/api/README.md#paging) */
  afterBookingId?: string;
}

export async function pageOfBookings(db: Db, tenantId: string, f: BookingFilter, page: PageQuery): Promise<PageResult<BookingRow>> {
  const query = BookingModel.query(db).where({ tenantId });
  if (f.statuses) query.whereIn('status', f.statuses);
  if (f.startFrom) query.where('startTime', '>=', f.startFrom);
  if (f.startBefore) query.where('startTime', '<', f.startBefore);
  if (f.resourceId) query.where('resourceId', f.resourceId);
  if (f.promised && !f.promised.promised)
    query
      .whereNull('promisedAt')
      .whereIn('status', [...REMINDABLE_BOOKING_STATUSES])
      .where('startTime', '>', f.promised.now);
  else if (f.promised) query.whereNotNull('promisedAt');
  if (f.visibleToStaffResource !== undefined) {
    const own = f.visibleToStaffResource;
    query.where((w) => {
      w.whereNull('resourceId');
      if (own) {
        // the items' own tenant_id lets the salon's (tenant, resource, start) index find the staff member's items; without it
        // Postgres read every item of the platform for them (docs/performance.md#growth-a-large-platform-issue-54)
        w.orWhere('resourceId', own).orWhereExists(
          BookingItemModel.query(db)
            .select(1)
            .whereColumn('booking_items.bookingId', 'bookings.id')
            .where({ 'booking_items.tenantId': tenantId, 'booking_items.resourceId': own }),
        );
      }
    });
  }
  const sort = f.sort ?? 'createdAt';
  const order = f.order ?? 'desc';
  const ordered = () =>
    query.clone().orderBy([
      { column: sort, order },
      { column: 'id', order: 'asc' },
    ]);
  if (!f.afterBookingId) return (await paginate(ordered(), page)) as unknown as PageResult<BookingRow>;
  // keyset: the rows after the cursor; the total is still the whole list's, as on a numbered page
  const limit = page.limit ?? DEFAULT_LIMIT;
  const after = ordered().limit(limit);
  whereAfter(after, db, tenantId, sort, order, f.afterBookingId);
  const [rows, total] = await Promise.all([after, query.clone().resultSize()]);
  return { rows: rows.map(plain), total, page: page.page ?? 1, limit } as unknown as PageResult<BookingRow>;
}

/**
 * The rows after the cursor's booking in (sort, id asc): its sort value read in the same statement, exact to the
 * microsecond, so the index on (tenant, sort column) starts there instead of reading and skipping the pages before.
 */
function whereAfter(query: ReturnType<typeof BookingModel.query>, db: Db, tenantId: string, sort: SortKey, order: 'asc' | 'desc', afterId: string): void {
  const column = SORT_COLUMNS[sort];
  const cursor = db.raw(`(SELECT c.${column} FROM bookings c WHERE c.tenant_id = ? AND c.id = ?)`, [tenantId, afterId]);
  const beyond = order === 'desc' ? '<' : '>';
  query
    .whereRaw(`bookings.${column} ${beyond}= ?`, [cursor])
    .where((w) => w.whereRaw(`bookings.${column} ${beyond} ?`, [cursor]).orWhere('bookings.id', '>', afterId));
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

/** The statuses of these bookings (a series shows whether each occurrence is still on). */
export async function statusesOfBookings(db: Db, ids: readonly string[]): Promise<Map<string, BookingStatus>> {
  if (!ids.length) return new Map();
  const rows = await BookingModel.query(db).whereIn('id', ids).select('id', 'status');
  return new Map(rows.map((r) => [r.id, r.status as BookingStatus]));
}
