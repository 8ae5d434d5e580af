// Weekly schedules and per-date overrides of a resource (spec 2.5, 4.3). 'HH:mm' strings are
// validated (format, end after start) and stored exactly as given; they are salon-local and never
// converted. Slots of one resource on one day never overlap: a clash inside the request body or with
// a stored row is 409 SCHEDULE_OVERLAP (inactive rows count too, so re-activating one cannot
// create an overlap). Writes lock the resource row, so concurrent writers cannot race the check.
import type { Knex } from 'knex';
import { ResourceScheduleModel } from '../../db/models/resource-schedule.model';
import { ResourceScheduleOverrideModel } from '../../db/models/resource-schedule-override.model';
import { slotProblems, type TimeSlot } from '../tenant/tenant-settings.rules';
import { errors } from '../errors';
import { findResource } from './resource.service';
import { toIso } from '../time/iso';

export interface ScheduleDto {
  id: string;
  resourceId: string;
  dayOfWeek: number;
  startTime: string;
  endTime: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ScheduleInput {
  dayOfWeek: number;
  startTime: string;
  endTime: string;
  isActive?: boolean;
}

export interface OverrideDto {
  id: string;
  resourceId: string;
  date: string;
  startTime: string | null;
  endTime: string | null;
  reason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface OverrideInput {
  date: string;
  startTime?: string | null;
  endTime?: string | null;
  reason?: string | null;
}


export function scheduleDto(s: ResourceScheduleModel): ScheduleDto {
  return {
    id: s.id,
    resourceId: s.resourceId,
    dayOfWeek: s.dayOfWeek,
    startTime: s.startTime,
    endTime: s.endTime,
    isActive: s.isActive,
    createdAt: toIso(s.createdAt),
    updatedAt: toIso(s.updatedAt),
  };
}

export function overrideDto(o: ResourceScheduleOverrideModel): OverrideDto {
  return {
    id: o.id,
    resourceId: o.resourceId,
    date: o.date,
    startTime: o.startTime ?? null,
    endTime: o.endTime ?? null,
    reason: o.reason ?? null,
    createdAt: toIso(o.createdAt),
    updatedAt: toIso(o.updatedAt),
  };
}

/** 400 for malformed or reversed times (per slot), 409 SCHEDULE_OVERLAP when slots of one day overlap. */
export function assertWeekIsValid(slots: (TimeSlot & { dayOfWeek: number })[], field: string): void {
  const shapeProblems = slots.flatMap((s, i) =>
    slotProblems([s], 'X').map((p) => ({ ...p, field: p.field.replace('X[0]', `${field}[${i}]`) })),
  );
  if (shapeProblems.length) throw errors.validation('Request validation failed', shapeProblems);
  for (let day = 0; day <= 6; day++) {
    const daySlots = slots.filter((s) => s.dayOfWeek === day);
    if (slotProblems(daySlots, field).length) {
      throw errors.conflict('SCHEDULE_OVERLAP', `Schedule slots overlap on day ${day}`, [
        { field, message: `slots on dayOfWeek ${day} must not overlap` },
      ]);
    }
  }
}

export async function listSchedules(tenantId: string, resourceId: string): Promise<ScheduleDto[]> {
  await findResource(undefined, tenantId, resourceId);
  const rows = await ResourceScheduleModel.query().where({ tenantId, resourceId }).orderBy('dayOfWeek').orderBy('startTime');
  return rows.map(scheduleDto);
}

async function weekOf(trx: Knex.Transaction, resourceId: string): Promise<ResourceScheduleModel[]> {
  return ResourceScheduleModel.query(trx).where({ resourceId });
}

/** Adds slots (POST /schedules and /schedules/bulk). With `replace`, the given slots become the whole week. */
export async function addSchedules(tenantId: string, resourceId: string, input: ScheduleInput[], replace = false): Promise<ScheduleDto[]> {
  return ResourceScheduleModel.transaction(async (trx) => {
    await findResource(trx, tenantId, resourceId, true);
    assertWeekIsValid(input, 'schedules');
    const existing = replace ? [] : await weekOf(trx, resourceId);
    assertWeekIsValid([...existing, ...input], 'schedules');
    return (await writeWeek(trx, tenantId, resourceId, input, replace)).map(scheduleDto);
  });
}

/**
 * Writes weekly slots without the resource checks (the caller has validated them and holds the
 * lock). Used by addSchedules and by applyBusinessHoursToStaff.
 */
export async function writeWeek(
  trx: Knex.Transaction,
  tenantId: string,
  resourceId: string,
  slots: ScheduleInput[],
  replace: boolean,
): Promise<ResourceScheduleModel[]> {
  if (replace) await ResourceScheduleModel.query(trx).where({ resourceId, tenantId }).delete();
  if (slots.length === 0) return [];
  const rows = await ResourceScheduleModel.query(trx)
    .insert(slots.map((s) => ({ resourceId, tenantId, dayOfWeek: s.dayOfWeek, startTime: s.startTime, endTime: s.endTime, isActive: s.isActive ?? true })))
    .returning('*');
  return (rows as unknown as ResourceScheduleModel[]).sort((a, b) => a.dayOfWeek - b.dayOfWeek || a.startTime.localeCompare(b.startTime));
}

async function findSchedule(trx: Knex.Transaction, tenantId: string, resourceId: string, id: string): Promise<ResourceScheduleModel> {
  const row = await ResourceScheduleModel.query(trx).findOne({ id, resourceId, tenantId });
  if (!row) throw errors.notFound('schedule');
  return row;
}

export async function updateSchedule(tenantId: string, resourceId: string, id: string, patch: Partial<ScheduleInput>): Promise<ScheduleDto> {
  return ResourceScheduleModel.transaction(async (trx) => {
    await findResource(trx, tenantId, resourceId, true);
    const row = await findSchedule(trx, tenantId, resourceId, id);
    const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<ScheduleInput>;
    const next = { dayOfWeek: row.dayOfWeek, startTime: row.startTime, endTime: row.endTime, ...changes };
    assertWeekIsValid([next], 'schedule');
    const others = (await weekOf(trx, resourceId)).filter((r) => r.id !== id);
    assertWeekIsValid([...others, next], 'schedule');
    return scheduleDto(await row.$query(trx).patchAndFetch(changes));
  });
}

export async function deleteSchedule(tenantId: string, resourceId: string, id: string): Promise<void> {
  await ResourceScheduleModel.transaction(async (trx) => {
    await findResource(trx, tenantId, resourceId, true);
    await findSchedule(trx, tenantId, resourceId, id);
    await ResourceScheduleModel.query(trx).deleteById(id);
  });
}

// ---------------------------------------------------------------- overrides

/** Both times null (day off) or both valid HH:mm with end after start. */
function assertOverrideTimes(o: { startTime?: string | null; endTime?: string | null }): void {
  const start = o.startTime ?? null;
  const end = o.endTime ?? null;
  if (start === null && end === null) return;
  if (start === null || end === null) {
    throw errors.validation('Request validation failed', [
      { field: start === null ? 'startTime' : 'endTime', message: 'give both times, or neither for a day off' },
    ]);
  }
  const problems = slotProblems([{ startTime: start, endTime: end }], 'x').map((p) => ({ field: 'endTime', message: p.message }));
  if (problems.length) throw errors.validation('Request validation failed', problems);
}

export async function listOverrides(tenantId: string, resourceId: string, range: { dateFrom?: string; dateTo?: string }): Promise<OverrideDto[]> {
  await findResource(undefined, tenantId, resourceId);
  const query = ResourceScheduleOverrideModel.query().where({ tenantId, resourceId }).orderBy('date');
  if (range.dateFrom) query.where('date', '>=', range.dateFrom);
  if (range.dateTo) query.where('date', '<=', range.dateTo);
  return (await query).map(overrideDto);
}

export async function createOverride(tenantId: string, resourceId: string, input: OverrideInput): Promise<OverrideDto> {
  assertOverrideTimes(input);
  return ResourceScheduleOverrideModel.transaction(async (trx) => {
    await findResource(trx, tenantId, resourceId, true);
    const row = await ResourceScheduleOverrideModel.query(trx).insertAndFetch({
      tenantId,
      resourceId,
      date: input.date,
      startTime: input.startTime ?? null,
      endTime: input.endTime ?? null,
      reason: input.reason ?? null,
    });
    return overrideDto(row);
  });
}

async function findOverride(trx: Knex.Transaction, tenantId: string, resourceId: string, id: string): Promise<ResourceScheduleOverrideModel> {
  const row = await ResourceScheduleOverrideModel.query(trx).findOne({ id, resourceId, tenantId });
  if (!row) throw errors.notFound('scheduleOverride');
  return row;
}

export async function updateOverride(tenantId: string, resourceId: string, id: string, patch: Partial<OverrideInput>): Promise<OverrideDto> {
  return ResourceScheduleOverrideModel.transaction(async (trx) => {
    await findResource(trx, tenantId, resourceId, true);
    const row = await findOverride(trx, tenantId, resourceId, id);
    const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<OverrideInput>;
    assertOverrideTimes({ startTime: row.startTime, endTime: row.endTime, ...changes });
    return overrideDto(await row.$query(trx).patchAndFetch(changes));
  });
}

export async function deleteOverride(tenantId: string, resourceId: string, id: string): Promise<void> {
  await ResourceScheduleOverrideModel.transaction(async (trx) => {
    await findResource(trx, tenantId, resourceId, true);
    await findOverride(trx, tenantId, resourceId, id);
    await ResourceScheduleOverrideModel.query(trx).deleteById(id);
  });
}
