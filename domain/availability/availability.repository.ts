/**
 * THE loader of everything the availability and placement rules need for one tenant and a range of
 * salon-local dates: resources (staff, rooms, equipment) with skills, weekly schedule, overrides,
 * approved time-off and the active booking segments that block them (a staff member's work phases
 * and buffers, a room's parts; a waitlist hold, a segment without a booking, blocks time like a
 * CONFIRMED booking: docs/rules/waitlist.md#holds), plus the active unassigned items with their
 * staff segments. One statement, so it is one round trip
 * and safe inside a transaction (never several queries in flight on one connection); pass the
 * transaction when called under the booking lock so the reads see what committed before the lock
 * was taken. domain/availability/availability-data.service.ts (loadResourceAvailability) is a view of it.
 */
import type { Db } from '../../db/db-handle';
import { addDays, localDayBoundsUtcMs, type LocalDate, type LocalTime } from '../time/salon-time.rules';
import type {
  BookingStatusValue,
  ExistingBooking,
  ResourceAvailabilityData,
  ResourceType,
  ScheduleOverride,
  TimeOffEntry,
  WeeklyScheduleSlot,
} from './availability.types';
import { mergeIntervals, type Interval } from '../time/interval.rules';
import type { UnassignedItem } from './unassigned.rules';
import { toIso } from '../time/iso';
import { runNamedStatement } from '../../db/named-statement';

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
   * Placement of assigned items only: load just `resourceIds` (and the rooms and equipment suitable
   * for the services) when no unassigned item touches the range (other staff are only needed to
   * place unassigned items).
   */
  onlyListedResources?: boolean;
  /**
   * Default true. false: no unassigned items are read, and no resources are added for their
   * services (a plain read of the chosen resources).
   */
  withUnassigned?: boolean;
  /** Default true. false: `bookings` stay empty (the booking items are not read). */
  withBookings?: boolean;
  /**
   * true: each resource's `bookings` is its busy time, its active items merged into disjoint
   * intervals (no id; status CONFIRMED, as every active item blocks: docs/rules/availability.md#overlap).
   * Free time comes out the same, from far fewer rows: what a read of free time needs. The
   * placement check needs the items themselves (their ids), so it leaves this off.
   */
  busyTimeOnly?: boolean;
}

// ONE round trip (this runs inside the booking transaction, so every round trip counts): the
// active unassigned items' staff segments touching the range, and the resources - chosen ones,
// those that can perform (or, rooms and equipment, are suitable for) a requested service (unless
// onlyListedResources), and those that can perform an unassigned item's service (so the items can
// be placed) - then, for all the picked resources at once, their skills, weekly schedules,
// overrides, approved time-off and active blocking segments in the range, each as one flat JSON
// array of rows tagged with the resource's id, grouped here. One scan per table for the whole salon:
// a subquery per resource and table (the earlier shape) ran 5 x 40 small plans for a salon of 40 and
// cost 4-6 ms a read (docs/performance.md). Segments are found by their time range overlapping the
// range (start < range end AND end > range start, as [) ranges), which the GiST indexes of
// migration 140 answer without reading the history. `bookings` is the resources' blocking segments
// (loaderSql(ITEMS)) or their busy time, each resource's ranges merged by range_agg, in epoch ms
// (loaderSql(BUSY_TIME)).
const loaderSql = (bookings: string) => `
    WITH unassigned AS (
      SELECT s.booking_id, s.booking_item_id, bi.service_id, s.start_time, s.end_time, s.blocks, b.status
        FROM booking_segments s JOIN booking_items bi ON bi.id = s.booking_item_id JOIN bookings b ON b.id = s.booking_id
       WHERE :withUnassigned AND s.tenant_id = :tenantId AND s.is_active AND s.resource_id IS NULL
         AND tstzrange(s.start_time, s.end_time, '[)') && tstzrange(:rangeStart::timestamptz, :rangeEnd::timestamptz, '[)')
    ), picked AS (
      SELECT r.id, r.type, r.name, r.user_id, r.sort_order, r.is_active, r.is_bookable_online FROM resources r
       WHERE r.tenant_id = :tenantId
         AND (r.id = ANY(:resourceIds::uuid[])
              OR r.id IN (SELECT s.resource_id FROM resource_skills s
                           WHERE s.tenant_id = :tenantId
                             AND ((NOT :onlyListed AND s.service_id = ANY(:serviceIds::uuid[]))
                                  OR s.service_id IN (SELECT u.service_id FROM unassigned u)))
              OR (r.type <> 'staff' AND r.id IN (SELECT s.resource_id FROM resource_skills s
                                                 WHERE s.tenant_id = :tenantId AND s.service_id = ANY(:serviceIds::uuid[]))))
    )
    SELECT
      COALESCE((SELECT json_agg(json_build_object('bookingId', u.booking_id, 'itemId', u.booking_item_id, 'serviceId', u.service_id, 'start', u.start_time, 'end', u.end_time, 'blocks', u.blocks, 'status', u.status))
                  FROM unassigned u), '[]') AS unassigned,
      COALESCE((SELECT json_agg(json_build_array(r.id, r.type, r.name, r.user_id, r.sort_order, r.is_active, r.is_bookable_online) ORDER BY r.sort_order, r.name, r.id)
                  FROM picked r), '[]') AS resources,
      COALESCE((SELECT json_agg(json_build_array(s.resource_id, s.service_id))
                  FROM resource_skills s WHERE s.tenant_id = :tenantId AND s.resource_id IN (SELECT id FROM picked)), '[]') AS skills,
      COALESCE((SELECT json_agg(json_build_array(w.resource_id, w.day_of_week, w.start_time, w.end_time, w.is_active) ORDER BY w.day_of_week, w.start_time)
                  FROM resource_schedules w WHERE w.tenant_id = :tenantId AND w.resource_id IN (SELECT id FROM picked)), '[]') AS "weeklySchedules",
      COALESCE((SELECT json_agg(json_build_array(o.resource_id, to_char(o.date, 'YYYY-MM-DD'), o.start_time, o.end_time) ORDER BY o.date)
                  FROM resource_schedule_overrides o
                 WHERE o.tenant_id = :tenantId AND o.resource_id IN (SELECT id FROM picked) AND o.date BETWEEN :firstDate::date AND :lastDate::date), '[]') AS overrides,
      COALESCE((SELECT json_agg(json_build_array(t.resource_id, to_char(t.start_date, 'YYYY-MM-DD'), to_char(t.end_date, 'YYYY-MM-DD'), t.start_time, t.end_time) ORDER BY t.start_date)
                  FROM time_offs t
                 WHERE t.tenant_id = :tenantId AND t.resource_id IN (SELECT id FROM picked) AND t.is_approved
                   AND t.start_date <= :lastDate::date AND t.end_date >= :firstDate::date), '[]') AS "timeOff",
${bookings} AS bookings`;

