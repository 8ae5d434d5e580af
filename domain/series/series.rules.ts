// Standing appointments (docs/rules/series.md): when each occurrence is planned, when it enters the
// salon's booking window, whether the series still has it, and which free start is nearest.
// Pure: the services, the activities and the series workflow import it.
import { addDays, daysBetween, localDayBoundsUtcMs, localMinutesToUtcMs, utcToLocal, utcToLocalDate, type LocalDate } from '../time/salon-time.rules';

/** Weeks between occurrences (docs/rules/limits.md). */
export const SERIES_INTERVAL_WEEKS = { min: 1, max: 26 } as const;
/** Occurrences of a series that ends after a count, the first booking included. */
export const SERIES_OCCURRENCE_COUNT = { min: 2, max: 52 } as const;
/** A series that ends on a date ends at most this many days after its first booking. */
export const SERIES_UNTIL_MAX_DAYS = 730;
/** `settings.seriesToleranceDays`: how far (in salon-local days, either way) an occurrence may move. */
export const SERIES_TOLERANCE_DAYS = { min: 0, max: 7, default: 2 } as const;
/** How many upcoming dates a series shows (its DTO's nextDates). */
export const SERIES_NEXT_DATES = 5;

export type SeriesStatus = 'ACTIVE' | 'ENDED' | 'FINISHED';
/** Why a series ended when not by hand: the salon or the platform cancelled the booking it was made from (docs/rules/series.md#changing-cancelling-ending). */
export type SeriesEndReason = 'FIRST_BOOKING_CANCELLED';
export type OccurrenceStatus = 'BOOKED' | 'MOVED' | 'SKIPPED' | 'CANCELLED';

/** Why an occurrence moved or was skipped. */
export type OccurrenceReason =
  /** the planned time was not free (taken, or the staff member away): the nearest free time was booked */
  | 'NOT_FREE'
  /** nothing free with the same staff member within the tolerance */
  | 'NO_FREE_TIME'
  /** the planned time had already passed when the series was made or changed: nobody is told */
  | 'PASSED'
  /** cancelled in advance by the salon or the customer */
  | 'CANCELLED_IN_ADVANCE'
  // or the error code with which booking refused it (SERVICE_NOT_FOUND, RESOURCE_NOT_QUALIFIED, ...)
  | (string & {});

/** What plans the occurrences: occurrence k > anchorIndex is at anchorStart + (k - anchorIndex) × intervalWeeks weeks. */
export interface SeriesPlan {
  intervalWeeks: number;
  anchorIndex: number;
  anchorStart: Date;
  occurrenceCount: number | null;
  /** salon-local, inclusive */
  untilDate: LocalDate | null;
}

/**
 * The planned start of occurrence `index`: the anchor's salon-local date plus whole weeks, at the
 * anchor's salon-local time of day (so a series at 10:00 stays at 10:00 across a DST change).
 */
export function plannedStartOf(plan: SeriesPlan, index: number, timezone: string): Date {
  if (index <= plan.anchorIndex) return plan.anchorStart;
  const local = utcToLocal(plan.anchorStart, timezone);
  const date = addDays(local.date, (index - plan.anchorIndex) * plan.intervalWeeks * 7);
  const seconds = plan.anchorStart.getUTCSeconds() * 1000 + plan.anchorStart.getUTCMilliseconds();
  return new Date(localMinutesToUtcMs(date, local.minutesOfDay, timezone) + seconds);
}

/** Does the series still have occurrence `index` (planned at `planned`)? */
export function isInSeries(plan: SeriesPlan, index: number, planned: Date, timezone: string): boolean {
  if (plan.occurrenceCount !== null) return index < plan.occurrenceCount;
  return plan.untilDate !== null && utcToLocalDate(planned, timezone) <= plan.untilDate;
}

/**
 * When an occurrence enters the salon's booking window (docs/rules/availability.md#booking-window):
 * the start of the salon-local day `maxBookingDaysInAdvance` days before its date.
 */
export function bookableFrom(planned: Date, timezone: string, maxBookingDaysInAdvance: number): number {
  return localDayBoundsUtcMs(addDays(utcToLocalDate(planned, timezone), -Math.floor(maxBookingDaysInAdvance)), timezone).start;
}

/** The salon-local dates an occurrence may move to: its own, then one day later and earlier, and so on. */
export function toleranceDates(planned: Date, timezone: string, toleranceDays: number): LocalDate[] {
  const day = utcToLocalDate(planned, timezone);
  const dates = [day];
  for (let d = 1; d <= toleranceDays; d++) dates.push(addDays(day, d), addDays(day, -d));
  return dates;
}

/**
 * The free start nearest to the planned one, as a customer with a standing time means it: the
 * nearest day first, then the nearest time of day on it, the earlier of two as near (a 10:00 that is
 * taken becomes 09:00 or 11:00 that day; a day away becomes 10:00 the day before or after). Null when
 * there is none.
 */
export function nearestStart(starts: readonly Date[], target: Date, timezone: string): Date | null {
  const wanted = utcToLocal(target, timezone);
  const key = (start: Date): [number, number, number] => {
    const local = utcToLocal(start, timezone);
    return [Math.abs(daysBetween(wanted.date, local.date)), Math.abs(local.minutesOfDay - wanted.minutesOfDay), start.getTime()];
  };
  let best: { start: Date; key: [number, number, number] } | null = null;
  for (const start of starts) {
    const k = key(start);
    if (!best || k[0] < best.key[0] || (k[0] === best.key[0] && (k[1] < best.key[1] || (k[1] === best.key[1] && k[2] < best.key[2])))) best = { start, key: k };
  }
  return best?.start ?? null;
}

/** The series' tolerance from the salon's settings (older settings without it: the default). */
export function toleranceDaysOf(settings: { seriesToleranceDays?: number }): number {
  return settings.seriesToleranceDays ?? SERIES_TOLERANCE_DAYS.default;
}
