/**
 * Loads everything the availability and placement rules need for one tenant and a range of
 * salon-local dates (no loader existed in domain/resource when this was written). Plain knex
 * queries, each filtered by tenant; pass the transaction when called under the booking lock so the
 * reads see what committed before the lock was taken.
 */
import type { Knex } from 'knex';
import { addDays, localDayBoundsUtcMs, type LocalDate } from '../time/salon-time.rules';
import type { BookingStatusValue, ResourceAvailabilityData } from './availability.types';
import type { UnassignedItem } from './unassigned.rules';

type Db = Knex | Knex.Transaction;

export interface LoadedResource extends ResourceAvailabilityData {
  name: string;
  userId: string | null;
  sortOrder: number;
}

export interface AvailabilityData {
  /** sorted by sortOrder, name, id (the rules suggest resources in input order) */
  resources: LoadedResource[];
  /** active unassigned booking items touching the range */
  unassigned: UnassignedItem[];
}

export interface LoadOptions {
  tenantId: string;
  timezone: string;
  /** resources with a skill for any of these services are loaded */
  serviceIds: readonly string[];
  /** and these, whatever their skills (so the placement check can say RESOURCE_NOT_QUALIFIED) */
  resourceIds?: readonly string[];
  fromDate: LocalDate;
  toDate: LocalDate;
  /**
   * Placement of assigned items only: load just `resourceIds` when no unassigned item touches the
   * range (others are only needed to place unassigned items).
   */
  onlyListedResources?: boolean;
}

