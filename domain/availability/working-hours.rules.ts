/**
 * Working and free time of ONE resource on ONE salon-local date, as normalized UTC intervals.
 *
 *   scheduled = (override for the date, if any, else the weekly schedule for its day of week; a room
 *               or piece of equipment with no active weekly row: the whole day)
 *               INTERSECT tenant business hours for that day of week
 *   working   = scheduled MINUS approved time-off
 *   free      = working MINUS blocking bookings (every status except CANCELLED and NO_SHOW)
 *
 * Rules decided here (documented for the booking service author):
 * - Day of week comes from `dayOfWeek(date)` (noon UTC of the date string; docs/rules/conventions.md#time).
 * - Only `isActive` weekly rows count. A row or business-hours slot whose end is not after its
 *   start (or whose times are malformed) is ignored: overnight slots are not supported. '24:00' is
 *   accepted as an end time.
 * - Business hours: no entry for the day, `isOpen: false`, or no slots => closed that day. Several
 *   entries for the same day are unioned.
 * - Overrides: any override rows for the date REPLACE the weekly schedule for that date (their
 *   windows are unioned). If any override row for the date has a null start or end time, the
 *   resource is off that whole date. Overrides are still intersected with business hours.
 * - Time-off: only `isApproved` rows; it covers every date from startDate to endDate inclusive.
 *   Both times null => the whole local day. Otherwise the window startTime..endTime applies on EACH
 *   covered date (a Mon..Fri 12:00-13:00 entry blocks lunch on five days). A missing start means
 *   from midnight, a missing end means until midnight. To express one continuous absence
 *   (Mon 14:00 .. Wed 12:00) store three rows. A malformed partial window (bad time or end not
 *   after start) blocks the whole covered date (fail closed).
 * - All local times go through salon-time.rules (DST gap shifted forward, overlap = first
 *   occurrence), so on a spring-forward day 01:00-04:00 is 2 real hours and on a fall-back day
 *   01:00-04:00 is 4 real hours. A window lying wholly inside the gap (02:00-02:45 in Oslo) is
 *   shifted forward as a whole (03:00-03:45 CEST); 02:00-03:00 becomes empty.
 */
import {
  addDays,
  dayOfWeek,
  isValidEndTime,
  isValidLocalTime,
  localMinutesToUtcMs,
  parseEndTimeMinutes,
  timeToMinutes,
  type LocalDate,
  type LocalTime,
} from '../time/salon-time.rules';
import { intersectIntervals, mergeIntervals, subtractIntervals, type Interval } from '../time/interval.rules';
import {
  NON_BLOCKING_BOOKING_STATUSES,
  type BookingStatusValue,
  type BusinessHoursDay,
  type ExistingBooking,
  type ResourceAvailabilityData,
} from './availability.types';

/** Local 'HH:mm' window on a date -> UTC interval, or null when malformed / empty. */
export function localWindowToInterval(date: LocalDate, startTime: LocalTime, endTime: LocalTime, timezone: string): Interval | null {
  if (!isValidLocalTime(startTime) || !isValidEndTime(endTime)) return null;
  const s = timeToMinutes(startTime);
  const e = parseEndTimeMinutes(endTime);
  if (e <= s) return null;
  const start = localMinutesToUtcMs(date, s, timezone);
  const end = localMinutesToUtcMs(date, e, timezone);
  return end > start ? { start, end } : null; // e.g. 02:00-03:00 on a spring-forward day is empty
}

function fullDay(date: LocalDate, timezone: string): Interval {
  return {
    start: localMinutesToUtcMs(date, 0, timezone),
    end: localMinutesToUtcMs(addDays(date, 1), 0, timezone),
  };
}

function compact(intervals: Array<Interval | null>): Interval[] {
  return intervals.filter((i): i is Interval => i !== null);
}

/** Business hours of the tenant on a local date, as UTC intervals. */
export function businessHoursIntervals(businessHours: readonly BusinessHoursDay[], date: LocalDate, timezone: string): Interval[] {
  const dow = dayOfWeek(date);
  const out: Array<Interval | null> = [];
  for (const day of businessHours) {
    if (day.dayOfWeek !== dow || !day.isOpen) continue;
    for (const slot of day.slots ?? []) out.push(localWindowToInterval(date, slot.startTime, slot.endTime, timezone));
  }
  return mergeIntervals(compact(out));
}

/**
 * The resource's own schedule on a local date: override if present, else weekly rows. A room or
 * piece of equipment without any active weekly row is there whenever the salon is open (the whole
 * day here, cut to business hours by the caller).
 */
