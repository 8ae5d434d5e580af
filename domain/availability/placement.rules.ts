/**
 * Placement check for booking creation and update (docs/rules/availability.md#placement): may these items run on these
 * resources at these times? Returns a typed result; the booking service maps codes to HTTP
 * (RESOURCE_NOT_AVAILABLE -> 409/422 per its error table, BOOKING_CONFLICT -> 409).
 *
 * Per item, in order, the first failing check wins:
 *   1. RESOURCE_NOT_FOUND      the resource is not in `resources`
 *   2. INVALID_ITEM            end not after start
 *   3. RESOURCE_NOT_QUALIFIED  not a staff member, or `serviceId` given and not among the
 *                              resource's skills (or, with onlineOnly, not bookable online)
 *   4. RESOURCE_NOT_AVAILABLE  inactive, or the item's span (buffers included) not entirely inside
 *                              working time: schedule/override INTERSECT business hours MINUS
 *                              approved time-off (reason OUTSIDE_SCHEDULE or TIME_OFF)
 *   5. BOOKING_CONFLICT        a part that blocks (work phase, buffer) overlaps (start < otherEnd &&
 *                              end > otherStart; touching is fine) a blocking booking part of that
 *                              resource (not CANCELLED / NO_SHOW; the booking being updated is
 *                              excluded via excludeBookingId), or a work phase overlaps a work phase
 *                              of another item of the same proposal on the same resource. Skipped
 *                              entirely when allowDoubleBooking.
 * Rooms and equipment are chosen, not proposed: visit.rules.ts (fitItem) and the booking's placement.
 * All issues are returned; `code` is the first one's.
 */
import { utcToLocalDate, daysBetween } from '../time/salon-time.rules';
import { fitsWithin, overlaps, type Interval } from '../time/interval.rules';
import { bookingIntervals, resourceDayTime } from './working-hours.rules';
import { staffTimeOf } from './visit.rules';
import type { BusinessHoursDay, ResourceAvailabilityData, VisitPart } from './availability.types';

export interface ProposedItem {
  resourceId: string;
  /** When given, the strict skill match is checked too. */
  serviceId?: string;
  /** the customer-visible start and end of the item */
  start: Date;
  end: Date;
  /** The item's parts (visit.rules.ts layOutService); unset: one work phase from start to end. */
  parts?: readonly VisitPart[];
}

/** The staff member's time in a proposed item: the span to work, the parts to be free in, the work phases. */
function staffTime(item: ProposedItem): { span: Interval; blocks: Interval[]; work: Interval[] } {
  if (item.parts) return staffTimeOf(item.parts);
  const whole = { start: item.start.getTime(), end: item.end.getTime() };
  return { span: whole, blocks: [whole], work: [whole] };
}

export interface PlacementInput {
  timezone: string;
  businessHours: readonly BusinessHoursDay[];
  resources: readonly ResourceAvailabilityData[];
  items: readonly ProposedItem[];
  /** settings.allowDoubleBooking: skip the overlap check only (schedule and business hours still apply). */
  allowDoubleBooking: boolean;
  /** On update: the booking's own id, so its current rows do not conflict with themselves. */
  excludeBookingId?: string;
  /** Public booking: resource must be bookable online. Default false. */
  onlineOnly?: boolean;
}

export type PlacementCode = 'RESOURCE_NOT_FOUND' | 'INVALID_ITEM' | 'RESOURCE_NOT_QUALIFIED' | 'RESOURCE_NOT_AVAILABLE' | 'BOOKING_CONFLICT';

export type NotAvailableReason = 'INACTIVE' | 'OUTSIDE_SCHEDULE' | 'TIME_OFF';

export interface PlacementIssue {
  code: PlacementCode;
  itemIndex: number;
  resourceId: string;
  reason?: NotAvailableReason;
  /** BOOKING_CONFLICT with an existing booking: its id (when the caller passed ids). */
  conflictingBookingId?: string;
  /** BOOKING_CONFLICT with another item of the same proposal: that item's index. */
  conflictingItemIndex?: number;
}

export type PlacementResult = { ok: true } | { ok: false; code: PlacementCode; issues: PlacementIssue[] };

export function checkBookingPlacement(input: PlacementInput): PlacementResult {
  const issues: PlacementIssue[] = [];
  const byId = new Map(input.resources.map((r) => [r.id, r]));
  const times = input.items.map(staffTime);

  input.items.forEach((item, itemIndex) => {
    const resource = byId.get(item.resourceId);
    const issue = (code: PlacementCode, extra: Partial<PlacementIssue> = {}) => issues.push({ code, itemIndex, resourceId: item.resourceId, ...extra });
    if (!resource) return issue('RESOURCE_NOT_FOUND');
    if (!(item.end.getTime() > item.start.getTime())) return issue('INVALID_ITEM');
    if (resource.type !== 'staff') return issue('RESOURCE_NOT_QUALIFIED');
    if (item.serviceId !== undefined && !resource.skills.includes(item.serviceId)) return issue('RESOURCE_NOT_QUALIFIED');
    if (input.onlineOnly && !resource.isBookableOnline) return issue('RESOURCE_NOT_QUALIFIED');
    if (!resource.isActive) return issue('RESOURCE_NOT_AVAILABLE', { reason: 'INACTIVE' });

    // Working time over every local date the item's span touches (normally one).
    const { span, blocks, work } = times[itemIndex];
    const firstDate = utcToLocalDate(span.start, input.timezone);
    const lastDate = utcToLocalDate(span.end - 1, input.timezone);
    const days = daysBetween(firstDate, lastDate) + 1;
    const time = resourceDayTime(resource, firstDate, input.timezone, input.businessHours, { days, ignoreBookings: true });
    if (!fitsWithin(time.working, span.start, span.end)) {
      const reason: NotAvailableReason = fitsWithin(time.scheduled, span.start, span.end) ? 'TIME_OFF' : 'OUTSIDE_SCHEDULE';
      return issue('RESOURCE_NOT_AVAILABLE', { reason });
    }

    if (input.allowDoubleBooking) return;
    const clash = resource.bookings.find(
      (b) =>
        bookingIntervals([b], { excludeBookingId: input.excludeBookingId }).length === 1 &&
        blocks.some((part) => overlaps(part, { start: b.start.getTime(), end: b.end.getTime() })),
    );
    if (clash) return issue('BOOKING_CONFLICT', clash.id !== undefined ? { conflictingBookingId: clash.id } : {});
    const sibling = input.items.findIndex(
      (other, j) => j < itemIndex && other.resourceId === item.resourceId && times[j].work.some((w) => work.some((mine) => overlaps(mine, w))),
    );
    if (sibling >= 0) return issue('BOOKING_CONFLICT', { conflictingItemIndex: sibling });
  });

  return issues.length === 0 ? { ok: true } : { ok: false, code: issues[0].code, issues };
}