// [resourceId, id, start ms, end ms, status] per blocking segment
const ITEMS = `
      COALESCE((SELECT json_agg(json_build_array(s.resource_id, COALESCE(s.booking_id, s.waitlist_round_id), (extract(epoch FROM s.start_time) * 1000)::bigint,
                                                 (extract(epoch FROM s.end_time) * 1000)::bigint, COALESCE(b.status, 'CONFIRMED')))
                  FROM booking_segments s LEFT JOIN bookings b ON b.id = s.booking_id
                 WHERE :withBookings AND s.tenant_id = :tenantId AND s.resource_id IN (SELECT id FROM picked) AND s.is_active AND s.blocks
                   AND tstzrange(s.start_time, s.end_time, '[)') && tstzrange(:rangeStart::timestamptz, :rangeEnd::timestamptz, '[)')), '[]')`;

// [resourceId, start ms, end ms] per merged busy interval
const BUSY_TIME = `
      COALESCE((SELECT json_agg(json_build_array(busy.resource_id, (extract(epoch FROM lower(m)) * 1000)::bigint, (extract(epoch FROM upper(m)) * 1000)::bigint))
                  FROM (SELECT s.resource_id, range_agg(tstzrange(s.start_time, s.end_time, '[)')) AS ranges
                          FROM booking_segments s
                         WHERE :withBookings AND s.tenant_id = :tenantId AND s.resource_id IN (SELECT id FROM picked) AND s.is_active AND s.blocks
                           AND tstzrange(s.start_time, s.end_time, '[)') && tstzrange(:rangeStart::timestamptz, :rangeEnd::timestamptz, '[)')
                         GROUP BY s.resource_id) busy, unnest(busy.ranges) m), '[]')`;

const ITEMS_SQL = loaderSql(ITEMS);
const BUSY_TIME_SQL = loaderSql(BUSY_TIME);

export async function loadAvailabilityData(db: Db, opts: LoadOptions): Promise<AvailabilityData> {
  const { tenantId, timezone } = opts;
  // Chains may run past local midnight: include the following date.
  const lastDate = addDays(opts.toDate, 1);
  const firstDate = addDays(opts.fromDate, -1);
  const rangeStart = toIso(new Date(localDayBoundsUtcMs(opts.fromDate, timezone).start));
  const rangeEnd = toIso(new Date(localDayBoundsUtcMs(lastDate, timezone).end));

  // Raw SQL (loaderSql): JSON aggregation of several tables in one statement is beyond a model or the builder.
  const busyTimeOnly = opts.busyTimeOnly ?? false;
  // A named statement (db/named-statement.ts): Postgres parses it once per connection, not on every call.
  const [row] = await runNamedStatement<RawRow>(db, {
    name: busyTimeOnly ? 'availability-loader-busy-time' : 'availability-loader-items',
    sql: busyTimeOnly ? BUSY_TIME_SQL : ITEMS_SQL,
    bindings: {
      tenantId,
      rangeStart,
      rangeEnd,
      firstDate,
      lastDate,
      resourceIds: [...(opts.resourceIds ?? [])],
      serviceIds: [...opts.serviceIds],
      onlyListed: opts.onlyListedResources ?? false,
      withUnassigned: opts.withUnassigned ?? true,
      withBookings: opts.withBookings ?? true,
    },
  });
  return { resources: resourcesOf(row, busyTimeOnly), unassigned: unassignedItemsOf(row.unassigned) };
}

