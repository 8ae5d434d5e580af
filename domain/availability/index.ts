/**
 * Availability rules: pure, deterministic, no I/O, no clock (pass `now`). Importable from
 * Temporal workflows. All local times are salon-local 'HH:mm' and dates 'YYYY-MM-DD' in
 * `settings.timezone`; all instants are UTC Dates (epoch ms inside the engine). Conversion lives in
 * domain/time/salon-time.rules. One engine answers every question (docs/rules/availability.md).
 *
 * HOW TO CALL
 *
 * 0. With the data loaded (the service layer does it: availability.service.ts, one statement
 *    through availability.repository.ts), most callers want the service functions:
 *      availabilityForDate(db, tenant, { date, items, onlineOnly, now })        // the API's DTO
 *      slotsForDate(db, tenant, { date, items, onlineOnly, now })               // engine slots, every part with its resource
 *      availabilityForDates(db, tenant, { fromDate, toDate, items, ... })      // many days, one load
 *      nextAvailableDate(db, tenant, { items, fromDate, maxDaysAhead, ... })   // the first day with a start
 *    A booking's own time is planned by domain/booking/booking-plan.rules.ts (planItems or
 *    plannedFromItems) and placed by domain/booking/booking-placement.service.ts (placeVisit), which
 *    calls the rules below under the lock; segmentRows makes the rows it writes.
 *
 * 1. "Can these services start at t with this staff member, and which rooms?" (visit.rules.ts):
 *
 *      const services = [{ serviceId, shape, resourceId }]      // shape: catalogue/service-shape.rules.ts
 *      const capacity = capacityOf(resources, fromDate, timezone, businessHours, { days, ignoreBookings, excludeBookingId })
 *      const candidates = candidatesFor(resources, services, onlineOnly)
 *      const fits = fitVisitAt(capacity, services, candidates, t)   // null, or per item: resourceId,
 *                      // freeResourceIds, requirements [{ resourceType, resourceId, freeResourceIds }],
 *                      // parts [{ kind, phaseIndex, resourceType, resourceId, start, end, blocks }]
 *    capacityDays(date, visitMinutes, bufferBefore) says which dates the capacity must cover. For many
 *    starts lay the visit out once: planVisit(services) then fitPlanAt(capacity, plan, candidates, t).
 *
 * 2. "All starts on a day / the first day with a start" (slots.rules.ts, next-available-date.rules.ts):
 *
 *      computeAvailability({ timezone, now, date, businessHours, maxBookingDaysInAdvance,
 *        slotIntervalMinutes, items: [{ serviceId, durationMinutes, shape, resourceId }],
 *        resources, onlineOnly, allowDoubleBooking })
 *      -> { ok: true, slots: [{ start, end, localTime, items: [{ serviceId, start, end, resourceId,
 *           freeResourceIds, requirements, parts }] }] } | { ok: false, error: { code, message } }
 *      firstSlot(input)                                    // stops at the first start
 *      nextAvailableDateFromInput(inputWithoutDate, fromDate, maxDaysAhead)
 *    `resources`: every resource (staff, rooms, equipment) with a skill for a requested service,
 *    their schedules, overrides, time-off, and their blocking booking segments in the range as
 *    `bookings` (any status: the rules filter CANCELLED and NO_SHOW). A slot's `end` is the last
 *    phase's end (the customer's time); its parts reach the buffers.
 *
 * 3. The placement check of proposed staff (placement.rules.ts), inside the booking transaction:
 *      checkBookingPlacement({ timezone, businessHours, resources, allowDoubleBooking,
 *        items: [{ resourceId, serviceId, start, end, parts }], excludeBookingId, onlineOnly })
 *      -> { ok: true } | { ok: false, code: 'RESOURCE_NOT_FOUND' | 'INVALID_ITEM' |
 *           'RESOURCE_NOT_QUALIFIED' | 'RESOURCE_NOT_AVAILABLE' | 'BOOKING_CONFLICT', issues }
 *    Rooms and equipment are chosen with chooseResource(capacity, candidates, intervals, prefer, taken).
 *    The booking-window rule (maxBookingDaysInAdvance) is separate: isWithinBookingWindow(...).
 *
 * 4. Existing UNASSIGNED booking items (staff null) hold capacity: first run
 *      placeUnassignedItems(resources, unassignedItems, timezone, businessHours, { excludeBookingId })
 *    (./unassigned.rules.ts) and pass its `resources` (copies carrying virtual bookings) on; its
 *    `unplaced` items mean over capacity.
 *
 * Lower-level building blocks (intervals, working/free time per resource and date, aligned
 * candidate starts, a service's parts: layOutService) are exported too.
 */
export * from './availability.types';
export * from '../time/interval.rules';
export * from './working-hours.rules';
export * from './slots.rules';
export * from './placement.rules';
export * from './next-available-date.rules';
export * from './booking-window.rules';
export * from './unassigned.rules';
export * from './visit.rules';
