/**
 * Slot computation for one salon-local date (docs/rules/availability.md#slots). Pure: `now` is an input.
 *
 * Candidate starts are aligned to LOCAL clock multiples of the slot interval (with 15: :00, :15,
 * :30, :45 local time; with 60: whole local hours, also in Asia/Kolkata where that is :30 UTC). A
 * resource free from 10:10 therefore gets its first 15-minute slot at 10:15: salons expect a tidy
 * grid. Candidates are walked in UTC, so both occurrences of a repeated fall-back hour are offered
 * and a spring-forward gap offers none.
 *
 * A start is offered when, for every item in order (item i+1 starts when item i ends), at least one
 * qualified resource (or the chosen one) has [itemStart, itemEnd) entirely inside its free time.
 * Starts before `now` are dropped; a local date before today's gives no slots; a date after
 * today + maxBookingDaysInAdvance is rejected with DATE_BEYOND_BOOKING_WINDOW.
 */
import {
  isValidLocalDate,
  isValidTimeZone,
  localDayBoundsUtcMs,
  utcOffsetMinutes,
  utcToLocal,
  utcToLocalDate,
  type LocalDate,
} from '../time/salon-time.rules';
import { fitsWithin, type Interval } from '../time/interval.rules';
import { lastBookableLocalDate } from './booking-window.rules';
import { resourceDayTime } from './working-hours.rules';
import {
  DEFAULT_SLOT_INTERVAL_MINUTES,
  type AvailabilityInput,
  type AvailabilityResult,
  type AvailableSlot,
  type ResourceAvailabilityData,
  type SlotItemAssignment,
} from './availability.types';

const MINUTE_MS = 60_000;
const ALLOWED_INTERVALS = [15, 30, 60];
/** Longest chain accepted (sum of item durations), 24 hours. */
export const MAX_CHAIN_MINUTES = 1440;

/**
 * Strict skill match (docs/rules/catalogue.md#skills): active, has the service among its skills, and, when `onlineOnly`
 * (public portal), bookable online.
 */
export function isQualified(resource: ResourceAvailabilityData, serviceId: string, onlineOnly = false): boolean {
  return resource.isActive && resource.skills.includes(serviceId) && (!onlineOnly || resource.isBookableOnline);
}

/** Resources that may perform a service, in input order (use it for the public staff list, too). */
export function qualifiedResources(
  resources: readonly ResourceAvailabilityData[],
  serviceId: string,
  onlineOnly = false,
): ResourceAvailabilityData[] {
  return resources.filter((r) => isQualified(r, serviceId, onlineOnly));
}

/**
 * Aligned candidate starts (UTC ms) for a local date: every instant in the local day whose local
 * wall time is a multiple of `intervalMinutes` after local midnight.
 */
export function candidateStarts(date: LocalDate, timezone: string, intervalMinutes: number): number[] {
  const { start: dayStart, end: dayEnd } = localDayBoundsUtcMs(date, timezone);
  const step = intervalMinutes * MINUTE_MS;
  const alignUp = (t: number): number => {
    // Local minutes since the epoch; round up to the grid, then map back with the same offset.
    let off = utcOffsetMinutes(t, timezone);
    let local = Math.round(t / MINUTE_MS) + off;
    const r = ((local % intervalMinutes) + intervalMinutes) % intervalMinutes;
    if (r === 0) return t;
    let aligned = (local + intervalMinutes - r - off) * MINUTE_MS;
    const off2 = utcOffsetMinutes(aligned, timezone);
    if (off2 !== off) {
      // crossed an offset change while rounding up: realign once in the new offset
      off = off2;
      local = Math.round(aligned / MINUTE_MS) + off;
      const r2 = ((local % intervalMinutes) + intervalMinutes) % intervalMinutes;
      aligned = r2 === 0 ? aligned : (local + intervalMinutes - r2 - off) * MINUTE_MS;
    }
    return aligned;
  };
  const out: number[] = [];
  for (let t = alignUp(dayStart); t < dayEnd; t = alignUp(t + step)) out.push(t);
  return out;
}

function fail(code: Extract<AvailabilityResult, { ok: false }>['error']['code'], message: string, extra = {}): AvailabilityResult {
  return { ok: false, error: { code, message, ...extra } };
}

/**
 * Available slots for `input.date`. See ./index.ts for the contract. Returns a typed error for
 * invalid input and for dates beyond the booking window; never throws for bad data rows.
 */