/** The picked resources in their order, each with its rows from the flat arrays. */
function resourcesOf(row: RawRow, busyTimeOnly: boolean): LoadedResource[] {
  const rowsOf = new Map<string, Rows>();
  const resources = row.resources.map(([id, type, name, userId, sortOrder, isActive, isBookableOnline]) => {
    const rows: Rows = { skills: [], weeklySchedule: [], overrides: [], timeOff: [], bookings: [] };
    rowsOf.set(id, rows);
    return { id, type, name, userId, sortOrder, isActive, isBookableOnline, ...rows };
  });
  for (const [resourceId, serviceId] of row.skills) rowsOf.get(resourceId)?.skills.push(serviceId);
  for (const [resourceId, dayOfWeek, startTime, endTime, isActive] of row.weeklySchedules)
    rowsOf.get(resourceId)?.weeklySchedule.push({ dayOfWeek, startTime, endTime, isActive });
  for (const [resourceId, date, startTime, endTime] of row.overrides) rowsOf.get(resourceId)?.overrides.push({ date, startTime, endTime });
  for (const [resourceId, startDate, endDate, startTime, endTime] of row.timeOff)
    rowsOf.get(resourceId)?.timeOff.push({ startDate, endDate, startTime, endTime, isApproved: true });
  if (busyTimeOnly) {
    // every active item blocks: docs/rules/availability.md#overlap
    for (const [resourceId, start, end] of row.bookings as BusyTimeRow[])
      rowsOf.get(resourceId)?.bookings.push({ start: new Date(start), end: new Date(end), status: 'CONFIRMED' });
  } else {
    for (const [resourceId, id, start, end, status] of row.bookings as SegmentRow[])
      rowsOf.get(resourceId)?.bookings.push({ id, start: new Date(start), end: new Date(end), status });
  }
  return resources;
}

/** A resource's rows, filled as the flat arrays are read. */
interface Rows {
  skills: string[];
  weeklySchedule: WeeklyScheduleSlot[];
  overrides: ScheduleOverride[];
  timeOff: TimeOffEntry[];
  bookings: ExistingBooking[];
}

/** An unassigned item's staff segments as one item: its span, and the parts that block (work phases, buffers). */
function unassignedItemsOf(segments: readonly RawUnassigned[]): UnassignedItem[] {
  const byItem = new Map<string, UnassignedItem & { blocks: Interval[] }>();
  for (const u of segments) {
    const start = new Date(u.start);
    const end = new Date(u.end);
    let item = byItem.get(u.itemId);
    if (!item) byItem.set(u.itemId, (item = { bookingId: u.bookingId, serviceId: u.serviceId, start, end, status: u.status, blocks: [] }));
    if (start < item.start) item.start = start;
    if (end > item.end) item.end = end;
    if (u.blocks) item.blocks.push({ start: start.getTime(), end: end.getTime() });
  }
  return [...byItem.values()].map((item) => ({ ...item, blocks: mergeIntervals(item.blocks) }));
}

/** The loader's row: flat arrays, each row led by its resource's id where it belongs to one. */
interface RawRow {
  unassigned: RawUnassigned[];
  resources: [id: string, type: ResourceType, name: string, userId: string | null, sortOrder: number, isActive: boolean, isBookableOnline: boolean][];
  skills: [resourceId: string, serviceId: string][];
  weeklySchedules: [resourceId: string, dayOfWeek: number, startTime: LocalTime, endTime: LocalTime, isActive: boolean][];
  overrides: [resourceId: string, date: LocalDate, startTime: LocalTime | null, endTime: LocalTime | null][];
  timeOff: [resourceId: string, startDate: LocalDate, endDate: LocalDate, startTime: LocalTime | null, endTime: LocalTime | null][];
  bookings: BusyTimeRow[] | SegmentRow[];
}

/** A merged busy interval of a resource: [resourceId, start, end) in epoch ms. */
type BusyTimeRow = [resourceId: string, start: number, end: number];
/** A blocking segment: [resourceId, booking (or waitlist round) id, start ms, end ms, status]. */
type SegmentRow = [resourceId: string, id: string, start: number, end: number, status: BookingStatusValue];

interface RawUnassigned {
  bookingId: string;
  itemId: string;
  serviceId: string;
  blocks: boolean;
  start: string;
  end: string;
  status: BookingStatusValue;
}
