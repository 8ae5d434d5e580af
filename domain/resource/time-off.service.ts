// Time-off of resources (docs/rules/catalogue.md#time-off). Types vacation/sick/personal/other; startDate..endDate
// inclusive; null times = whole days, else the window applies on each covered date (see
// domain/availability/working-hours.rules.ts). Several entries per day are allowed.
//
// Who may do what:
// - OWNER/ADMIN: create for any resource (approved unless isApproved:false is sent), edit anything,
//   approve or reject (PATCH isApproved), delete.
// - STAFF: only for their own resource; created entries are always unapproved (isApproved forced
//   false); edit or cancel (DELETE) only while unapproved (409 TIME_OFF_ALREADY_APPROVED after);
//   sending isApproved is 403.
import type { Db, Transaction } from '../../db/db-handle';
import type { WorkingTimeNotice } from './resource-hooks';
import type { PageQuery, PageResult } from '../../db/paginate';
import { slotProblems } from '../tenant/tenant-settings.rules';
import { errors } from '../errors';
import { definedFields } from '../defined-fields';
import { isApiDate, toIso } from '../time/iso';
import { assertOwnOrOwner, existingResource, type Actor } from './resource.service';
import * as repo from './time-off.repository';
import type { TimeOffType } from './time-off.repository';

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

export type TimeOffListQuery = PageQuery & repo.TimeOffFilter;

export function timeOffDto(t: repo.TimeOffRow): TimeOffDto {
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

/** GET /time-offs and GET /resources/:id/time-offs (the route passes resourceId after checking it). */
export async function listTimeOffs(db: Db, tenantId: string, q: TimeOffListQuery): Promise<PageResult<TimeOffDto>> {
  if (q.dateFrom && q.dateTo && q.dateTo < q.dateFrom) {
    throw errors.validation('Request validation failed', [{ field: 'dateTo', message: 'must not be before dateFrom' }]);
  }
  const page = await repo.pageOfTimeOffs(db, tenantId, q, q);
  return { ...page, rows: page.rows.map(timeOffDto) };
}

export async function listResourceTimeOffs(db: Db, tenantId: string, resourceId: string, q: TimeOffListQuery): Promise<PageResult<TimeOffDto>> {
  await existingResource(db, tenantId, resourceId);
  return listTimeOffs(db, tenantId, { ...q, resourceId });
}

export async function createTimeOff(db: Db, tenantId: string, resourceId: string, input: TimeOffInput, actor: Actor): Promise<TimeOffDto> {
  assertShape(input);
  return db.transaction(async (trx) => {
    const resource = await existingResource(trx, tenantId, resourceId);
    assertOwnOrOwner(actor, resource);
    const isApproved = actor.role === 'STAFF' ? false : (input.isApproved ?? true);
    const row = await repo.insertTimeOff(trx, tenantId, resourceId, {
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

async function timeOffForChange(db: Db, tenantId: string, resourceId: string, id: string, actor: Actor): Promise<repo.TimeOffRow> {
  const resource = await existingResource(db, tenantId, resourceId);
  const row = await repo.lockTimeOff(db, tenantId, resourceId, id);
  if (!row) throw errors.notFound('timeOff');
  assertOwnOrOwner(actor, resource);
  if (actor.role === 'STAFF' && row.isApproved) {
    throw errors.conflict('TIME_OFF_ALREADY_APPROVED', 'Approved time-off can only be changed by the owner');
  }
  return row;
}

/** Approved time-off that changes or goes gives its old dates back to the waitlist (docs/rules/waitlist.md#when-time-frees-up). */
async function timeOffReleased(trx: Transaction, row: repo.TimeOffRow, waitlist: WorkingTimeNotice): Promise<void> {
  if (!row.isApproved) return;
  await waitlist.resourceHooks.workingTimeGrew(
    waitlist.signaller,
    trx,
    { tenantId: row.tenantId, resourceId: row.resourceId, cause: 'TIME_OFF_CHANGED', from: row.startDate, to: row.endDate },
    waitlist.now,
  );
}

export async function updateTimeOff(
  db: Db,
  tenantId: string,
  resourceId: string,
  id: string,
  patch: Partial<TimeOffInput>,
  actor: Actor,
  waitlist: WorkingTimeNotice,
): Promise<TimeOffDto> {
  return db.transaction(async (trx) => {
    const row = await timeOffForChange(trx, tenantId, resourceId, id, actor);
    if (actor.role === 'STAFF' && patch.isApproved !== undefined) throw errors.forbidden('Only the owner approves or rejects time-off');
    const changes = definedFields(patch);
    assertShape({ startDate: row.startDate, endDate: row.endDate, startTime: row.startTime, endTime: row.endTime, ...changes });
    const updated = timeOffDto(await repo.patchTimeOff(trx, id, changes));
    await timeOffReleased(trx, row, waitlist);
    return updated;
  });
}

export async function deleteTimeOff(db: Db, tenantId: string, resourceId: string, id: string, actor: Actor, waitlist: WorkingTimeNotice): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await timeOffForChange(trx, tenantId, resourceId, id, actor);
    await repo.deleteTimeOff(trx, id);
    await timeOffReleased(trx, row, waitlist);
  });
}
