/**
 * GET /schedule (docs/rules/booking.md#the-days-schedule): a salon-local day as a calendar draws
 * it - a row per staff member and per room or piece of equipment, each with its blocks (booking,
 * status, customer, service, segment kind, phase, times), the unassigned staff blocks and the
 * waitlist's holds. STAFF see their own row, and elsewhere only the blocks of bookings they may see
 * (docs/rules/auth.md#staff-scoping). The salon's business hours that day, and each row's working
 * time and time-off, say what a calendar shades as closed (docs/rules/front-desk.md#the-day).
 */
import type { DbPool } from '../../db/db-handle';
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { isValidLocalDate, localDayBoundsUtcMs } from '../time/salon-time.rules';
import { toIso } from '../time/iso';
import { resourcesOfSalon } from '../resource/resource.repository';
import type { ResourceType, SegmentKind } from '../availability/availability.types';
import { segmentsBetween, type ScheduleSegmentRow } from './booking-schedule.repository';
import type { BookingStatus } from './booking-status.rules';
import type { Actor } from './booking.types';
import { waitingFor, type WaitingFor } from './booking-waiting.rules';
import { loadResourceAvailability } from '../availability/availability-data.service';
import { businessHoursIntervals, resourceDayTime, timeOffIntervals } from '../availability/working-hours.rules';
import type { Interval } from '../time/interval.rules';

export interface ScheduleBlockDto {
  bookingId: string | null;
  /** a waitlist hold's round (no booking) */
  waitlistRoundId: string | null;
  status: BookingStatus | null;
  /** when and how the customer promised to come; null: not (yet), or a hold */
  promisedAt: string | null;
  promisedVia: 'LINK' | 'SMS' | 'STAFF' | null;
  /** @deprecated released names of promisedAt and promisedVia (docs/api/changelog.md: kept until 2027-06-01) */
  confirmedAt: string | null;
  confirmedVia: 'LINK' | 'SMS' | 'STAFF' | null;
  customer: { id: string | null; name: string | null; phone: string | null } | null;
  /** the booking's notes, for the staff member who serves it */
  notes: string | null;
  serviceId: string | null;
  serviceName: string | null;
  kind: SegmentKind;
  phaseIndex: number | null;
  startTime: string;
  endTime: string;
  /** the block's booking as a whole; null for a hold */
  booking: {
    startTime: string;
    endTime: string;
    resourceId: string | null;
    version: number;
    source: 'PHONE' | 'ADMIN' | 'WALK_IN' | 'ONLINE';
    depositStatus: string | null;
    waitingFor: WaitingFor;
  } | null;
}

export interface TimeRangeDto {
  start: string;
  end: string;
}

export interface ScheduleRowDto {
  resourceId: string;
  name: string;
  type: ResourceType;
  blocks: ScheduleBlockDto[];
  /** schedule or override, within business hours, less approved time-off */
  working: TimeRangeDto[];
  timeOff: TimeRangeDto[];
}

export interface DayScheduleDto {
  date: string;
  timezone: string;
  /** the salon's business hours that day */
  open: TimeRangeDto[];
  staff: ScheduleRowDto[];
  resources: ScheduleRowDto[];
  /** the staff blocks of unassigned bookings (any qualified staff member) */
  unassigned: ScheduleBlockDto[];
}

function blockDto(g: ScheduleSegmentRow): ScheduleBlockDto {
  return {
    bookingId: g.bookingId,
    waitlistRoundId: g.waitlistRoundId,
    status: g.status,
    promisedAt: g.promisedAt ? toIso(g.promisedAt) : null,
    promisedVia: g.promisedVia ?? null,
    confirmedAt: g.promisedAt ? toIso(g.promisedAt) : null,
    confirmedVia: g.promisedVia ?? null,
    customer: g.bookingId ? { id: g.customerId, name: g.customerName, phone: g.customerPhone } : null,
    notes: g.bookingId ? g.notes : null,
    serviceId: g.serviceId,
    serviceName: g.serviceName,
    kind: g.kind,
    phaseIndex: g.phaseIndex,
    startTime: toIso(g.startTime),
    endTime: toIso(g.endTime),
    booking:
      g.bookingId && g.status
        ? {
            startTime: toIso(g.bookingStartTime!),
            endTime: toIso(g.bookingEndTime!),
            resourceId: g.bookingResourceId,
            version: g.bookingVersion!,
            source: g.bookingSource!,
            depositStatus: g.depositStatus,
            waitingFor: waitingFor({ status: g.status, paymentMode: g.paymentMode ?? 'IN_PERSON', depositStatus: g.depositStatus }),
          }
        : null,
  };
}

const ranges = (intervals: Interval[]): TimeRangeDto[] => intervals.map((i) => ({ start: toIso(new Date(i.start)), end: toIso(new Date(i.end)) }));

/** May this STAFF member see the segment's booking (their own, one of its items theirs, or unassigned)? Holds carry no booking. */
function visibleTo(own: string | null, g: ScheduleSegmentRow): boolean {
  if (!g.bookingId) return true;
  if (g.bookingResourceId === null) return true;
  return own !== null && (g.bookingResourceId === own || (g.itemResourceIds ?? []).includes(own));
}

/** The pool, not a transaction: the resources and the segments are read in parallel. */
export async function daySchedule(db: DbPool, tenant: TenantContext, actor: Actor, date: string): Promise<DayScheduleDto> {
  if (!isValidLocalDate(date)) throw errors.validation('Request validation failed', [{ field: 'date', message: 'must be a valid YYYY-MM-DD date' }]);
  const tz = tenant.settings.timezone;
  const day = localDayBoundsUtcMs(date, tz);
  const [resources, segments] = await Promise.all([resourcesOfSalon(db, tenant.id), segmentsBetween(db, tenant.id, new Date(day.start), new Date(day.end))]);
  const hours = tenant.settings.businessHours;
  const times = new Map(
    (await loadResourceAvailability(db, tenant.id, { resourceIds: resources.map((r) => r.id) }, { dateFrom: date, dateTo: date }, { activeOnly: false })).map(
      (r) => [r.id, { working: ranges(resourceDayTime(r, date, tz, hours, { ignoreBookings: true }).working), timeOff: ranges(timeOffIntervals(r, date, tz)) }],
    ),
  );
  const staffScoped = actor.role === 'STAFF';
  const shown = staffScoped ? segments.filter((g) => visibleTo(actor.resourceId, g)) : segments;
  const byResource = new Map<string, ScheduleBlockDto[]>();
  const unassigned: ScheduleBlockDto[] = [];
  for (const g of shown) {
    if (g.resourceId === null) unassigned.push(blockDto(g));
    else byResource.set(g.resourceId, [...(byResource.get(g.resourceId) ?? []), blockDto(g)]);
  }
  // every active resource gets a row, an inactive one only with blocks on the day
  const rows = resources
    .filter((r) => r.isActive || byResource.has(r.id))
    .map((r): ScheduleRowDto => ({
      resourceId: r.id,
      name: r.name,
      type: r.type as ResourceType,
      blocks: byResource.get(r.id) ?? [],
      working: times.get(r.id)?.working ?? [],
      timeOff: times.get(r.id)?.timeOff ?? [],
    }));
  const staff = rows.filter((r) => r.type === 'staff' && (!staffScoped || r.resourceId === actor.resourceId));
  return { date, timezone: tz, open: ranges(businessHoursIntervals(hours, date, tz)), staff, resources: rows.filter((r) => r.type !== 'staff'), unassigned };
}
