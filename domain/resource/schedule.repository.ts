// Data access of weekly schedules and per-date overrides of resources: tenant-scoped, plain rows
// out; the caller passes the pool or its transaction.
import type { Db } from '../../db/db-handle';
import { ResourceScheduleModel } from '../../db/models/resource-schedule.model';
import { ResourceScheduleOverrideModel } from '../../db/models/resource-schedule-override.model';
import { plain, plainOrUndefined, type Row } from '../../db/plain';

export type ScheduleRow = Row<ResourceScheduleModel>;
export type ScheduleOverrideRow = Row<ResourceScheduleOverrideModel>;
export type ScheduleFields = Pick<ScheduleRow, 'dayOfWeek' | 'startTime' | 'endTime' | 'isActive'>;
export type OverrideFields = Pick<ScheduleOverrideRow, 'date' | 'startTime' | 'endTime' | 'reason'>;

/** The resource's whole week (inactive slots too), by day, then start. */
export async function weekOf(db: Db, tenantId: string, resourceId: string): Promise<ScheduleRow[]> {
  return (await ResourceScheduleModel.query(db).where({ tenantId, resourceId }).orderBy('dayOfWeek').orderBy('startTime')).map(plain);
}

export async function findSchedule(db: Db, tenantId: string, resourceId: string, id: string): Promise<ScheduleRow | undefined> {
  return plainOrUndefined(await ResourceScheduleModel.query(db).findOne({ id, resourceId, tenantId }));
}

/** Inserts slots (and, with `replace`, deletes the rest of the week first); returns them by day, then start. */
export async function writeWeek(db: Db, tenantId: string, resourceId: string, slots: ScheduleFields[], replace: boolean): Promise<ScheduleRow[]> {
  if (replace) await ResourceScheduleModel.query(db).where({ resourceId, tenantId }).delete();
  if (slots.length === 0) return [];
  const rows = await ResourceScheduleModel.query(db)
    .insert(slots.map((s) => ({ resourceId, tenantId, ...s })))
    .returning('*');
  return rows.map(plain).sort((a, b) => a.dayOfWeek - b.dayOfWeek || a.startTime.localeCompare(b.startTime));
}

/** Every listed resource's week becomes exactly `slots` (one statement each for delete and insert). */
export async function replaceWeeks(db: Db, tenantId: string, resourceIds: string[], slots: ScheduleFields[]): Promise<void> {
  await ResourceScheduleModel.query(db).where({ tenantId }).whereIn('resourceId', resourceIds).delete();
  if (slots.length === 0 || resourceIds.length === 0) return;
  await ResourceScheduleModel.query(db).insert(resourceIds.flatMap((resourceId) => slots.map((slot) => ({ resourceId, tenantId, ...slot }))));
}

export async function patchSchedule(db: Db, id: string, changes: Partial<ScheduleFields>): Promise<ScheduleRow> {
  return plain(await ResourceScheduleModel.query(db).patchAndFetchById(id, changes));
}

export async function deleteSchedule(db: Db, id: string): Promise<void> {
  await ResourceScheduleModel.query(db).deleteById(id);
}

export async function overridesOf(db: Db, tenantId: string, resourceId: string, range: { dateFrom?: string; dateTo?: string }): Promise<ScheduleOverrideRow[]> {
  const query = ResourceScheduleOverrideModel.query(db).where({ tenantId, resourceId }).orderBy('date');
  if (range.dateFrom) query.where('date', '>=', range.dateFrom);
  if (range.dateTo) query.where('date', '<=', range.dateTo);
  return (await query).map(plain);
}

export async function findOverride(db: Db, tenantId: string, resourceId: string, id: string): Promise<ScheduleOverrideRow | undefined> {
  return plainOrUndefined(await ResourceScheduleOverrideModel.query(db).findOne({ id, resourceId, tenantId }));
}

export async function insertOverride(db: Db, tenantId: string, resourceId: string, fields: OverrideFields): Promise<ScheduleOverrideRow> {
  return plain(await ResourceScheduleOverrideModel.query(db).insertAndFetch({ tenantId, resourceId, ...fields }));
}

export async function patchOverride(db: Db, id: string, changes: Partial<OverrideFields>): Promise<ScheduleOverrideRow> {
  return plain(await ResourceScheduleOverrideModel.query(db).patchAndFetchById(id, changes));
}

export async function deleteOverride(db: Db, id: string): Promise<void> {
  await ResourceScheduleOverrideModel.query(db).deleteById(id);
}