/** Awaits knex builders (lazy thenables); one after another inside a transaction (one connection). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function sequence(db: Db, queries: readonly PromiseLike<any>[] | readonly any[]): Promise<any[]> {
  // Outside a transaction the pool runs them in parallel.
  if (!(db as Knex.Transaction).isTransaction) return Promise.all(queries);
  const out: unknown[] = [];
  for (const q of queries) out.push(await q);
  return out;
}

const iso = (d: Date | string): string => (typeof d === 'string' ? d : d.toISOString());

export async function loadAvailabilityData(db: Db, opts: LoadOptions): Promise<AvailabilityData> {
  const { tenantId, timezone } = opts;
  // Chains may run past local midnight: include the following date.
  const lastDate = addDays(opts.toDate, 1);
  const firstDate = addDays(opts.fromDate, -1);
  const rangeStart = iso(new Date(localDayBoundsUtcMs(opts.fromDate, timezone).start));
  const rangeEnd = iso(new Date(localDayBoundsUtcMs(lastDate, timezone).end));

  // Raw results keep their column names (the snake-case mapper only maps the top level): aliases are camelCase.
  // Two round trips: the unassigned items, and every resource that can perform a requested service
  // (or an unassigned item's service, so the items can be placed) with its skills, schedule,
  // overrides, approved time-off and active booking items aggregated as JSON.
  const unassignedQuery = db.raw(
    `SELECT bi.booking_id AS "bookingId", bi.service_id AS "serviceId", bi.start_time AS "startTime", bi.end_time AS "endTime", b.status
       FROM booking_items bi JOIN bookings b ON b.id = bi.booking_id
      WHERE bi.tenant_id = ? AND bi.is_active AND bi.resource_id IS NULL AND bi.start_time < ? AND bi.end_time > ?`,
    [tenantId, rangeEnd, rangeStart],
  );
  const selectSql = `SELECT r.id, r.name, r.user_id AS "userId", r.sort_order AS "sortOrder", r.is_active AS "isActive", r.is_bookable_online AS "isBookableOnline",
       COALESCE((SELECT json_agg(s.service_id) FROM resource_skills s WHERE s.resource_id = r.id), '[]') AS skills,
       COALESCE((SELECT json_agg(json_build_object('dayOfWeek', x.day_of_week, 'startTime', x.start_time, 'endTime', x.end_time, 'isActive', x.is_active))
                   FROM resource_schedules x WHERE x.resource_id = r.id), '[]') AS "weeklySchedule",
       COALESCE((SELECT json_agg(json_build_object('date', to_char(o.date, 'YYYY-MM-DD'), 'startTime', o.start_time, 'endTime', o.end_time))
                   FROM resource_schedule_overrides o WHERE o.resource_id = r.id AND o.date BETWEEN ?::date AND ?::date), '[]') AS overrides,
       COALESCE((SELECT json_agg(json_build_object('startDate', to_char(t.start_date, 'YYYY-MM-DD'), 'endDate', to_char(t.end_date, 'YYYY-MM-DD'),
                                                   'startTime', t.start_time, 'endTime', t.end_time, 'isApproved', t.is_approved))
                   FROM time_offs t WHERE t.resource_id = r.id AND t.is_approved AND t.start_date <= ?::date AND t.end_date >= ?::date), '[]') AS "timeOff",
       COALESCE((SELECT json_agg(json_build_object('id', bi.booking_id, 'start', bi.start_time, 'end', bi.end_time, 'status', b.status))
                   FROM booking_items bi JOIN bookings b ON b.id = bi.booking_id
                  WHERE bi.resource_id = r.id AND bi.tenant_id = r.tenant_id AND bi.is_active AND bi.start_time < ? AND bi.end_time > ?), '[]') AS bookings
       FROM resources r`;
  const headBindings = [firstDate, lastDate, lastDate, firstDate, rangeEnd, rangeStart];
  const resourcesSql = (listedOnly: boolean) =>
    listedOnly
      ? `${selectSql} WHERE r.tenant_id = ? AND r.id = ANY(?::uuid[]) ORDER BY r.sort_order, r.name, r.id`
      : `${selectSql}
      WHERE r.tenant_id = ?
        AND (r.id IN (SELECT s.resource_id FROM resource_skills s
                       WHERE s.tenant_id = ?
                         AND (s.service_id = ANY(?::uuid[])
                              OR s.service_id IN (SELECT u.service_id FROM booking_items u
                                                   WHERE u.tenant_id = ? AND u.is_active AND u.resource_id IS NULL AND u.start_time < ? AND u.end_time > ?)))
             OR r.id = ANY(?::uuid[]))
      ORDER BY r.sort_order, r.name, r.id`;
  const resourceIds = [...(opts.resourceIds ?? [])];
  const resourcesBindings = (listedOnly: boolean) =>
    listedOnly
      ? [...headBindings, tenantId, resourceIds]
      : [...headBindings, tenantId, tenantId, [...opts.serviceIds], tenantId, rangeEnd, rangeStart, resourceIds];
  const resourcesQuery = db.raw(resourcesSql(false), resourcesBindings(false));
  let unassignedResult: { rows: unknown[] };
  let resourcesResult: { rows: unknown[] };
  if (opts.onlyListedResources) {
    unassignedResult = await unassignedQuery;
    resourcesResult = await (unassignedResult.rows.length ? resourcesQuery : db.raw(resourcesSql(true), resourcesBindings(true)));
  } else {
    [unassignedResult, resourcesResult] = await sequence(db, [unassignedQuery, resourcesQuery]);
  }
  type RawResource = {
    id: string;
    name: string;
    userId: string | null;
    sortOrder: number;
    isActive: boolean;
    isBookableOnline: boolean;
    skills: string[];
    weeklySchedule: LoadedResource['weeklySchedule'];
    overrides: LoadedResource['overrides'];
    timeOff: LoadedResource['timeOff'];
    bookings: { id: string; start: string; end: string; status: BookingStatusValue }[];
  };
  const resources: LoadedResource[] = (resourcesResult.rows as RawResource[]).map((r) => ({
    id: r.id,
    name: r.name,
    userId: r.userId,
    sortOrder: r.sortOrder,
    isActive: r.isActive,
    isBookableOnline: r.isBookableOnline,
    skills: r.skills,
    weeklySchedule: r.weeklySchedule,
    overrides: r.overrides,
    timeOff: r.timeOff,
    bookings: r.bookings.map((b) => ({ id: b.id, start: new Date(b.start), end: new Date(b.end), status: b.status })),
  }));
  const unassigned = unassignedResult.rows as { bookingId: string; serviceId: string; startTime: Date; endTime: Date; status: BookingStatusValue }[];
  return {
    resources,
    unassigned: unassigned.map((u) => ({
      bookingId: u.bookingId,
      serviceId: u.serviceId,
      start: new Date(u.startTime),
      end: new Date(u.endTime),
      status: u.status,
    })),
  };
}
