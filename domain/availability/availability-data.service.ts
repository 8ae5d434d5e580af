/**
 * Read side for the availability engine, by resource selection: a view of the ONE availability
 * loader (domain/availability/availability.repository.ts, a single statement, so it is safe to pass a
 * transaction).
 *
 *   loadResourceAvailability(
 *     db: Db,                                // pass the booking transaction to read under its locks
 *     tenantId: string,
 *     select: { resourceIds: string[] }      // exactly these (of this tenant; unknown ids are skipped)
 *           | { serviceIds: string[] },      // every resource with a skill for ANY of these services
 *     range: { dateFrom: 'YYYY-MM-DD', dateTo: 'YYYY-MM-DD' },  // salon-local, inclusive
 *     options?: { activeOnly?: boolean }     // default true: inactive resources are left out
 *   ): Promise<ResourceAvailabilityData[]>   // domain/availability/availability.types.ts
 *
 * Each entry has id, isActive, isBookableOnline, skills (service ids), weeklySchedule (all rows,
 * inactive ones flagged; the rules ignore them), overrides with date in range, APPROVED time-off
 * overlapping the range, and `bookings: []` — callers that need bookings (and unassigned items)
 * use loadAvailabilityData itself. Order: sortOrder, then name, then id (the rules suggest the
 * first free resource in input order). Widen `range` by a day when the caller needs the next date
 * too (see ./index.ts).
 *
 * resourceIdForUser(userId) (STAFF scoping, "own resource") lives in domain/resource/resource.service.ts.
 */
import type { Db } from '../../db/db-handle';
import type { ResourceAvailabilityData } from './availability.types';
import { loadAvailabilityData } from './availability.repository';

export type ResourceSelection = { resourceIds: string[] } | { serviceIds: string[] };

export interface DateRange {
  dateFrom: string;
  dateTo: string;
}

export async function loadResourceAvailability(
  db: Db,
  tenantId: string,
  select: ResourceSelection,
  range: DateRange,
  options: { activeOnly?: boolean } = {},
): Promise<ResourceAvailabilityData[]> {
  const byIds = 'resourceIds' in select;
  if ((byIds ? select.resourceIds : select.serviceIds).length === 0) return [];
  const data = await loadAvailabilityData(db, {
    tenantId,
    timezone: 'UTC', // only places booking items in time, and those are not read here
    serviceIds: byIds ? [] : select.serviceIds,
    resourceIds: byIds ? select.resourceIds : [],
    onlyListedResources: byIds,
    fromDate: range.dateFrom,
    toDate: range.dateTo,
    withUnassigned: false,
    withBookings: false,
  });
  // The loader reads a day either side of the range (chains past midnight); this view keeps to it.
  const { dateFrom, dateTo } = range;
  return data.resources
    .filter((r) => r.isActive || options.activeOnly === false)
    .map((r) => ({
      id: r.id,
      type: r.type,
      isActive: r.isActive,
      isBookableOnline: r.isBookableOnline,
      skills: r.skills,
      weeklySchedule: r.weeklySchedule,
      overrides: r.overrides.filter((o) => o.date >= dateFrom && o.date <= dateTo),
      timeOff: r.timeOff.filter((t) => t.startDate <= dateTo && t.endDate >= dateFrom),
      bookings: [],
    }));
}
