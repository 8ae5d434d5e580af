/**
 * Slot computation for one salon-local date (docs/rules/availability.md#slots). Pure: `now` is an input.
 *
 * Candidate starts are aligned to LOCAL clock multiples of the slot interval (with 15: :00, :15,
 * :30, :45 local time; with 60: whole local hours, also in Asia/Kolkata where that is :30 UTC). A
 * resource free from 10:10 therefore gets its first 15-minute slot at 10:15: salons expect a tidy
 * grid. Candidates are walked in UTC, so both occurrences of a repeated fall-back hour are offered
 * and a spring-forward gap offers none.
 *
 * A start is offered when, for every item in order (item i+1 starts when item i ends), the visit
 * fits (visit.rules.ts): a qualified staff member (or the chosen one) works over the item's buffers
 * and phases and is free in those that block, and a suitable room or piece of equipment is free
 * for each of its requirements.
 * Starts before `now` are dropped; a local date before today's gives no slots; a date after
 * today + maxBookingDaysInAdvance is rejected with DATE_BEYOND_BOOKING_WINDOW.
 */
import { isValidLocalDate, isValidTimeZone, localDayBoundsUtcMs, utcOffsetMinutes, utcToLocal, utcToLocalDate, type LocalDate } from '../time/salon-time.rules';
import { lastBookableLocalDate } from './booking-window.rules';
import { workingIntervals } from './working-hours.rules';
import { phaseMinutes } from '../catalogue/service-shape.rules';
import {
  candidatesFor,
  capacityDays,
  capacityOf,
  everyPartHasCandidates,
  fitPlanAt,
  planVisit,
  shapeOfItem,
  visitExtent,
  type Capacity,
  type ItemCandidates,
  type VisitService,
} from './visit.rules';
import {
  DEFAULT_SLOT_INTERVAL_MINUTES,
  type AvailabilityError,
  type AvailabilityInput,
  type AvailabilityResult,
  type AvailableSlot,
  type ResourceAvailabilityData,
} from './availability.types';

const MINUTE_MS = 60_000;
const ALLOWED_INTERVALS = [15, 30, 60];
/** Longest chain accepted (sum of item durations), 24 hours. */
export const MAX_CHAIN_MINUTES = 1440;

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

/**
 * Whether `start` lies on the salon-local grid of `intervalMinutes` (with 15: :00, :15, :30, :45 local
 * time, whole seconds), as every start candidateStarts offers does (docs/rules/availability.md#slots).
 */
export function isOnSlotGrid(start: Date, timezone: string, intervalMinutes: number): boolean {
  const t = start.getTime();
  if (t % MINUTE_MS !== 0) return false;
  const local = t / MINUTE_MS + utcOffsetMinutes(t, timezone);
  return ((local % intervalMinutes) + intervalMinutes) % intervalMinutes === 0;
}

/**
 * Available slots for `input.date`. See ./index.ts for the contract. Returns a typed error for
 * invalid input and for dates beyond the booking window; never throws for bad data rows.
 */
export function computeAvailability(input: AvailabilityInput): AvailabilityResult {
  const checked = checkInput(input);
  if ('error' in checked) return { ok: false, error: checked.error };
  const { timezone, now, date } = input;
  const ok = (slots: AvailableSlot[], working = false): AvailabilityResult => ({ ok: true, date, timezone, slots, working });
  if (date < utcToLocalDate(now, timezone)) return ok([]);
  const plan = dayPlanOf(input, checked.services);
  return ok(slotsOn(plan, date, now, Infinity), isWorkingDay(plan, input, date));
}

/**
 * Closed or full: whether, for every service asked for, a staff member who may do it works on the
 * date for long enough still ahead of `now` to do it (schedule, opening hours, time off; bookings
 * aside) and so does a suitable room or piece of equipment for each of its requirements. False: the
 * day is closed for this request, or its bookable time has passed (today after closing is over,
 * never full: docs/rules/availability.md#slots); true with no slots: the day is full.
 */
