// Data access of time-off entries: tenant-scoped, plain rows out; the caller passes the pool or its transaction.
import type { Db } from '../../db/db-handle';
import { TimeOffModel } from '../../db/models/time-off.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain, plainOrUndefined, type Row } from '../../db/plain';

export type { TimeOffType } from '../../db/models/time-off.model';
export type TimeOffRow = Row<TimeOffModel>;
export type TimeOffFields = Omit<TimeOffRow, 'id' | 'tenantId' | 'resourceId' | 'createdAt' | 'updatedAt'>;

export interface TimeOffFilter {
  resourceId?: string;
  /** entries overlapping [dateFrom, dateTo] (either bound optional) */
  dateFrom?: string;
  dateTo?: string;
  isApproved?: boolean;
  type?: TimeOffRow['type'];
  sort?: 'createdAt' | 'startDate';
  order?: 'asc' | 'desc';
}

export async function pageOfTimeOffs(db: Db, tenantId: string, filter: TimeOffFilter, page: PageQuery): Promise<PageResult<TimeOffRow>> {
  const query = TimeOffModel.query(db).where({ tenantId });
  if (filter.resourceId) query.where({ resourceId: filter.resourceId });
  if (filter.dateFrom) query.where('endDate', '>=', filter.dateFrom);
  if (filter.dateTo) query.where('startDate', '<=', filter.dateTo);
  if (filter.isApproved !== undefined) query.where({ isApproved: filter.isApproved });
  if (filter.type) query.where({ type: filter.type });
  query.orderBy(filter.sort ?? 'createdAt', filter.order ?? 'desc').orderBy('id');
  return paginate(query, page);
}

export async function lockTimeOff(db: Db, tenantId: string, resourceId: string, id: string): Promise<TimeOffRow | undefined> {
  return plainOrUndefined(await TimeOffModel.query(db).findOne({ id, resourceId, tenantId }).forUpdate());
}

export async function insertTimeOff(db: Db, tenantId: string, resourceId: string, fields: TimeOffFields): Promise<TimeOffRow> {
  return plain(await TimeOffModel.query(db).insertAndFetch({ tenantId, resourceId, ...fields }));
}

export async function patchTimeOff(db: Db, id: string, changes: Partial<TimeOffFields>): Promise<TimeOffRow> {
  return plain(await TimeOffModel.query(db).patchAndFetchById(id, changes));
}

export async function deleteTimeOff(db: Db, id: string): Promise<void> {
  await TimeOffModel.query(db).deleteById(id);
}
