/**
 * The salon's committed booking changes since a cursor (docs/rules/front-desk.md#live-updates). A
 * trigger keeps, for every booking, the id of the transaction that last wrote it (booking_changes,
 * migration 190).
 * The cursor is the horizon of a snapshot: the oldest transaction still running when it was taken,
 * so every transaction below it had finished and its rows were visible. The changes since a cursor
 * are then the rows stamped at or above it and below the current horizon - each committed change is
 * reported once, whatever order transactions committed in, on whichever api process asks.
 */
import type { Db } from '../../db/db-handle';
import type { BookingStatus } from './booking-status.rules';

export interface ChangedBookingRow {
  id: string;
  version: number;
  status: BookingStatus;
  startTime: Date;
  endTime: Date;
  /** the booking's staff member and every item's, for STAFF scoping */
  resourceId: string | null;
  itemResourceIds: (string | null)[];
  changedXid: string;
}

/** The current horizon, and the bookings of the salon changed in [after, horizon), oldest change first (at most `limit`). */
export async function bookingsChangedSince(
  db: Db,
  tenantId: string,
  after: string | null,
  limit: number,
): Promise<{ horizon: string; rows: ChangedBookingRow[] }> {
  // Raw: the snapshot's horizon (pg_current_snapshot) and the xid8 comparisons have no builder methods;
  // one statement, so the rows are read in the snapshot the horizon comes from.
  const result = await db.raw(
    `WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon)
     SELECT h.horizon::text AS horizon, b.id, b.version, b.status, b.start_time AS "startTime", b.end_time AS "endTime",
            b.resource_id AS "resourceId", b.changed_xid::text AS "changedXid",
            (SELECT array_agg(i.resource_id) FROM booking_items i WHERE i.booking_id = b.id) AS "itemResourceIds"
       FROM h LEFT JOIN LATERAL (
         SELECT bk.*, c.changed_xid FROM booking_changes c JOIN bookings bk ON bk.id = c.booking_id
          WHERE c.tenant_id = ? AND ?::xid8 IS NOT NULL AND c.changed_xid >= ?::xid8 AND c.changed_xid < h.horizon
          ORDER BY c.changed_xid, c.booking_id LIMIT ?
       ) b ON true`,
    [tenantId, after, after, limit],
  );
  const rows = result.rows as Record<string, unknown>[];
  const horizon = String(rows[0].horizon);
  return {
    horizon,
    rows: rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: r.id as string,
        version: r.version as number,
        status: r.status as BookingStatus,
        startTime: r.startTime as Date,
        endTime: r.endTime as Date,
        resourceId: r.resourceId as string | null,
        itemResourceIds: (r.itemResourceIds as (string | null)[] | null) ?? [],
        changedXid: r.changedXid as string,
      })),
  };
}