function isWorkingDay(plan: DayPlan, input: AvailabilityInput, date: LocalDate): boolean {
  const now = input.now.getTime();
  const aheadFor = (minutes: number) => (r: ResourceAvailabilityData) =>
    workingIntervals(r, date, plan.timezone, input.businessHours).some((i) => i.end - Math.max(i.start, now) >= Math.max(minutes, 1) * MINUTE_MS);
  return plan.candidates.every((c, i) => {
    const minutes = plan.services[i]?.shape.phases.reduce((sum, p) => sum + p.minutes, 0) ?? 1;
    return c.staff.some(aheadFor(minutes)) && c.requirements.every((req) => req.resources.some(aheadFor(1)));
  });
}

/**
 * The first slot of `input.date` (the scan stops there), null when there is none, 'STOP' when the
 * input is invalid or the date lies past the booking window (no later date can have one either).
 */
export function firstSlot(input: AvailabilityInput): AvailableSlot | null | 'STOP' {
  const checked = checkInput(input);
  if ('error' in checked) return 'STOP';
  if (input.date < utcToLocalDate(input.now, input.timezone)) return null;
  return slotsOn(dayPlanOf(input, checked.services), input.date, input.now, 1)[0] ?? null;
}

/** A request's services and candidates, and the capacity to fit them in, for the slots of one date. */
interface DayPlan {
  services: VisitService[];
  candidates: ItemCandidates[];
  capacity: Capacity;
  timezone: string;
  interval: number;
}

/** The services and candidates of a checked request, with the capacity covering visits that start on `input.date`. */
function dayPlanOf(input: AvailabilityInput, services: VisitService[]): DayPlan {
  const extent = visitExtent(services);
  const { fromDate, days } = capacityDays(input.date, extent.minutes + extent.bufferAfter, extent.bufferBefore);
  return {
    services,
    candidates: candidatesFor(input.resources, services, input.onlineOnly ?? false),
    capacity: capacityOf(input.resources, fromDate, input.timezone, input.businessHours, {
      days,
      ignoreBookings: input.allowDoubleBooking ?? false,
      excludeBookingId: input.excludeBookingId,
    }),
    timezone: input.timezone,
    interval: input.slotIntervalMinutes ?? DEFAULT_SLOT_INTERVAL_MINUTES,
  };
}

/** Every start on the date's grid, at or after `now`, at which the whole visit fits (at most `limit` of them). */
function slotsOn(plan: DayPlan, date: LocalDate, now: Date, limit: number): AvailableSlot[] {
  if (!everyPartHasCandidates(plan.candidates)) return [];
  const visit = planVisit(plan.services);
  const nowMs = now.getTime();
  const slots: AvailableSlot[] = [];
  for (const t of candidateStarts(date, plan.timezone, plan.interval)) {
    if (slots.length >= limit) break;
    if (t < nowMs) continue;
    const fits = fitPlanAt(plan.capacity, visit, plan.candidates, t);
    if (!fits) continue;
    slots.push({
      start: new Date(t),
      end: new Date(fits[fits.length - 1].end),
      localTime: utcToLocal(t, plan.timezone).time,
      items: fits.map((f) => ({
        serviceId: f.serviceId,
        start: new Date(f.start),
        end: new Date(f.end),
        resourceId: f.resourceId,
        freeResourceIds: f.freeResourceIds,
        requirements: f.requirements,
        get parts() {
          return f.parts;
        },
      })),
    });
  }
  return slots;
}

/** The input's errors, or its services as the engine lays them out. */
function checkInput(input: AvailabilityInput): { services: VisitService[] } | { error: AvailabilityError } {
  const fail = (code: AvailabilityError['code'], message: string, extra: Partial<AvailabilityError> = {}) => ({ error: { code, message, ...extra } });
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
    if (item.shape && phaseMinutes(item.shape.phases) !== item.durationMinutes) {
      return fail('INVALID_ITEMS', `the phases of service ${item.serviceId} do not add up to its durationMinutes`);
    }
    chainMinutes += item.durationMinutes;
  }
  if (chainMinutes > MAX_CHAIN_MINUTES) return fail('INVALID_ITEMS', `items last more than ${MAX_CHAIN_MINUTES} minutes`);
  const last = lastBookableLocalDate(now, timezone, input.maxBookingDaysInAdvance);
  if (last !== null && date > last) {
    return fail('DATE_BEYOND_BOOKING_WINDOW', `date ${date} is after the last bookable date ${last}`, { lastBookableDate: last });
  }
  return { services: input.items.map((i) => ({ serviceId: i.serviceId, shape: shapeOfItem(i), resourceId: i.resourceId ?? null })) };
}
