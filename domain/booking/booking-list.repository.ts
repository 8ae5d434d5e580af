/**
 * The booking lists staff read (docs/rules/booking.md): a page of the salon's bookings by filter
 * (STAFF scoped, docs/rules/auth.md#staff-scoping), a booking's audit log, and the statuses of a
 * set of bookings (a series' occurrences). Plain rows out, tenant-scoped.
 */
import type { Db } from '../../db/db-handle';
import { BookingModel } from '../../db/models/booking.model';
import { BookingItemModel } from '../../db/models/booking-item.model';
import { BookingAuditLogModel } from '../../db/models/booking-audit-log.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { REMINDABLE_BOOKING_STATUSES, type BookingStatus } from './booking-status.rules';
import type { BookingRow } from './booking.types';

export interface BookingFilter {
  statuses?: string[];
  startFrom?: Date;
  startBefore?: Date;
  resourceId?: string;
  /** STAFF scope: unassigned bookings, and (when given) those with the booking or one item on this resource */
  visibleToStaffResource?: string | null;
  sort?: 'createdAt' | 'startTime' | 'endTime' | 'status' | 'updatedAt';
  order?: 'asc' | 'desc';
  /** false: still ahead (PENDING or CONFIRMED, starting after `now`) and not promised by the customer; true: promised */
  promised?: { promised: boolean; now: Date };
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

/** The statuses of these bookings (a series shows whether each occurrence is still on). */
export async function statusesOfBookings(db: Db, ids: readonly string[]): Promise<Map<string, BookingStatus>> {
  if (!ids.length) return new Map();
  const rows = await BookingModel.query(db).whereIn('id', ids).select('id', 'status');
  return new Map(rows.map((r) => [r.id, r.status as BookingStatus]));
}