export function scheduleIntervals(resource: ResourceAvailabilityData, date: LocalDate, timezone: string): Interval[] {
  const overrides = resource.overrides.filter((o) => o.date === date);
  if (overrides.length > 0) {
    if (overrides.some((o) => o.startTime === null || o.endTime === null)) return [];
    return mergeIntervals(compact(overrides.map((o) => localWindowToInterval(date, o.startTime!, o.endTime!, timezone))));
  }
  if (resource.type !== 'staff' && !resource.weeklySchedule.some((w) => w.isActive)) return [fullDay(date, timezone)];
  const dow = dayOfWeek(date);
  return mergeIntervals(
    compact(resource.weeklySchedule.filter((w) => w.isActive && w.dayOfWeek === dow).map((w) => localWindowToInterval(date, w.startTime, w.endTime, timezone))),
  );
}

/** Approved time-off of the resource that applies on a local date, as UTC intervals. */
export function timeOffIntervals(resource: ResourceAvailabilityData, date: LocalDate, timezone: string): Interval[] {
  const out: Interval[] = [];
  for (const t of resource.timeOff) {
    if (!t.isApproved || date < t.startDate || date > t.endDate) continue;
    if (t.startTime === null && t.endTime === null) {
      out.push(fullDay(date, timezone));
      continue;
    }
    const window = localWindowToInterval(date, t.startTime ?? '00:00', t.endTime ?? '24:00', timezone);
    out.push(window ?? fullDay(date, timezone));
  }
  return mergeIntervals(out);
}

/** True when a booking with this status occupies its resource (not CANCELLED / NO_SHOW). */
export function isBlockingStatus(status: BookingStatusValue): boolean {
  return !NON_BLOCKING_BOOKING_STATUSES.includes(status);
}

/** Blocking bookings as UTC intervals, optionally limited to those overlapping `within`. */
export function bookingIntervals(bookings: readonly ExistingBooking[], opts: { within?: Interval; excludeBookingId?: string } = {}): Interval[] {
  const out: Interval[] = [];
  for (const b of bookings) {
    if (!isBlockingStatus(b.status)) continue;
    if (opts.excludeBookingId !== undefined && b.id === opts.excludeBookingId) continue;
    const start = b.start.getTime();
    const end = b.end.getTime();
    if (opts.within && !(start < opts.within.end && end > opts.within.start)) continue;
    out.push({ start, end });
  }
  return out;
}

export interface ResourceDayTime {
  /** schedule (or override) INTERSECT business hours */
  scheduled: Interval[];
  /** scheduled MINUS approved time-off */
  working: Interval[];
  /** working MINUS blocking bookings (equal to working when bookings are ignored) */
  free: Interval[];
}

/**
 * Scheduled, working and free time of one resource over one local date, or over `days`
 * consecutive dates starting at `date` (adjacent days are merged, so a shift 22:00-24:00 followed
 * by 00:00-02:00 is continuous). Intervals are normalized (sorted, disjoint).
 */
export function resourceDayTime(
  resource: ResourceAvailabilityData,
  date: LocalDate,
  timezone: string,
  businessHours: readonly BusinessHoursDay[],
  opts: { days?: number; ignoreBookings?: boolean; excludeBookingId?: string } = {},
): ResourceDayTime {
  const days = Math.max(1, opts.days ?? 1);
  const scheduled: Interval[] = [];
  const working: Interval[] = [];
  for (let k = 0; k < days; k++) {
    const d = addDays(date, k);
    const sched = intersectIntervals(scheduleIntervals(resource, d, timezone), businessHoursIntervals(businessHours, d, timezone));
    scheduled.push(...sched);
    working.push(...subtractIntervals(sched, timeOffIntervals(resource, d, timezone)));
  }
  const mergedWorking = mergeIntervals(working);
  if (opts.ignoreBookings || mergedWorking.length === 0) {
    return { scheduled: mergeIntervals(scheduled), working: mergedWorking, free: mergedWorking };
  }
  const span = { start: mergedWorking[0].start, end: mergedWorking[mergedWorking.length - 1].end };
  const busy = bookingIntervals(resource.bookings, { within: span, excludeBookingId: opts.excludeBookingId });
  return { scheduled: mergeIntervals(scheduled), working: mergedWorking, free: subtractIntervals(mergedWorking, busy) };
}

/** Working intervals (schedule/override INTERSECT business hours MINUS approved time-off) on a local date. */
export function workingIntervals(
  resource: ResourceAvailabilityData,
  date: LocalDate,
  timezone: string,
  businessHours: readonly BusinessHoursDay[],
): Interval[] {
  return resourceDayTime(resource, date, timezone, businessHours, { ignoreBookings: true }).working;
}

/** Free intervals (working MINUS blocking bookings) on a local date. */
export function freeIntervals(resource: ResourceAvailabilityData, date: LocalDate, timezone: string, businessHours: readonly BusinessHoursDay[]): Interval[] {
  return resourceDayTime(resource, date, timezone, businessHours).free;
}
