// The waitlist's rules as pure functions over intervals (docs/rules/waitlist.md): what an entry may
// ask for, which entries a freed interval can go to, and whether an offered slot suits an entry.
// Salon-local dates and times are converted by salon-time.rules only.
import type { ErrorDetail } from '../errors';
import { contains, type Interval } from '../time/interval.rules';
import { addDays, daysBetween, localDayBoundsUtcMs, timeToMinutes, utcToLocal, type LocalDate, type LocalTime } from '../time/salon-time.rules';
import type { WaitlistMode } from './waitlist-events.rules';

/** The longest date range of one entry, from its first to its last date (docs/rules/waitlist.md#joining). */
export const WAITLIST_MAX_RANGE_DAYS = 60;
/** `settings.waitlistHoldMinutes` (docs/rules/waitlist.md#offers). */
/** How often an entry's link is sent again on joins with its phone, over its life (docs/rules/waitlist.md#joining). */
export const WAITLIST_LINK_RESENDS = 3;

export const WAITLIST_HOLD_MINUTES = { default: 15, min: 1, max: 120 } as const;
export const DEFAULT_WAITLIST_MODE: WaitlistMode = 'FIRST_IN_LINE';

export interface EntryWish {
  fromDate: LocalDate;
  toDate: LocalDate;
  earliestTime: LocalTime | null;
  latestTime: LocalTime | null;
}

/** What is wrong with an entry's dates and times (today: the salon-local date now). */
export function entryWishProblems(wish: EntryWish, today: LocalDate): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (wish.fromDate < today) problems.push({ field: 'fromDate', message: `must be today (${today}) or later` });
  if (wish.toDate < wish.fromDate) problems.push({ field: 'toDate', message: 'must be on or after fromDate' });
  else if (daysBetween(wish.fromDate, wish.toDate) > WAITLIST_MAX_RANGE_DAYS) {
    problems.push({ field: 'toDate', message: `must be at most ${WAITLIST_MAX_RANGE_DAYS} days after fromDate` });
  }
  if (wish.earliestTime && wish.latestTime && timeToMinutes(wish.latestTime) <= timeToMinutes(wish.earliestTime)) {
    problems.push({ field: 'latestTime', message: 'must be after earliestTime' });
  }
  return problems;
}

/** Epoch ms at which the entry ends by itself: the end of its last date in the salon's time zone. */
export function entryEndsAtMs(toDate: LocalDate, timezone: string): number {
  return localDayBoundsUtcMs(toDate, timezone).end;
}

/** The freed time a round offers: one staff member's interval, or any staff member's (null). */
export interface FreedTime extends Interval {
  resourceId: string | null;
}

export interface WaitingEntry extends EntryWish {
  id: string;
  serviceIds: string[];
  resourceId: string | null;
}

/**
 * The entries that may be offered `freed`, first in line first (the input's order): the staff
 * member matches (or either side is "any"), the date range touches the freed dates, and their
 * services together fit in the freed interval. A concrete slot is still to be found for each.
 */
export function candidateEntries<E extends WaitingEntry>(
  entries: readonly E[],
  freed: FreedTime,
  timezone: string,
  durationOf: (serviceId: string) => number | undefined,
): E[] {
  const first = utcToLocal(freed.start, timezone).date;
  const last = utcToLocal(freed.end - 1, timezone).date;
  const minutes = (freed.end - freed.start) / 60_000;
  return entries.filter((e) => {
    if (e.resourceId && freed.resourceId && e.resourceId !== freed.resourceId) return false;
    if (e.toDate < first || e.fromDate > last) return false;
    const durations = e.serviceIds.map(durationOf);
    if (durations.some((d) => d === undefined)) return false; // a service no longer offered
    return (durations as number[]).reduce((sum, d) => sum + d, 0) <= minutes;
  });
}

/** The salon-local dates an interval touches (usually one). */
export function localDatesOf(interval: Interval, timezone: string): LocalDate[] {
  const first = utcToLocal(interval.start, timezone).date;
  const last = utcToLocal(interval.end - 1, timezone).date;
  const dates: LocalDate[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) dates.push(d);
  return dates;
}

/**
 * A slot suits an entry when it lies inside the freed interval, on one of the entry's dates, starts
 * at or after its earliest time and ends by its latest time (salon-local).
 */
export function slotSuitsEntry(slot: Interval, entry: EntryWish, freed: Interval, timezone: string): boolean {
  if (!contains(freed, slot)) return false;
  const start = utcToLocal(slot.start, timezone);
  const end = utcToLocal(slot.end, timezone);
  if (start.date < entry.fromDate || start.date > entry.toDate) return false;
  if (entry.earliestTime && timeToMinutes(start.time) < timeToMinutes(entry.earliestTime)) return false;
  if (entry.latestTime && (end.date !== start.date || timeToMinutes(end.time) > timeToMinutes(entry.latestTime))) return false;
  return true;
}

export interface SlotItem {
  serviceId: string;
  resourceId: string;
  start: number;
  end: number;
}