export function computeAvailability(input: AvailabilityInput): AvailabilityResult {
  const { timezone, now, date } = input;
  if (!isValidTimeZone(timezone)) return fail('INVALID_TIMEZONE', `Unknown IANA time zone '${timezone}'`);
  if (!isValidLocalDate(date)) return fail('INVALID_DATE', `Invalid date '${date}', expected YYYY-MM-DD`);
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) return fail('INVALID_DATE', '`now` is not a valid Date');
  const interval = input.slotIntervalMinutes ?? DEFAULT_SLOT_INTERVAL_MINUTES;
  if (!ALLOWED_INTERVALS.includes(interval)) {
    return fail('INVALID_SLOT_INTERVAL', `slotIntervalMinutes must be one of ${ALLOWED_INTERVALS.join(', ')}`);
  }
  if (input.items.length === 0) return fail('INVALID_ITEMS', 'at least one item is required');
  let chainMinutes = 0;
  for (const item of input.items) {
    if (!Number.isInteger(item.durationMinutes) || item.durationMinutes <= 0) {
      return fail('INVALID_ITEMS', `durationMinutes must be a positive integer (service ${item.serviceId})`);
    }
    chainMinutes += item.durationMinutes;
  }
  if (chainMinutes > MAX_CHAIN_MINUTES) return fail('INVALID_ITEMS', `items last more than ${MAX_CHAIN_MINUTES} minutes`);

  const today = utcToLocalDate(now, timezone);
  const last = lastBookableLocalDate(now, timezone, input.maxBookingDaysInAdvance);
  if (last !== null && date > last) {
    return fail('DATE_BEYOND_BOOKING_WINDOW', `date ${date} is after the last bookable date ${last}`, {
      lastBookableDate: last,
    });
  }
  const ok = (slots: AvailableSlot[], working = false): AvailabilityResult => ({ ok: true, date, timezone, slots, working });
  if (date < today) return ok([]);

  // Candidate resources per item (strict skill match; the chosen one only if it qualifies).
  const onlineOnly = input.onlineOnly ?? false;
  const candidates: ResourceAvailabilityData[][] = input.items.map((item) =>
    input.resources.filter((r) => (item.resourceId == null || r.id === item.resourceId) && isQualified(r, item.serviceId, onlineOnly)),
  );
  if (candidates.some((c) => c.length === 0)) return ok([]);

  // Free time per resource, computed once. The chain may run past local midnight, so include as
  // many following dates as it can reach.
  const days = 1 + Math.ceil(chainMinutes / 1440);
  const ignoreBookings = input.allowDoubleBooking ?? false;
  const free = new Map<string, Interval[]>();
  const freeOf = (r: ResourceAvailabilityData): Interval[] => {
    let f = free.get(r.id);
    if (!f) {
      f = resourceDayTime(r, date, timezone, input.businessHours, { days, ignoreBookings }).free;
      free.set(r.id, f);
    }
    return f;
  };
  for (const list of candidates) for (const r of list) freeOf(r);
  // closed or full: whether someone who does the services works on the date at all (bookings aside)
  const working = candidates.some((list) => list.some((r) => resourceDayTime(r, date, timezone, input.businessHours, { ignoreBookings: true }).working.length > 0));

  const nowMs = now.getTime();
  const slots: AvailableSlot[] = [];
  for (const t of candidateStarts(date, timezone, interval)) {
    if (t < nowMs) continue;
    const items: SlotItemAssignment[] = [];
    let cursor = t;
    let previous: string | null = null;
    for (let i = 0; i < input.items.length; i++) {
      const item = input.items[i];
      const end = cursor + item.durationMinutes * MINUTE_MS;
      const freeIds: string[] = [];
      for (const r of candidates[i]) if (fitsWithin(free.get(r.id)!, cursor, end)) freeIds.push(r.id);
      if (freeIds.length === 0) break;
      const resourceId: string = previous !== null && freeIds.includes(previous) ? previous : freeIds[0];
      items.push({ serviceId: item.serviceId, start: new Date(cursor), end: new Date(end), resourceId, freeResourceIds: freeIds });
      previous = resourceId;
      cursor = end;
    }
    if (items.length !== input.items.length) continue;
    slots.push({ start: new Date(t), end: new Date(cursor), localTime: utcToLocal(t, timezone).time, items });
  }
  return ok(slots, working);
}
