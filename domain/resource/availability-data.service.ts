/**
 * Read side for the availability engine: everything availability needs about resources, in four
 * queries (resources+skills, weekly schedules, overrides in range, approved time-off in range).
 *
 *   loadResourceAvailability(
 *     db: Knex | Knex.Transaction,           // pass the booking transaction to read under its locks
 *     tenantId: string,
 *     select: { resourceIds: string[] }      // exactly these (of this tenant; unknown ids are skipped)
 *           | { serviceIds: string[] },      // every resource with a skill for ANY of these services
 *     range: { dateFrom: 'YYYY-MM-DD', dateTo: 'YYYY-MM-DD' },  // salon-local, inclusive
 *     options?: { activeOnly?: boolean }     // default true: inactive resources are left out
 *   ): Promise<ResourceAvailabilityData[]>   // domain/availability/availability.types.ts
 *
 * Each entry has id, isActive, isBookableOnline, skills (service ids), weeklySchedule (all rows,
 * inactive ones flagged; the rules ignore them), overrides with date in range, APPROVED time-off
 * overlapping the range, and `bookings: []` — the booking service fills `bookings` itself (item
 * times of this resource touching the range). Order: sortOrder, then name, then id (the rules
 * suggest the first free resource in input order). Widen `range` by a day when the caller needs
 * the next date too (see domain/availability/index.ts).
 *
 * resourceIdForUser(userId) (STAFF scoping, "own resource") lives in ./resource.service.ts.
 */
import type { Knex } from 'knex';
import type { ResourceAvailabilityData } from '../availability/availability.types';

export type ResourceSelection = { resourceIds: string[] } | { serviceIds: string[] };

export interface DateRange {
  dateFrom: string;
  dateTo: string;
}

export async function loadResourceAvailability(
  db: Knex | Knex.Transaction,
  tenantId: string,
  select: ResourceSelection,
  range: DateRange,
  options: { activeOnly?: boolean } = {},
): Promise<ResourceAvailabilityData[]> {
  const query = db('resources').select('id', 'isActive', 'isBookableOnline').where({ tenantId });
  if ('resourceIds' in select) {
    if (select.resourceIds.length === 0) return [];
    query.whereIn('id', select.resourceIds);
  } else {
    if (select.serviceIds.length === 0) return [];
    query.whereIn('id', db('resourceSkills').select('resourceId').where({ tenantId }).whereIn('serviceId', select.serviceIds));
  }
  if (options.activeOnly ?? true) query.where({ isActive: true });
  const resources: { id: string; isActive: boolean; isBookableOnline: boolean }[] = await query.orderBy('sortOrder').orderBy('name').orderBy('id');
  if (resources.length === 0) return [];
  const ids = resources.map((r) => r.id);

  const [skills, schedules, overrides, timeOffs] = await Promise.all([
    db('resourceSkills').select('resourceId', 'serviceId').where({ tenantId }).whereIn('resourceId', ids),
    db('resourceSchedules')
      .select('resourceId', 'dayOfWeek', 'startTime', 'endTime', 'isActive')
      .where({ tenantId })
      .whereIn('resourceId', ids)
      .orderBy('dayOfWeek')
      .orderBy('startTime'),
    db('resourceScheduleOverrides')
      .select('resourceId', 'date', 'startTime', 'endTime')
      .where({ tenantId })
      .whereIn('resourceId', ids)
      .whereBetween('date', [range.dateFrom, range.dateTo])
      .orderBy('date'),
    db('timeOffs')
      .select('resourceId', 'startDate', 'endDate', 'startTime', 'endTime', 'isApproved')
      .where({ tenantId, isApproved: true })
      .whereIn('resourceId', ids)
      .where('startDate', '<=', range.dateTo)
      .where('endDate', '>=', range.dateFrom)
      .orderBy('startDate'),
  ]);

  const byResource = <T extends { resourceId: string }>(rows: T[]) => {
    const map = new Map<string, Omit<T, 'resourceId'>[]>();
    for (const { resourceId, ...rest } of rows) {
      const list = map.get(resourceId) ?? [];
      list.push(rest);
      map.set(resourceId, list);
    }
    return map;
  };
  const skillMap = byResource(skills as { resourceId: string; serviceId: string }[]);
  const scheduleMap = byResource(schedules as { resourceId: string; dayOfWeek: number; startTime: string; endTime: string; isActive: boolean }[]);
  const overrideMap = byResource(overrides as { resourceId: string; date: string; startTime: string | null; endTime: string | null }[]);
  const timeOffMap = byResource(
    timeOffs as { resourceId: string; startDate: string; endDate: string; startTime: string | null; endTime: string | null; isApproved: boolean }[],
  );

  return resources.map((r) => ({
    id: r.id,
    isActive: r.isActive,
    isBookableOnline: r.isBookableOnline,
    skills: (skillMap.get(r.id) ?? []).map((s) => s.serviceId),
    weeklySchedule: scheduleMap.get(r.id) ?? [],
    overrides: overrideMap.get(r.id) ?? [],
    timeOff: timeOffMap.get(r.id) ?? [],
    bookings: [],
  }));
}
