/**
 * Existing UNASSIGNED booking items (resource_id null, docs/rules/availability.md#unassigned-bookings) consume capacity too: a slot for
 * "any staff" stays free only while the qualified resources can still absorb every unassigned item.
 * The slot and placement rules work per resource, so before calling them the booking service places
 * each existing unassigned item virtually on one qualified resource that works over its span and is
 * free in the parts that block (work phases and buffers; greedy, in start order, resources in input
 * order). Those parts become ordinary ExistingBookings, so the rules then see the remaining capacity. Items no resource can absorb are returned as `unplaced`
 * (over capacity: the caller treats that as BOOKING_CONFLICT when writing).
 *
 * Greedy is not an optimal matching (a different assignment could sometimes fit one more), so it
 * errs on the side of offering fewer slots, never more. Pure; no clock.
 */
import { fitsWithin, type Interval } from '../time/interval.rules';
import { resourceDayTime } from './working-hours.rules';
import { isQualified } from './visit.rules';
import { utcToLocalDate, daysBetween } from '../time/salon-time.rules';
import type { BookingStatusValue, BusinessHoursDay, ResourceAvailabilityData } from './availability.types';

export interface UnassignedItem {
  bookingId: string;
  serviceId: string;
  /** the staff member's span: buffers and phases */
  start: Date;
  end: Date;
  status: BookingStatusValue;
  /** the parts the staff member must be free in (work phases, buffers); unset: the whole span */
  blocks?: readonly Interval[];
}

export interface UnassignedPlacement {
  resources: ResourceAvailabilityData[];
  /** bookingId/itemIndex of items no qualified resource could absorb */
  unplaced: UnassignedItem[];
  /** which resource absorbed which item (for diagnostics and tests) */
  placed: { item: UnassignedItem; resourceId: string }[];
}

/**
 * Does the resource work over [start,end) and is it free (working time minus its bookings, virtual
 * ones included) in each of `blocks` (unset: the whole of [start,end))?
 */
export function isResourceFree(
  resource: ResourceAvailabilityData,
  start: Date,
  end: Date,
  timezone: string,
  businessHours: readonly BusinessHoursDay[],
  opts: { excludeBookingId?: string; ignoreBookings?: boolean; blocks?: readonly Interval[] } = {},
): boolean {
  const first = utcToLocalDate(start, timezone);
  const last = utcToLocalDate(end.getTime() - 1, timezone);
  const days = daysBetween(first, last) + 1;
  const time = resourceDayTime(resource, first, timezone, businessHours, {
    days,
    excludeBookingId: opts.excludeBookingId,
    ignoreBookings: opts.ignoreBookings,
  });
  const blocks = opts.blocks ?? [{ start: start.getTime(), end: end.getTime() }];
  return fitsWithin(time.working, start.getTime(), end.getTime()) && blocks.every((b) => fitsWithin(time.free, b.start, b.end));
}

export function placeUnassignedItems(
  resources: readonly ResourceAvailabilityData[],
  items: readonly UnassignedItem[],
  timezone: string,
  businessHours: readonly BusinessHoursDay[],
  opts: { excludeBookingId?: string } = {},
): UnassignedPlacement {
  const copies = resources.map((r) => ({ ...r, bookings: [...r.bookings] }));
  const unplaced: UnassignedItem[] = [];
  const placed: { item: UnassignedItem; resourceId: string }[] = [];
  const sorted = items
    .filter((i) => i.status !== 'CANCELLED' && i.status !== 'NO_SHOW' && i.bookingId !== opts.excludeBookingId)
    .sort((a, b) => a.start.getTime() - b.start.getTime() || a.bookingId.localeCompare(b.bookingId));
  for (const item of sorted) {
    const host = copies.find(
      (r) =>
        isQualified(r, item.serviceId) &&
        isResourceFree(r, item.start, item.end, timezone, businessHours, { excludeBookingId: opts.excludeBookingId, blocks: item.blocks }),
    );
    if (!host) {
      unplaced.push(item);
      continue;
    }
    const blocks = item.blocks ?? [{ start: item.start.getTime(), end: item.end.getTime() }];
    for (const b of blocks) host.bookings.push({ id: item.bookingId, start: new Date(b.start), end: new Date(b.end), status: item.status });
    placed.push({ item, resourceId: host.id });
  }
  return { resources: copies, unplaced, placed };
}
