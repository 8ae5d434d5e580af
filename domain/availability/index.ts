/**
 * Availability rules: pure, deterministic, no I/O, no clock (pass `now`). Importable from
 * Temporal workflows. All local times are salon-local 'HH:mm' and dates 'YYYY-MM-DD' in
 * `settings.timezone`; all instants are UTC Dates. Conversion lives in domain/time/salon-time.rules.
 *
 * HOW TO CALL (booking service)
 *
 * 1. Slots for GET /availability and GET /public/tenants/:slug/availability:
 *
 *      const result = computeAvailability({
 *        timezone: settings.timezone, now: new Date(), date: query.date,
 *        businessHours: settings.businessHours,
 *        maxBookingDaysInAdvance: settings.maxBookingDaysInAdvance,
 *        slotIntervalMinutes: 15,                        // 15 | 30 | 60
 *        items: [{ serviceId, durationMinutes: service.duration, resourceId }],  // resourceId optional
 *        resources,            // ResourceAvailabilityData[]: load ALL resources with a skill for any
 *                              // requested service; their weekly schedule, overrides and time-off
 *                              // touching the date (and the next date), and their booking ITEM
 *                              // times touching the date (+1 day) in any status (filtering by status
 *                              // is done here).
 *        onlineOnly: true,     // public portal: only isBookableOnline resources
 *        allowDoubleBooking: settings.allowDoubleBooking,
 *      });
 *      if (!result.ok) -> result.error.code: INVALID_TIMEZONE | INVALID_DATE | INVALID_SLOT_INTERVAL |
 *                         INVALID_ITEMS | DATE_BEYOND_BOOKING_WINDOW (map to 400 VALIDATION_ERROR)
 *      else result.slots: [{ start, end, localTime, items: [{ serviceId, start, end, resourceId,
 *                           freeResourceIds }] }]
 *
 *    - One item = single-service request; several items = chain, item i+1 starts when item i ends.
 *    - With no resourceId, a slot exists when at least one qualified resource is free;
 *      `freeResourceIds` lists all of them, `resourceId` is a suggestion (the previous item's
 *      resource when possible, else the first in input order: pass resources sorted by sortOrder).
 *    - A past date gives ok with no slots; slots before `now` are dropped.
 *
 * 2. Placement check before inserting / updating a booking (inside the transaction, after locking):
 *
 *      checkBookingPlacement({ timezone, businessHours, resources, allowDoubleBooking,
 *        items: [{ resourceId, serviceId, start, end }], excludeBookingId })
 *      -> { ok: true } | { ok: false, code: 'RESOURCE_NOT_FOUND' | 'INVALID_ITEM' |
 *           'RESOURCE_NOT_QUALIFIED' | 'RESOURCE_NOT_AVAILABLE' | 'BOOKING_CONFLICT', issues }
 *    The booking-window rule (maxBookingDaysInAdvance) is separate: call
 *    isWithinBookingWindow(start, now, timezone, max) for creation.
 *
 * 3. Next available date (POST /public/tenants/:slug/availability/next-available-date):
 *      nextAvailableDateFromInput(inputWithoutDate, fromDate, maxDaysAhead)   // preloaded data
 *      findNextAvailableDate({ fromDate, maxDaysAhead, hasAvailability })   // any callback
 *    Window: default 30 days, capped at 90, scanning from fromDate+1.
 *
 * 4. Existing UNASSIGNED booking items (resource null) hold capacity: first run
 *      placeUnassignedItems(resources, unassignedItems, timezone, businessHours, { excludeBookingId })
 *    (./unassigned.rules.ts) and pass its `resources` (copies carrying virtual bookings) to
 *    computeAvailability / checkBookingPlacement; its `unplaced` items mean over capacity.
 *
 * Lower-level building blocks (intervals, working/free time per resource and date, aligned
 * candidate starts) are exported too.
 */
export * from './availability.types';
export * from '../time/interval.rules';
export * from './working-hours.rules';
export * from './slots.rules';
export * from './placement.rules';
export * from './next-available-date.rules';
export * from './booking-window.rules';
export * from './unassigned.rules';
