// Time-off of resources (spec 2.5, 4.3, 5.3). Types vacation/sick/personal/other; startDate..endDate
// inclusive; null times = whole days, else the window applies on each covered date (see
// domain/availability/working-hours.rules.ts). Several entries per day are allowed.
//
// Who may do what:
// - OWNER/ADMIN: create for any resource (approved unless isApproved:false is sent), edit anything,
//   approve or reject (PATCH isApproved), delete.
// - STAFF: only for their own resource; created entries are always unapproved (isApproved forced
//   false); edit or cancel (DELETE) only while unapproved (409 TIME_OFF_ALREADY_APPROVED after);
//   sending isApproved is 403.
import type { Knex } from 'knex';
import { TimeOffModel, type TimeOffType } from '../../db/models/time-off.model';
import { paginate, type PageResult } from '../../db/paginate';
import { slotProblems } from '../tenant/tenant-settings.rules';
import { errors } from '../errors';
import { assertOwnOrOwner, findResource, type Actor } from './resource.service';
import { isApiDate, toIso } from '../time/iso';

export interface TimeOffDto {
  id: string;
  resourceId: string;
  type: TimeOffType;
  startDate: string;
  endDate: string;
  startTime: string | null;
  endTime: string | null;
  description: string | null;
  isApproved: boolean;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TimeOffInput {
  type: TimeOffType;
  startDate: string;
  endDate: string;
  startTime?: string | null;
  endTime?: string | null;
  description?: string | null;
  isApproved?: boolean;
}

export interface TimeOffListQuery {
  page?: number;
  limit?: number;
  resourceId?: string;
  /** entries overlapping [dateFrom, dateTo] (either bound optional) */
  dateFrom?: string;
  dateTo?: string;
  isApproved?: boolean;
  type?: TimeOffType;
  sort?: 'createdAt' | 'startDate';
  order?: 'asc' | 'desc';
}


export function timeOffDto(t: TimeOffModel): TimeOffDto {
  return {
    id: t.id,
    resourceId: t.resourceId,
    type: t.type,
    startDate: t.startDate,
    endDate: t.endDate,
    startTime: t.startTime ?? null,
    endTime: t.endTime ?? null,
    description: t.description ?? null,
    isApproved: t.isApproved,
    createdBy: t.createdBy ?? null,
    createdAt: toIso(t.createdAt),
    updatedAt: toIso(t.updatedAt),
  };
}

function isRealDate(d: string): boolean {
  return isApiDate(d);
}

function assertShape(t: { startDate: string; endDate: string; startTime?: string | null; endTime?: string | null }): void {
  const problems: { field: string; message: string }[] = [];
  if (!isRealDate(t.startDate)) problems.push({ field: 'startDate', message: 'must be a calendar date' });
  if (!isRealDate(t.endDate)) problems.push({ field: 'endDate', message: 'must be a calendar date' });
  if (!problems.length && t.endDate < t.startDate) problems.push({ field: 'endDate', message: 'must not be before startDate' });
  const start = t.startTime ?? null;
  const end = t.endTime ?? null;
  if ((start === null) !== (end === null)) {
    problems.push({ field: start === null ? 'startTime' : 'endTime', message: 'give both times for part of a day, or neither for whole days' });
  } else if (start !== null && end !== null) {
    problems.push(...slotProblems([{ startTime: start, endTime: end }], 'x').map((p) => ({ field: 'endTime', message: p.message })));
  }
  if (problems.length) throw errors.validation('Request validation failed', problems);
}

function applyFilters(query: ReturnType<typeof TimeOffModel.query>, q: TimeOffListQuery): void {
  if (q.resourceId) query.where({ resourceId: q.resourceId });
  if (q.dateFrom) query.where('endDate', '>=', q.dateFrom);
  if (q.dateTo) query.where('startDate', '<=', q.dateTo);
  if (q.isApproved !== undefined) query.where({ isApproved: q.isApproved });
  if (q.type) query.where({ type: q.type });
}

/** GET /time-offs and GET /resources/:id/time-offs (the route passes resourceId after checking it). */
export async function listTimeOffs(tenantId: string, q: TimeOffListQuery): Promise<PageResult<TimeOffDto>> {
  if (q.dateFrom && q.dateTo && q.dateTo < q.dateFrom) {
    throw errors.validation('Request validation failed', [{ field: 'dateTo', message: 'must not be before dateFrom' }]);
  }
  const query = TimeOffModel.query().where({ tenantId });
  applyFilters(query, q);
  query.orderBy(q.sort ?? 'createdAt', q.order ?? 'desc').orderBy('id');
  const page = await paginate(query, q);
  return { ...page, rows: page.rows.map(timeOffDto) };
}

export async function listResourceTimeOffs(tenantId: string, resourceId: string, q: TimeOffListQuery): Promise<PageResult<TimeOffDto>> {
  await findResource(undefined, tenantId, resourceId);
  return listTimeOffs(tenantId, { ...q, resourceId });
}

export async function createTimeOff(tenantId: string, resourceId: string, input: TimeOffInput, actor: Actor): Promise<TimeOffDto> {
  assertShape(input);
  return TimeOffModel.transaction(async (trx) => {
    const resource = await findResource(trx, tenantId, resourceId);
    assertOwnOrOwner(actor, resource);
    const isApproved = actor.role === 'STAFF' ? false : input.isApproved ?? true;
    const row = await TimeOffModel.query(trx).insertAndFetch({
      tenantId,
      resourceId,
      type: input.type,
      startDate: input.startDate,
      endDate: input.endDate,
      startTime: input.startTime ?? null,
      endTime: input.endTime ?? null,
      description: input.description ?? null,
      isApproved,
      createdBy: actor.userId,
    });
    return timeOffDto(row);
  });
}

async function findTimeOffForChange(trx: Knex.Transaction, tenantId: string, resourceId: string, id: string, actor: Actor): Promise<TimeOffModel> {
  const resource = await findResource(trx, tenantId, resourceId);
  const row = await TimeOffModel.query(trx).findOne({ id, resourceId, tenantId }).forUpdate();
  if (!row) throw errors.notFound('timeOff');
  assertOwnOrOwner(actor, resource);
  if (actor.role === 'STAFF' && row.isApproved) {
    throw errors.conflict('TIME_OFF_ALREADY_APPROVED', 'Approved time-off can only be changed by the owner');
  }
  return row;
}

export async function updateTimeOff(tenantId: string, resourceId: string, id: string, patch: Partial<TimeOffInput>, actor: Actor): Promise<TimeOffDto> {
  return TimeOffModel.transaction(async (trx) => {
    const row = await findTimeOffForChange(trx, tenantId, resourceId, id, actor);
    if (actor.role === 'STAFF' && patch.isApproved !== undefined) throw errors.forbidden('Only the owner approves or rejects time-off');
    const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<TimeOffModel>;
    assertShape({ startDate: row.startDate, endDate: row.endDate, startTime: row.startTime, endTime: row.endTime, ...changes });
    return timeOffDto(await row.$query(trx).patchAndFetch(changes));
  });
}

export async function deleteTimeOff(tenantId: string, resourceId: string, id: string, actor: Actor): Promise<void> {
  await TimeOffModel.transaction(async (trx) => {
    await findTimeOffForChange(trx, tenantId, resourceId, id, actor);
    await TimeOffModel.query(trx).deleteById(id);
  });
}
