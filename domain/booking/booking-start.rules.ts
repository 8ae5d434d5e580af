/**
 * Where a booking may start, checked before it is placed: not past the booking window
 * (docs/rules/availability.md#booking-window), and for the customer not already passed
 * (docs/rules/booking.md#bookings-in-the-past) and on the salon's slot grid
 * (docs/rules/availability.md#slots). A new booking and a move check the same. Pure.
 */
import { errors } from '../errors';
import { beyondWindow, lastBookableLocalDate } from '../availability/booking-window.rules';
import { utcToLocalDate } from '../time/salon-time.rules';
import { isOnSlotGrid } from '../availability/slots.rules';
import type { TenantContext } from '../tenant/tenant-context';

/** A start past the booking window (salon-local last bookable date): 422 DATE_BEYOND_BOOKING_WINDOW. */
export function assertWithinWindow(tenant: TenantContext, start: Date, now: Date): void {
  const s = tenant.settings;
  const lastDate = lastBookableLocalDate(now, s.timezone, s.maxBookingDaysInAdvance);
  if (lastDate !== null && utcToLocalDate(start, s.timezone) > lastDate) throw beyondWindow(lastDate, 'startTime');
}

/** A customer's start that has already passed: 422 BOOKING_IN_PAST (the salon may record a past visit: booking-past.rules.ts). */
export function assertNotPassed(start: Date, now: Date): void {
  if (start.getTime() < now.getTime())
    throw errors.unprocessable('BOOKING_IN_PAST', 'The chosen time has already passed', [{ field: 'startTime', message: 'must be in the future' }]);
}

/**
 * A customer's start off the salon's grid of offered starts (13:07 where the salon books in steps of
 * 15 minutes): 422 BOOKING_START_OFF_GRID. Staff book any minute (docs/rules/availability.md#slots).
 */
export function assertOnSlotGrid(tenant: TenantContext, start: Date): void {
  const interval = tenant.settings.slotIntervalMinutes ?? 15;
  if (!isOnSlotGrid(start, tenant.settings.timezone, interval))
    throw errors.unprocessable('BOOKING_START_OFF_GRID', `Bookings start on the salon's grid of ${interval} minutes`, [
      { field: 'startTime', message: `must be on the salon's ${interval}-minute grid (local time)` },
    ]);
}
