/**
 * Placement check of a booking's items under the tenant booking lock (booking-lock.ts): schedule /
 * business hours / time-off, skills, overlaps with assigned bookings, and that every unassigned item
 * (new and existing) still has a qualified free resource. Reads everything in one statement
 * (availability.repository.ts) inside the caller's transaction.
 */
import type { Knex } from 'knex';
import { errors } from '../errors';
import { requireApiDateTime } from '../time/iso';
import { checkBookingPlacement, fitsWithin, isQualified, resourceDayTime, type PlacementIssue } from '../availability';
import { loadAvailabilityData, type AvailabilityData } from '../availability/availability.repository';
import { isResourceFree, placeUnassignedItems } from '../availability/unassigned.rules';
import type { ServiceInfo } from '../availability/availability.service';
import type { TenantContext } from '../tenant/tenant-context';
import { daysBetween, utcToLocalDate } from '../time/salon-time.rules';
import { NeedsExclusiveLock, type LockMode } from './booking-lock';
import type { ItemInput, ItemRow } from './booking.types';

export interface PlannedItem {
  serviceId: string;
  resourceId: string | null;
  start: Date;
  end: Date;
  duration: number;
  price: number;
}

/** New items from the request: each starts at its startTime or where the previous one ends. */
export function planItems(services: Map<string, ServiceInfo>, items: readonly ItemInput[], start: Date): PlannedItem[] {
  let cursor = start.getTime();
  return items.map((item, index) => {
    const svc = services.get(item.serviceId)!;
    const s = item.startTime ? requireApiDateTime(item.startTime, `items.${index}.startTime`).getTime() : cursor;
    const e = s + svc.duration * 60_000;
    cursor = e;
    return { serviceId: item.serviceId, resourceId: item.resourceId ?? null, start: new Date(s), end: new Date(e), duration: svc.duration, price: svc.price };
  });
}

/** Existing items as planned ones, optionally shifted by `shiftMs` and/or given a resource. */
export function plannedFromItems(items: readonly ItemRow[], change: { shiftMs?: number; resourceId?: (item: ItemRow) => string | null } = {}): (PlannedItem & { id: string })[] {
  const shift = change.shiftMs ?? 0;
  return items.map((i) => ({
    id: i.id,
    serviceId: i.serviceId,
    resourceId: change.resourceId ? change.resourceId(i) : i.resourceId,
    start: new Date(new Date(i.startTime).getTime() + shift),
    end: new Date(new Date(i.endTime).getTime() + shift),
    duration: i.duration,
    price: i.price,
  }));
}

/** First start and last end of the items. */
export function spanOf(items: readonly { start: Date; end: Date }[]): { start: Date; end: Date } {
  return {
    start: new Date(Math.min(...items.map((i) => i.start.getTime()))),
    end: new Date(Math.max(...items.map((i) => i.end.getTime()))),
  };
}

function placementError(code: string, issue: PlacementIssue | undefined) {
  const field = issue ? `items.${issue.itemIndex}` : 'items';
  switch (code) {
    case 'RESOURCE_NOT_FOUND':
      return errors.notFound('resource');
    case 'RESOURCE_NOT_QUALIFIED':
      return errors.unprocessable('RESOURCE_NOT_QUALIFIED', 'The chosen staff member does not offer this service', [{ field, message: 'resource lacks the skill or is not bookable online' }]);
    case 'RESOURCE_NOT_AVAILABLE':
      return errors.unprocessable('RESOURCE_NOT_AVAILABLE', 'The staff member does not work at this time', [
        { field, message: issue?.reason === 'TIME_OFF' ? 'resource has time off' : issue?.reason === 'INACTIVE' ? 'resource is inactive' : 'outside schedule or business hours' },
      ]);
    case 'INVALID_ITEM':
      return errors.validation('Request validation failed', [{ field, message: 'end must be after start' }]);
    default:
      return errors.conflict('BOOKING_CONFLICT', 'The time overlaps another booking', [{ field, message: 'overlaps another booking' }]);
  }
}

const overlapsAny = (items: readonly { start: Date; end: Date }[], s: Date, e: Date) =>
  items.some((i) => i.start.getTime() < e.getTime() && i.end.getTime() > s.getTime());

/**
 * Checks the planned items under the tenant booking lock. Throws the placement errors (docs/rules/availability.md#placement);
 * NeedsExclusiveLock when a SHARED lock is not enough.
 */
