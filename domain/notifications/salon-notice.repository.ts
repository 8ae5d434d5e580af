/**
 * Data access of salon_notices (docs/rules/front-desk.md#the-salon-is-told): one row per booking and
 * kind, written by the booking's workflow (an insert that claims the unique key, so a retried
 * activity writes nothing twice), listed newest first for the salon's owner, marked read once.
 */
import type { Db } from '../../db/db-handle';
import { SalonNoticeModel } from '../../db/models/salon-notice.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plainOrUndefined, returnedRows, type Row } from '../../db/plain';
import type { SalonNoticeKind } from './salon-notice.rules';

export type SalonNoticeRow = Row<SalonNoticeModel>;

/** Writes the notice unless it exists; whether this call wrote it. */
export async function insertNoticeOnce(db: Db, notice: { tenantId: string; bookingId: string; kind: SalonNoticeKind }): Promise<boolean> {
  const written = await returnedRows<{ id: string }>(SalonNoticeModel.query(db).insert(notice).onConflict(['bookingId', 'kind']).ignore().returning('id'));
  return written.length === 1;
}

export async function pageOfNotices(db: Db, tenantId: string, query: PageQuery & { unread?: boolean }): Promise<PageResult<SalonNoticeRow>> {
  const q = SalonNoticeModel.query(db).where({ tenantId });
  if (query.unread === true) q.whereNull('readAt');
  if (query.unread === false) q.whereNotNull('readAt');
  return paginate(
    q.orderBy([
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]),
    query,
  );
}

export async function noticeExists(db: Db, bookingId: string, kind: SalonNoticeKind): Promise<boolean> {
  return (await SalonNoticeModel.query(db).findOne({ bookingId, kind }).select('id')) !== undefined;
}

/** Marks the notice read (the first time is kept); undefined for another salon's or an unknown notice. */
export async function markNoticeRead(db: Db, tenantId: string, id: string, now: Date): Promise<SalonNoticeRow | undefined> {
  await SalonNoticeModel.query(db).patch({ readAt: now }).where({ tenantId, id }).whereNull('readAt');
  return plainOrUndefined(await SalonNoticeModel.query(db).findOne({ tenantId, id }));
}

/** How many notices of the salon were written in [after, horizon) of the change cursor (domain/booking/booking-changes.repository.ts). */
export async function noticesWrittenBetween(db: Db, tenantId: string, after: string, horizon: string): Promise<number> {
  // Raw: xid8 comparisons have no builder methods.
  const row = (await SalonNoticeModel.query(db)
    .where({ tenantId })
    .whereRaw('changed_xid >= ?::xid8 AND changed_xid < ?::xid8', [after, horizon])
    .count('* as n')
    .first()) as unknown as { n: string | number } | undefined;
  return Number(row?.n ?? 0);
}
