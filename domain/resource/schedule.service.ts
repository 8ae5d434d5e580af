// Weekly schedules and per-date overrides of a resource (docs/rules/catalogue.md#schedules-and-overrides). 'HH:mm' strings are
// validated (format, end after start) and stored exactly as given; they are salon-local and never
// converted. Slots of one resource on one day never overlap: a clash inside the request body or with
// a stored row is 409 SCHEDULE_OVERLAP (inactive rows count too, so re-activating one cannot
// create an overlap). Writes lock the resource row, so concurrent writers cannot race the check.
import type { Db, Transaction } from '../../db/db-handle';
import type { WorkingTimeNotice } from './resource-hooks';
import { isOpenDay, slotProblems, type TimeSlot } from '../tenant/tenant-settings.rules';
import { tenantById } from '../tenant/tenant-context';
import { errors } from '../errors';
import { definedFields } from '../defined-fields';
import { toIso } from '../time/iso';
import { existingResource } from './resource.service';
import * as repo from './schedule.repository';

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

export function scheduleDto(s: repo.ScheduleRow): ScheduleDto {
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

export function overrideDto(o: repo.ScheduleOverrideRow): OverrideDto {
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

/** What a warning says about a written slot: it was saved, but will give no bookable time as the salon is set up. */
export interface ScheduleWarning {
  code: 'SCHEDULE_ON_CLOSED_DAY';
  field: string;
  message: string;
}

/**
 * Where a problem of one slot is named: `schedules[i].endTime` in a list of slots, the slot's own
 * field (`endTime`) when the request is that one slot (`field` null).
 */
function slotField(field: string | null, i: number, inner: string): string {
  if (field !== null) return `${field}[${i}]${inner}`;
  return inner ? inner.slice(1) : 'startTime';
}

/** 400 for malformed or reversed times (per slot), 409 SCHEDULE_OVERLAP when slots of one day overlap. `field` null: the request is one slot. */
export function assertWeekIsValid(slots: (TimeSlot & { dayOfWeek: number })[], field: string | null): void {
  const shapeProblems = slots.flatMap((s, i) => slotProblems([s], 'X').map((p) => ({ ...p, field: slotField(field, i, p.field.slice('X[0]'.length)) })));
  if (shapeProblems.length) throw errors.validation('Request validation failed', shapeProblems);
  for (let day = 0; day <= 6; day++) {
    const daySlots = slots.filter((s) => s.dayOfWeek === day);
    if (slotProblems(daySlots, field ?? 'dayOfWeek').length) {
      throw errors.conflict('SCHEDULE_OVERLAP', `Schedule slots overlap on day ${day}`, [
        { field: field ?? 'dayOfWeek', message: `slots on dayOfWeek ${day} must not overlap` },
      ]);
    }
  }
}

export async function listSchedules(db: Db, tenantId: string, resourceId: string): Promise<ScheduleDto[]> {
  await existingResource(db, tenantId, resourceId);
  return (await repo.weekOf(db, tenantId, resourceId)).map(scheduleDto);
}

/** A changed week or override may give the staff member working time they did not have (docs/rules/waitlist.md#when-time-frees-up). */
function scheduleChanged(
  trx: Transaction,
  tenantId: string,
  resourceId: string,
  waitlist: WorkingTimeNotice,
  when: { weekdays?: number[]; date?: string },
): Promise<void> {
  const dates = when.date ? { from: when.date, to: when.date } : {};
  return waitlist.resourceHooks.workingTimeGrew(
    waitlist.signaller,
    trx,
    { tenantId, resourceId, cause: 'SCHEDULE_CHANGED', weekdays: when.weekdays, ...dates },
    waitlist.now,
  );
}

/**
 * Adds slots (POST /schedules with one slot, `field` null, and /schedules/bulk, `field`
 * 'schedules'). With `replace`, the given slots become the whole week. A slot on a day the salon's
 * business hours close is saved and warned about (docs/rules/catalogue.md#schedules-and-overrides).
 */
export async function addSchedules(
  db: Db,
  tenantId: string,
  resourceId: string,
  input: ScheduleInput[],
  replace: boolean,
  waitlist: WorkingTimeNotice,
  field: string | null = 'schedules',
): Promise<{ schedules: ScheduleDto[]; warnings: ScheduleWarning[] }> {
  return db.transaction(async (trx) => {
    await existingResource(trx, tenantId, resourceId, true);
    assertWeekIsValid(input, field);
    const existing = replace ? [] : await repo.weekOf(trx, tenantId, resourceId);
    assertWeekIsValid([...existing, ...input], field);
    const slots = input.map((s) => ({ dayOfWeek: s.dayOfWeek, startTime: s.startTime, endTime: s.endTime, isActive: s.isActive ?? true }));
    const written = (await repo.writeWeek(trx, tenantId, resourceId, slots, replace)).map(scheduleDto);
    await scheduleChanged(trx, tenantId, resourceId, waitlist, { weekdays: replace ? undefined : [...new Set(slots.map((s) => s.dayOfWeek))] });
    const { businessHours } = (await tenantById(trx, tenantId)).settings;
    const warnings = slots.flatMap((slot, i): ScheduleWarning[] =>
      isOpenDay(businessHours, slot.dayOfWeek)
        ? []
        : [
            {
              code: 'SCHEDULE_ON_CLOSED_DAY',
              field: field === null ? 'dayOfWeek' : `${field}[${i}].dayOfWeek`,
              message: `The salon is closed on day ${slot.dayOfWeek} (its business hours): nobody can book this time until the salon opens that day`,
            },
          ],
    );
    return { schedules: written, warnings };
  });
}

async function existingSchedule(db: Db, tenantId: string, resourceId: string, id: string): Promise<repo.ScheduleRow> {
  const row = await repo.findSchedule(db, tenantId, resourceId, id);
  if (!row) throw errors.notFound('schedule');
  return row;
}

export async function updateSchedule(
  db: Db,
  tenantId: string,
  resourceId: string,
  id: string,
  patch: Partial<ScheduleInput>,
  waitlist: WorkingTimeNotice,
): Promise<ScheduleDto> {
  return db.transaction(async (trx) => {
    await existingResource(trx, tenantId, resourceId, true);
    const row = await existingSchedule(trx, tenantId, resourceId, id);
    const changes = definedFields(patch);
    const next = { dayOfWeek: row.dayOfWeek, startTime: row.startTime, endTime: row.endTime, ...changes };
    assertWeekIsValid([next], null);
    const others = (await repo.weekOf(trx, tenantId, resourceId)).filter((r) => r.id !== id);
    assertWeekIsValid([...others, next], null);
    const updated = scheduleDto(await repo.patchSchedule(trx, id, changes));
    await scheduleChanged(trx, tenantId, resourceId, waitlist, { weekdays: [next.dayOfWeek] });
    return updated;
  });
}

export async function deleteSchedule(db: Db, tenantId: string, resourceId: string, id: string, waitlist: WorkingTimeNotice): Promise<void> {
  await db.transaction(async (trx) => {
    await existingResource(trx, tenantId, resourceId, true);
    const row = await existingSchedule(trx, tenantId, resourceId, id);
    await repo.deleteSchedule(trx, id);
    // an inactive slot removed may be an exception ending; cheap to ask when nobody waits
    await scheduleChanged(trx, tenantId, resourceId, waitlist, { weekdays: [row.dayOfWeek] });
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

export async function listOverrides(db: Db, tenantId: string, resourceId: string, range: { dateFrom?: string; dateTo?: string }): Promise<OverrideDto[]> {
  await existingResource(db, tenantId, resourceId);
  return (await repo.overridesOf(db, tenantId, resourceId, range)).map(overrideDto);
}

export async function createOverride(db: Db, tenantId: string, resourceId: string, input: OverrideInput, waitlist: WorkingTimeNotice): Promise<OverrideDto> {
  assertOverrideTimes(input);
  return db.transaction(async (trx) => {
    await existingResource(trx, tenantId, resourceId, true);
    const row = await repo.insertOverride(trx, tenantId, resourceId, {
      date: input.date,
      startTime: input.startTime ?? null,
      endTime: input.endTime ?? null,
      reason: input.reason ?? null,
    });
    await scheduleChanged(trx, tenantId, resourceId, waitlist, { date: input.date });
    return overrideDto(row);
  });
}

async function existingOverride(db: Db, tenantId: string, resourceId: string, id: string): Promise<repo.ScheduleOverrideRow> {
  const row = await repo.findOverride(db, tenantId, resourceId, id);
  if (!row) throw errors.notFound('scheduleOverride');
  return row;
}

export async function updateOverride(
  db: Db,
  tenantId: string,
  resourceId: string,
  id: string,
  patch: Partial<OverrideInput>,
  waitlist: WorkingTimeNotice,
): Promise<OverrideDto> {
  return db.transaction(async (trx) => {
    await existingResource(trx, tenantId, resourceId, true);
    const row = await existingOverride(trx, tenantId, resourceId, id);
    const changes = definedFields(patch);
    assertOverrideTimes({ startTime: row.startTime, endTime: row.endTime, ...changes });
    const updated = overrideDto(await repo.patchOverride(trx, id, changes));
    for (const date of new Set([row.date, updated.date])) await scheduleChanged(trx, tenantId, resourceId, waitlist, { date });
    return updated;
  });
}

export async function deleteOverride(db: Db, tenantId: string, resourceId: string, id: string, waitlist: WorkingTimeNotice): Promise<void> {
  await db.transaction(async (trx) => {
    await existingResource(trx, tenantId, resourceId, true);
    const row = await existingOverride(trx, tenantId, resourceId, id);
    await repo.deleteOverride(trx, id);
    await scheduleChanged(trx, tenantId, resourceId, waitlist, { date: row.date });
  });
}
