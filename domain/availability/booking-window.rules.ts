/**
 * maxBookingDaysInAdvance (docs/rules/availability.md#booking-window, docs/rules/limits.md): counted in salon-local calendar days from the local date
 * of `now`. A booking may start on any local date up to and including today + N; N = 0 would be
 * today only (the setting's range is 1..365). null disables the limit. Deposits do not shorten it: a
 * booking further ahead than a reservation can be held has its deposit requested later
 * (docs/rules/payments.md#deposits-at-any-distance).
 */
import { errors } from '../errors';
import { addDays, utcToLocalDate, type LocalDate } from '../time/salon-time.rules';

/** The last local date that may be booked, or null when there is no limit. */
export function lastBookableLocalDate(now: Date, timezone: string, maxBookingDaysInAdvance: number | null): LocalDate | null {
  if (maxBookingDaysInAdvance === null) return null;
  return addDays(utcToLocalDate(now, timezone), Math.floor(maxBookingDaysInAdvance));
}

/** True when a local date is within the booking window (past dates are "within"; check them separately). */
export function isDateWithinBookingWindow(date: LocalDate, now: Date, timezone: string, maxBookingDaysInAdvance: number | null): boolean {
  const last = lastBookableLocalDate(now, timezone, maxBookingDaysInAdvance);
  return last === null || date <= last;
}

/** Booking creation: is the booking's start (UTC) on a local date within the window? */
export function isWithinBookingWindow(start: Date, now: Date, timezone: string, maxBookingDaysInAdvance: number | null): boolean {
  return isDateWithinBookingWindow(utcToLocalDate(start, timezone), now, timezone, maxBookingDaysInAdvance);
}

/** 422 DATE_BEYOND_BOOKING_WINDOW; `field` names what the client sent: `date` for availability, `startTime` for a booking. */
export function beyondWindow(last: LocalDate, field: 'date' | 'startTime' = 'date') {
  return errors.unprocessable('DATE_BEYOND_BOOKING_WINDOW', `The salon takes bookings up to ${last} (maxBookingDaysInAdvance)`, [
    { field, message: `must be on or before ${last}` },
  ]);
}
