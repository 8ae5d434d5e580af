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
import { addDays, localDayBoundsUtcMs, type LocalDate } from '../time/salon-time.rules';
import type { BookingStatusValue, ResourceAvailabilityData, ResourceType } from './availability.types';
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
// be placed) - each with skills, weekly schedule, overrides, approved time-off and its active
// blocking segments in the range, aggregated as JSON. Segments are found by their time range
// overlapping the range (start < range end AND end > range start, as [) ranges), which the GiST
// indexes of migration 140 answer without reading the history. Schedules and time-off are matched
// by tenant and resource, the leading columns of their indexes. `bookings` is each resource's
// blocking segments (loaderSql(ITEMS)) or its busy time, their ranges merged by range_agg, as
// [start, end] in epoch ms (loaderSql(BUSY_TIME)).
const loaderSql = (bookings: string) => `
    WITH unassigned AS (
      SELECT s.booking_id, s.booking_item_id, bi.service_id, s.start_time, s.end_time, s.blocks, b.status
        FROM booking_segments s JOIN booking_items bi ON bi.id = s.booking_item_id JOIN bookings b ON b.id = s.booking_id
       WHERE :withUnassigned AND s.tenant_id = :tenantId AND s.is_active AND s.resource_id IS NULL
         AND tstzrange(s.start_time, s.end_time, '[)') && tstzrange(:rangeStart::timestamptz, :rangeEnd::timestamptz, '[)')
    ), picked AS (
      SELECT r.* FROM resources r
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
      COALESCE((SELECT json_agg(x ORDER BY x."sortOrder", x.name, x.id) FROM (
        SELECT r.id, r.type, r.name, r.user_id AS "userId", r.sort_order AS "sortOrder", r.is_active AS "isActive", r.is_bookable_online AS "isBookableOnline",
          COALESCE((SELECT json_agg(s.service_id) FROM resource_skills s WHERE s.resource_id = r.id), '[]') AS skills,
          COALESCE((SELECT json_agg(json_build_object('dayOfWeek', w.day_of_week, 'startTime', w.start_time, 'endTime', w.end_time, 'isActive', w.is_active)
                             ORDER BY w.day_of_week, w.start_time)
                      FROM resource_schedules w WHERE w.tenant_id = r.tenant_id AND w.resource_id = r.id), '[]') AS "weeklySchedule",
          COALESCE((SELECT json_agg(json_build_object('date', to_char(o.date, 'YYYY-MM-DD'), 'startTime', o.start_time, 'endTime', o.end_time) ORDER BY o.date)
                      FROM resource_schedule_overrides o WHERE o.resource_id = r.id AND o.date BETWEEN :firstDate::date AND :lastDate::date), '[]') AS overrides,
          COALESCE((SELECT json_agg(json_build_object('startDate', to_char(t.start_date, 'YYYY-MM-DD'), 'endDate', to_char(t.end_date, 'YYYY-MM-DD'),
                                                      'startTime', t.start_time, 'endTime', t.end_time, 'isApproved', t.is_approved) ORDER BY t.start_date)
                      FROM time_offs t WHERE t.tenant_id = r.tenant_id AND t.resource_id = r.id AND t.is_approved AND t.start_date <= :lastDate::date AND t.end_date >= :firstDate::date), '[]') AS "timeOff",
${bookings} AS bookings
        FROM picked r) x), '[]') AS resources`;

const ITEMS = `
          COALESCE((SELECT json_agg(json_build_object('id', COALESCE(s.booking_id, s.waitlist_round_id), 'start', s.start_time, 'end', s.end_time, 'status', COALESCE(b.status, 'CONFIRMED')))
                      FROM booking_segments s LEFT JOIN bookings b ON b.id = s.booking_id
                     WHERE :withBookings AND s.resource_id = r.id AND s.tenant_id = r.tenant_id AND s.is_active AND s.blocks
                       AND tstzrange(s.start_time, s.end_time, '[)') && tstzrange(:rangeStart::timestamptz, :rangeEnd::timestamptz, '[)')), '[]')`;

const BUSY_TIME = `
          COALESCE((SELECT json_agg(json_build_array((extract(epoch FROM lower(m)) * 1000)::bigint, (extract(epoch FROM upper(m)) * 1000)::bigint))
                      FROM unnest((SELECT range_agg(tstzrange(s.start_time, s.end_time, '[)'))
                                     FROM booking_segments s
                                    WHERE :withBookings AND s.resource_id = r.id AND s.tenant_id = r.tenant_id AND s.is_active AND s.blocks
                                      AND tstzrange(s.start_time, s.end_time, '[)') && tstzrange(:rangeStart::timestamptz, :rangeEnd::timestamptz, '[)'))) m), '[]')`;

const ITEMS_SQL = loaderSql(ITEMS);
const BUSY_TIME_SQL = loaderSql(BUSY_TIME);

export async function loadAvailabilityData(db: Db, opts: LoadOptions): Promise<AvailabilityData> {
  const { tenantId, timezone } = opts;
  // Chains may run past local midnight: include the following date.
  const lastDate = addDays(opts.toDate, 1);
  const firstDate = addDays(opts.fromDate, -1);
  const rangeStart = toIso(new Date(localDayBoundsUtcMs(opts.fromDate, timezone).start));
  const rangeEnd = toIso(new Date(localDayBoundsUtcMs(lastDate, timezone).end));

  // Raw SQL (loaderSql): the per-resource JSON aggregation in one statement is beyond a model or the builder.
  const busyTimeOnly = opts.busyTimeOnly ?? false;
  const sql = busyTimeOnly ? BUSY_TIME_SQL : ITEMS_SQL;
  // A named statement (db/named-statement.ts): Postgres parses it once per connection, not on every call.
  const [row] = await runNamedStatement<{ unassigned: RawUnassigned[]; resources: RawResource[] }>(db, {
    name: busyTimeOnly ? 'availability-loader-busy-time' : 'availability-loader-items',
    sql,
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
  const resources: LoadedResource[] = row.resources.map((r) => ({
    id: r.id,
    type: r.type,
    name: r.name,
    userId: r.userId,
    sortOrder: r.sortOrder,
    isActive: r.isActive,
    isBookableOnline: r.isBookableOnline,
    skills: r.skills,
    weeklySchedule: r.weeklySchedule,
    overrides: r.overrides,
    timeOff: r.timeOff,
    bookings: busyTimeOnly
      ? (r.bookings as unknown as BusyTime[]).map(([start, end]) => ({ start: new Date(start), end: new Date(end), status: 'CONFIRMED' as const }))
      : r.bookings.map((b) => ({ id: b.id, start: new Date(b.start), end: new Date(b.end), status: b.status })),
  }));
  return { resources, unassigned: unassignedItemsOf(row.unassigned) };
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

/** A merged busy interval: [start, end) in epoch ms. */
type BusyTime = [number, number];

interface RawUnassigned {
  bookingId: string;
  itemId: string;
  serviceId: string;
  blocks: boolean;
  start: string;
  end: string;
  status: BookingStatusValue;
}

interface RawResource {
  id: string;
  type: ResourceType;
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
}
