/**
 * THE placement of a visit (docs/rules/availability.md#placement): every booking write that takes
 * time - creation, a move, a re-activated status, self-pick - places its planned parts
 * (booking-plan.rules.ts) here, under the tenant booking lock (booking-lock.service.ts): the staff
 * member works over each item and is free in its work phases and buffers, unassigned capacity
 * holds, a suitable room or piece of equipment is free for each requirement, chosen here. What it
 * checks is read in one statement (availability.repository.ts) inside the caller's transaction.
 * booking_segments_no_overlap is the last word: two writers that both passed the check cannot both
 * commit overlapping parts of one resource.
 */
import crypto from 'node:crypto';
import type { Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import { fitsWithin, mergeIntervals, overlaps, type Interval } from '../time/interval.rules';
import {
  capacityOf,
  checkBookingPlacement,
  chooseResource,
  isQualified,
  isSuitable,
  requirementTimeOf,
  resourceDayTime,
  staffForAnyone,
  staffTimeOf,
  type HeldPart,
  type PlacementIssue,
} from '../availability';
import { loadAvailabilityData, type AvailabilityData } from '../availability/availability.repository';
import { isResourceFree, placeUnassignedItems } from '../availability/unassigned.rules';
import type { RequirementType } from '../catalogue/service-shape.rules';
import type { TenantContext } from '../tenant/tenant-context';
import { daysBetween, utcToLocalDate } from '../time/salon-time.rules';
import { NeedsExclusiveLock, type LockMode } from './booking-lock.service';
import { segmentRows, type PlannedItem } from './booking-plan.rules';
import { replaceSegments } from './booking.repository';

/** A placed visit: what the check read, the items with their staff members, and each item's parts with the resource that holds it. */
export interface PlacedVisit<T extends PlannedItem = PlannedItem> {
  data: AvailabilityData;
  /** the planned items; at a salon that assigns every booking, an "anyone" item with the staff member placement gave it */
  items: T[];
  parts: HeldPart[][];
}

/** From the first part's start to the last part's end (buffers included). */
function partsSpan(items: readonly PlannedItem[]): Interval {
  const parts = items.flatMap((i) => i.parts);
  return { start: Math.min(...parts.map((p) => p.start)), end: Math.max(...parts.map((p) => p.end)) };
}

function placementError(code: string, issue: PlacementIssue | undefined) {
  const field = issue ? `items.${issue.itemIndex}` : 'items';
  switch (code) {
    case 'RESOURCE_NOT_FOUND':
      return errors.notFound('resource');
    case 'RESOURCE_NOT_QUALIFIED':
      return errors.unprocessable('RESOURCE_NOT_QUALIFIED', 'The chosen staff member does not offer this service', [
        { field, message: 'resource lacks the skill or is not bookable online' },
      ]);
    case 'RESOURCE_NOT_AVAILABLE':
      return errors.unprocessable('RESOURCE_NOT_AVAILABLE', 'The staff member does not work at this time', [
        {
          field,
          message:
            issue?.reason === 'TIME_OFF'
              ? 'resource has time off'
              : issue?.reason === 'INACTIVE'
                ? 'resource is inactive'
                : 'outside schedule or business hours',
        },
      ]);
    case 'INVALID_ITEM':
      return errors.validation('Request validation failed', [{ field, message: 'end must be after start' }]);
    default:
      return errors.conflict('BOOKING_CONFLICT', 'The time overlaps another booking', [{ field, message: 'overlaps another booking' }]);
  }
}

/** The staff member's span of an item (buffers included). */
const staffSpan = (item: PlannedItem): Interval => staffTimeOf(item.parts).span;

/** The room types an item needs, by requirement index. */
function requirementTypes(item: PlannedItem): RequirementType[] {
  const types: RequirementType[] = [];
  for (const p of item.parts) if (p.requirementIndex !== null) types[p.requirementIndex] = p.resourceType as RequirementType;
  return types;
}

export interface PlaceOptions {
  mode: LockMode;
  /** a booking being moved or re-activated: its own time counts as free */
  excludeBookingId?: string;
  /** the public portal: staff must be bookable online */
  onlineOnly: boolean;
  allowDoubleBooking: boolean;
  /** the caller writes the items' staff members (a new booking, a move): at a salon that assigns every booking, "anyone" is given one */
  assignsStaff?: boolean;
}

/**
 * Places the planned items under the tenant booking lock: schedule, business hours, time-off and
 * skills of the staff member, their work phases and buffers clear of other bookings, every
 * unassigned item (new and existing) still with a qualified free staff member, and a suitable room
 * or piece of equipment free for each requirement (the one the item held when it still is, else the
 * previous item's, else the first in sort order). At a salon that assigns every booking
 * (`bookingMode` assigned_only), an "anyone" item is given the staff member the slots offer at that
 * start: the engine decides (availability's staffForAnyone), once for the API, the booking pages and
 * the front desk. Throws the placement errors (docs/rules/availability.md#placement);
 * NeedsExclusiveLock when a SHARED lock is not enough. Reads everything in one statement
 * (availability.repository.ts) inside the caller's transaction.
 */
export async function placeVisit<T extends PlannedItem>(trx: Transaction, tenant: TenantContext, planned: T[], opts: PlaceOptions): Promise<PlacedVisit<T>> {
  const s = tenant.settings;
  const tz = s.timezone;
  const span = partsSpan(planned);
  const fromDate = utcToLocalDate(span.start, tz);
  const toDate = utcToLocalDate(span.end - 1, tz);
  const range = { fromDate, days: daysBetween(fromDate, toDate) + 1 };
  const data: AvailabilityData = await loadAvailabilityData(trx, {
    tenantId: tenant.id,
    timezone: tz,
    serviceIds: planned.map((i) => i.serviceId),
    resourceIds: planned.map((i) => i.resourceId).filter((x): x is string => !!x),
    fromDate,
    toDate,
    onlyListedResources: planned.every((i) => i.resourceId !== null),
  });
  const others = data.unassigned.filter((u) => u.bookingId !== opts.excludeBookingId);
  const touchesUnassigned = others.some((u) => planned.some((i) => overlaps(staffSpan(i), { start: u.start.getTime(), end: u.end.getTime() })));
  if (opts.mode === 'shared' && (planned.some((i) => i.resourceId === null) || touchesUnassigned)) throw new NeedsExclusiveLock();
  const assignsEveryBooking = s.bookingMode === 'assigned_only' && !!opts.assignsStaff;
  const items = assignsEveryBooking ? withStaffForAnyone(data, planned, others, tenant, range, opts) : planned;
  const newUnassigned = items.filter((i) => i.resourceId === null);

  const assigned = items.filter((i) => i.resourceId !== null);
  if (assigned.length) {
    const result = checkBookingPlacement({
      timezone: tz,
      businessHours: s.businessHours,
      resources: data.resources,
      items: assigned.map((i) => ({ resourceId: i.resourceId!, serviceId: i.serviceId, start: i.start, end: i.end, parts: i.parts })),
      allowDoubleBooking: opts.allowDoubleBooking,
      excludeBookingId: opts.excludeBookingId,
      onlineOnly: opts.onlineOnly,
    });
    if (!result.ok) {
      const issue = result.issues[0];
      throw placementError(result.code, issue ? { ...issue, itemIndex: items.indexOf(assigned[issue.itemIndex]) } : undefined);
    }
  }
  if (newUnassigned.length || touchesUnassigned) placeUnassigned(data, items, others, tenant, opts);
  if (assignsEveryBooking && newUnassigned.length) {
    throw errors.conflict('BOOKING_CONFLICT', 'Every qualified staff member is booked at this time', [
      { field: `items.${items.indexOf(newUnassigned[0])}`, message: 'no free staff member' },
    ]);
  }
  return { data, items, parts: chooseRooms(data, items, tenant, range, opts) };
}

/** "Anyone" at a salon that assigns every booking: each such item with the staff member the slots offer, over the same capacity they read. */
function withStaffForAnyone<T extends PlannedItem>(
  data: AvailabilityData,
  items: T[],
  others: AvailabilityData['unassigned'],
  tenant: TenantContext,
  range: { fromDate: string; days: number },
  opts: PlaceOptions,
): T[] {
  const s = tenant.settings;
  const pool = opts.allowDoubleBooking
    ? data.resources
    : placeUnassignedItems(data.resources, others, s.timezone, s.businessHours, { excludeBookingId: opts.excludeBookingId }).resources;
  const capacity = capacityOf(pool, range.fromDate, s.timezone, s.businessHours, {
    days: range.days,
    ignoreBookings: opts.allowDoubleBooking,
    excludeBookingId: opts.excludeBookingId,
  });
  const staff = staffForAnyone(capacity, pool, items, opts.onlineOnly);
  return items.map((item, i) => (item.resourceId === null && staff[i] ? { ...item, resourceId: staff[i] } : item));
}

/** Unassigned capacity: existing unassigned items placed before and after adding the new parts; each new unassigned item needs a free qualified staff member. */
function placeUnassigned(
  data: AvailabilityData,
  items: PlannedItem[],
  others: AvailabilityData['unassigned'],
  tenant: TenantContext,
  opts: PlaceOptions,
): void {
  const s = tenant.settings;
  const tz = s.timezone;
  const assigned = items.filter((i) => i.resourceId !== null);
  const before = placeUnassignedItems(data.resources, others, tz, s.businessHours, { excludeBookingId: opts.excludeBookingId });
  const withAssigned = data.resources.map((r) => ({
    ...r,
    bookings: [
      ...r.bookings,
      ...assigned
        .filter((i) => i.resourceId === r.id)
        .flatMap((i) =>
          staffTimeOf(i.parts).blocks.map((b) => ({ id: '__new__', start: new Date(b.start), end: new Date(b.end), status: 'CONFIRMED' as const })),
        ),
    ],
  }));
  const after = placeUnassignedItems(withAssigned, others, tz, s.businessHours, { excludeBookingId: opts.excludeBookingId });
  if (!opts.allowDoubleBooking && after.unplaced.length > before.unplaced.length) {
    throw errors.conflict('BOOKING_CONFLICT', 'The staff member is needed for an unassigned booking at this time');
  }
  const pool = after.resources;
  for (const item of items.filter((i) => i.resourceId === null)) {
    const index = items.indexOf(item);
    const time = staffTimeOf(item.parts);
    const start = new Date(time.span.start);
    const end = new Date(time.span.end);
    const qualified = pool.filter((r) => isQualified(r, item.serviceId, opts.onlineOnly));
    const working = qualified.filter((r) => {
      const firstDate = utcToLocalDate(start, tz);
      const days = daysBetween(firstDate, utcToLocalDate(end.getTime() - 1, tz)) + 1;
      return fitsWithin(resourceDayTime(r, firstDate, tz, s.businessHours, { days, ignoreBookings: true }).working, time.span.start, time.span.end);
    });
    if (!working.length) {
      throw errors.unprocessable('RESOURCE_NOT_AVAILABLE', 'Nobody who offers this service works at this time', [
        { field: `items.${index}`, message: qualified.length ? 'outside schedule or business hours' : 'no qualified staff member' },
      ]);
    }
    if (opts.allowDoubleBooking) continue;
    const host = working.find((r) => isResourceFree(r, start, end, tz, s.businessHours, { excludeBookingId: opts.excludeBookingId, blocks: time.blocks }));
    if (!host)
      throw errors.conflict('BOOKING_CONFLICT', 'Every qualified staff member is booked at this time', [
        { field: `items.${index}`, message: 'no free staff member' },
      ]);
    for (const b of time.blocks)
      (host.bookings as { id: string; start: Date; end: Date; status: string }[]).push({
        id: '__new__',
        start: new Date(b.start),
        end: new Date(b.end),
        status: 'CONFIRMED',
      });
  }
}

/** Every item's parts with their resource: the staff member as planned, and a room or piece of equipment chosen for each requirement. */
function chooseRooms(
  data: AvailabilityData,
  items: PlannedItem[],
  tenant: TenantContext,
  range: { fromDate: string; days: number },
  opts: PlaceOptions,
): HeldPart[][] {
  const s = tenant.settings;
  const capacity = capacityOf(data.resources, range.fromDate, s.timezone, s.businessHours, {
    days: range.days,
    ignoreBookings: opts.allowDoubleBooking,
    excludeBookingId: opts.excludeBookingId,
  });
  const taken: { resourceId: string; intervals: Interval[] }[] = [];
  const previous = new Map<RequirementType, string>();
  return items.map((item, index) => {
    const chosen = requirementTypes(item).map((type, j) => {
      const time = requirementTimeOf(item.parts, j);
      const prefer = [item.heldRooms?.get(type), previous.get(type)].filter((x): x is string => !!x);
      const candidates = data.resources.filter((r) => isSuitable(r, item.serviceId, type));
      const choice = chooseResource(capacity, candidates, time, prefer, opts.allowDoubleBooking ? [] : taken);
      if ('problem' in choice) throw roomError(choice.problem, type, index);
      // the same visit's other phases may not sit in this room at once (its buffers may)
      taken.push({ resourceId: choice.resourceId, intervals: mergeIntervals(item.parts.filter((p) => p.requirementIndex === j && p.phaseIndex !== null)) });
      previous.set(type, choice.resourceId);
      return choice.resourceId;
    });
    return item.parts.map((p) => ({ ...p, resourceId: p.requirementIndex === null ? item.resourceId : chosen[p.requirementIndex] }));
  });
}

function roomError(problem: 'NONE_SUITABLE' | 'NOT_OPEN' | 'TAKEN', type: RequirementType, index: number) {
  const what = type === 'room' ? 'room' : 'piece of equipment';
  const field = `items.${index}`;
  if (problem === 'TAKEN') return errors.conflict('BOOKING_CONFLICT', `Every suitable ${what} is booked at this time`, [{ field, message: `no free ${what}` }]);
  return errors.unprocessable('RESOURCE_NOT_AVAILABLE', `No suitable ${what} is available at this time`, [
    { field, message: problem === 'NONE_SUITABLE' ? `the service needs a ${what} and none is set up for it` : `no suitable ${what} is open at this time` },
  ]);
}

/** A placed booking's segments replace the ones it had (a move, a re-activated status); `isActive`: they block time now. */
export async function replacePlacedSegments(
  trx: Transaction,
  row: { id: string; tenantId: string; allowDoubleBooking: boolean },
  planned: readonly { id: string }[],
  placed: PlacedVisit,
  isActive: boolean,
): Promise<void> {
  const owner = { tenantId: row.tenantId, bookingId: row.id, itemIds: planned.map((p) => p.id), flags: { isActive, isExclusive: !row.allowDoubleBooking } };
  await replaceSegments(trx, row.id, segmentRows(owner, placed.parts, crypto.randomUUID));
}