export async function checkPlacement(
  trx: Knex.Transaction,
  tenant: TenantContext,
  items: PlannedItem[],
  opts: { mode: LockMode; excludeBookingId?: string; onlineOnly: boolean; allowDoubleBooking: boolean },
): Promise<AvailabilityData> {
  const s = tenant.settings;
  const tz = s.timezone;
  const span = spanOf(items);
  const data: AvailabilityData = await loadAvailabilityData(trx, {
    tenantId: tenant.id,
    timezone: tz,
    serviceIds: items.map((i) => i.serviceId),
    resourceIds: items.map((i) => i.resourceId).filter((x): x is string => !!x),
    fromDate: utcToLocalDate(span.start, tz),
    toDate: utcToLocalDate(span.end.getTime() - 1, tz),
    onlyListedResources: items.every((i) => i.resourceId !== null),
  });
  const others = data.unassigned.filter((u) => u.bookingId !== opts.excludeBookingId);
  const newUnassigned = items.filter((i) => i.resourceId === null);
  const touchesUnassigned = others.some((u) => overlapsAny(items, u.start, u.end));
  if (opts.mode === 'shared' && (newUnassigned.length > 0 || touchesUnassigned)) throw new NeedsExclusiveLock();

  const assigned = items.filter((i) => i.resourceId !== null);
  if (assigned.length) {
    const result = checkBookingPlacement({
      timezone: tz,
      businessHours: s.businessHours,
      resources: data.resources,
      items: assigned.map((i) => ({ resourceId: i.resourceId!, serviceId: i.serviceId, start: i.start, end: i.end })),
      allowDoubleBooking: opts.allowDoubleBooking,
      excludeBookingId: opts.excludeBookingId,
      onlineOnly: opts.onlineOnly,
    });
    if (!result.ok) {
      const issue = result.issues[0];
      throw placementError(result.code, issue ? { ...issue, itemIndex: items.indexOf(assigned[issue.itemIndex]) } : undefined);
    }
  }
  if (!newUnassigned.length && !touchesUnassigned) return data;

  // Unassigned capacity: existing unassigned items placed before and after adding the new ones.
  const before = placeUnassignedItems(data.resources, others, tz, s.businessHours, { excludeBookingId: opts.excludeBookingId });
  const withAssigned = data.resources.map((r) => ({
    ...r,
    bookings: [
      ...r.bookings,
      ...assigned.filter((i) => i.resourceId === r.id).map((i) => ({ id: '__new__', start: i.start, end: i.end, status: 'CONFIRMED' as const })),
    ],
  }));
  const after = placeUnassignedItems(withAssigned, others, tz, s.businessHours, { excludeBookingId: opts.excludeBookingId });
  if (!opts.allowDoubleBooking && after.unplaced.length > before.unplaced.length) {
    throw errors.conflict('BOOKING_CONFLICT', 'The staff member is needed for an unassigned booking at this time');
  }
  const pool = after.resources;
  for (const item of newUnassigned) {
    const index = items.indexOf(item);
    const qualified = pool.filter((r) => isQualified(r, item.serviceId, opts.onlineOnly));
    const working = qualified.filter((r) => {
      const firstDate = utcToLocalDate(item.start, tz);
      const days = daysBetween(firstDate, utcToLocalDate(item.end.getTime() - 1, tz)) + 1;
      return fitsWithin(resourceDayTime(r, firstDate, tz, s.businessHours, { days, ignoreBookings: true }).working, item.start.getTime(), item.end.getTime());
    });
    if (!working.length) {
      throw errors.unprocessable('RESOURCE_NOT_AVAILABLE', 'Nobody who offers this service works at this time', [
        { field: `items.${index}`, message: qualified.length ? 'outside schedule or business hours' : 'no qualified staff member' },
      ]);
    }
    if (opts.allowDoubleBooking) continue;
    const host = working.find((r) => isResourceFree(r, item.start, item.end, tz, s.businessHours, { excludeBookingId: opts.excludeBookingId }));
    if (!host) throw errors.conflict('BOOKING_CONFLICT', 'Every qualified staff member is booked at this time', [{ field: `items.${index}`, message: 'no free staff member' }]);
    (host.bookings as unknown as { id: string; start: Date; end: Date; status: string }[]).push({ id: '__new__', start: item.start, end: item.end, status: 'CONFIRMED' });
  }
  return data;
}
