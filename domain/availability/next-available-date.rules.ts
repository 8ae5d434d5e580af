/**
 * Next available date (docs/rules/availability.md#next-available-date, docs/rules/limits.md): scan fromDate+1, fromDate+2, ... for `maxDaysAhead` days
 * (default 30, capped at 90) and return the first date with at least one slot, else null.
 */
import { addDays, isValidLocalDate, type LocalDate } from '../time/salon-time.rules';
import { firstSlot } from './slots.rules';
import type { AvailabilityInput } from './availability.types';

export const NEXT_AVAILABLE_DEFAULT_DAYS = 30;
export const NEXT_AVAILABLE_MAX_DAYS = 90;

/**
 * Effective scan window: undefined/null/non-finite -> 30; fractions floored; below 1 -> 1;
 * above 90 -> 90. (The API layer should still reject a non-integer with VALIDATION_ERROR.)
 */
export function normalizeMaxDaysAhead(maxDaysAhead?: number | null): number {
  if (maxDaysAhead === undefined || maxDaysAhead === null || !Number.isFinite(maxDaysAhead)) {
    return NEXT_AVAILABLE_DEFAULT_DAYS;
  }
  return Math.min(NEXT_AVAILABLE_MAX_DAYS, Math.max(1, Math.floor(maxDaysAhead)));
}

/**
 * What the per-date callback answers: true = has a slot (stop, return this date), false = keep
 * scanning, 'STOP' = no later date can have one either (e.g. past the booking window).
 */
export type DateAvailabilityAnswer = boolean | 'STOP';

/** Generic scan over a per-date callback (the callback must be pure/deterministic in workflows). */
export function findNextAvailableDate(params: {
  fromDate: LocalDate;
  maxDaysAhead?: number | null;
  hasAvailability: (date: LocalDate) => DateAvailabilityAnswer;
}): LocalDate | null {
  if (!isValidLocalDate(params.fromDate)) throw new RangeError(`Invalid fromDate '${params.fromDate}'`);
  const window = normalizeMaxDaysAhead(params.maxDaysAhead);
  for (let k = 1; k <= window; k++) {
    const date = addDays(params.fromDate, k);
    const answer = params.hasAvailability(date);
    if (answer === 'STOP') return null;
    if (answer) return date;
  }
  return null;
}

/**
 * Same scan over preloaded data: `input` is an AvailabilityInput without `date`, whose resources
 * carry bookings / time-off / overrides for the whole window (fromDate+1 .. fromDate+window). The
 * scan stops with null when a date passes maxBookingDaysInAdvance, and on invalid input.
 */
export function nextAvailableDateFromInput(input: Omit<AvailabilityInput, 'date'>, fromDate: LocalDate, maxDaysAhead?: number | null): LocalDate | null {
  return findNextAvailableDate({
    fromDate,
    maxDaysAhead,
    hasAvailability: (date) => {
      const slot = firstSlot({ ...input, date });
      return slot === 'STOP' ? 'STOP' : slot !== null;
    },
  });
}
