/**
 * Availability for the HTTP edge (docs/rules/availability.md): validates ids against the tenant, loads the data
 * (availability.repository.ts), places existing unassigned items (unassigned.rules.ts) and calls the pure
 * rules. Errors: 404 SERVICE_NOT_FOUND / RESOURCE_NOT_FOUND, 422 DATE_BEYOND_BOOKING_WINDOW,
 * 400 VALIDATION_ERROR for malformed dates and item lists.
 */
import type { Db, DbPool } from '../../db/db-handle';
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { addDays, isValidLocalDate, utcToLocalDate, type LocalDate } from '../time/salon-time.rules';
import {
  computeAvailability,
  firstSlot,
  lastBookableLocalDate,
  beyondWindow,
  findNextAvailableDate,
  normalizeMaxDaysAhead,
  type AvailabilityInput,
  type AvailableSlot,
  type ResourceAvailabilityData,
} from './index';
import { loadAvailabilityData } from './availability.repository';
import { findServicesByIds } from '../catalogue/catalogue.repository';
import { existingResourceIds } from '../resource/resource.repository';
import { placeUnassignedItems } from './unassigned.rules';
import { shapeOfService, type ServiceShape } from '../catalogue/service-shape.rules';

/** Approved full-day time-off (no times) covering the date. */
function fullDayOff(r: ResourceAvailabilityData, date: string): boolean {
  return r.timeOff.some((t) => t.isApproved && t.startTime === null && t.endTime === null && t.startDate <= date && date <= t.endDate);
}

export interface RequestedItem {
  serviceId: string;
  resourceId?: string | null;
}

export interface ServiceInfo {
  id: string;
  name: string;
  /** the customer-visible length: the phases' minutes */
  duration: number;
  price: number;
  currency: string;
  isActive: boolean;
  /** phases, buffers and rooms or equipment (docs/rules/catalogue.md#phases-buffers-and-rooms) */
  shape: ServiceShape;
}

/** A service as the catalogue stores it (its shape's columns as stored; catalogue/service-shape.rules.ts reads them). */
export type StoredService = Omit<ServiceInfo, 'shape'> & Parameters<typeof shapeOfService>[0];

export interface SlotDto {
  start: string;
  end: string;
  localTime: string;
  items: { serviceId: string; start: string; end: string; resourceId: string; freeResourceIds: string[] }[];
}

export interface AvailabilityDto {
  date: string;
  timezone: string;
  slotIntervalMinutes: number;
  slots: SlotDto[];
  /** some staff member who does the services works that day: with no slots the day is full, else closed */
  working: boolean;
}

/** Services of the tenant by id, in request order; 404 SERVICE_NOT_FOUND for unknown, other-tenant or inactive ones. */
export async function servicesFor(db: Db, tenantId: string, ids: readonly string[]): Promise<Map<string, ServiceInfo>> {
  const unique = [...new Set(ids)];
  return activeServicesById(await findServicesByIds(db, tenantId, unique), unique);
}

/** The active ones of `rows` by id, each with its shape; 404 when one of `ids` is unknown or inactive. */
export function activeServicesById(rows: readonly StoredService[], ids: readonly string[]): Map<string, ServiceInfo> {
  const map = new Map(
    rows
      .filter((r) => r.isActive)
      .map((r): [string, ServiceInfo] => [
        r.id,
        { id: r.id, name: r.name, duration: r.duration, price: r.price, currency: r.currency, isActive: r.isActive, shape: shapeOfService(r) },
      ]),
  );
  for (const id of ids) if (!map.has(id)) throw errors.notFound('service');
  return map;
}

/** Resources of the tenant by id; 404 RESOURCE_NOT_FOUND for unknown / other-tenant ones. */
export async function assertResourcesExist(db: Db, tenantId: string, ids: readonly (string | null | undefined)[]): Promise<void> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (!wanted.length) return;
  if ((await existingResourceIds(db, tenantId, wanted)).length !== wanted.length) throw errors.notFound('resource');
}

function slotDto(s: AvailableSlot): SlotDto {
  return {
    start: s.start.toISOString(),
    end: s.end.toISOString(),
    localTime: s.localTime,
    items: s.items.map((i) => ({
      serviceId: i.serviceId,
      start: i.start.toISOString(),
      end: i.end.toISOString(),
      resourceId: i.resourceId,
      freeResourceIds: i.freeResourceIds,
    })),
  };
}

/**
 * Runs the service lookup and the loader in parallel, so it takes the pool (`DbPool`), never a
 * transaction: two queries in flight on one connection is what this must not do.
 */
async function baseInput(
  db: DbPool,
  tenant: TenantContext,
  items: readonly RequestedItem[],
  fromDate: LocalDate,
  toDate: LocalDate,
  onlineOnly: boolean,
  now: Date,
  excludeBookingId?: string,
): Promise<Omit<AvailabilityInput, 'date'>> {
  if (items.length === 0) throw errors.validation('Request validation failed', [{ field: 'items', message: 'at least one item' }]);
  const s = tenant.settings;
  const resourceIds = items.map((i) => i.resourceId).filter((x): x is string => !!x);
  // In parallel: the service lookup and the data (the loader reads chosen resources of this tenant
  // only; free time is all a read asks, so the resources' bookings come as merged busy time, unless
  // a booking being moved must be told apart from the others).
  const [services, data] = await Promise.all([
    servicesFor(
      db,
      tenant.id,
      items.map((i) => i.serviceId),
    ),
    loadAvailabilityData(db, {
      tenantId: tenant.id,
      timezone: s.timezone,
      serviceIds: items.map((i) => i.serviceId),
      resourceIds,
      fromDate,
      toDate,
      busyTimeOnly: !excludeBookingId,
    }),
  ]);
  if (resourceIds.some((id) => !data.resources.some((r) => r.id === id))) throw errors.notFound('resource');
  const resources = s.allowDoubleBooking
    ? data.resources
    : placeUnassignedItems(data.resources, data.unassigned, s.timezone, s.businessHours, { excludeBookingId }).resources;
  return {
    timezone: s.timezone,
    now,
    businessHours: s.businessHours,
    maxBookingDaysInAdvance: s.maxBookingDaysInAdvance,
    slotIntervalMinutes: s.slotIntervalMinutes ?? 15,
    items: items.map((i) => {
      const service = services.get(i.serviceId)!;
      return { serviceId: i.serviceId, durationMinutes: service.duration, shape: service.shape, resourceId: i.resourceId ?? null };
    }),
    resources,
    onlineOnly,
    allowDoubleBooking: s.allowDoubleBooking,
    excludeBookingId,
  };
}

/** The bookable window's checks of a requested date: 400 for a malformed one, 422 past the last bookable date. */
function checkRequestedDate(tenant: TenantContext, date: string, now: Date, field = 'date'): void {
  const s = tenant.settings;
  if (!isValidLocalDate(date)) throw errors.validation('Request validation failed', [{ field, message: 'must be a valid YYYY-MM-DD date' }]);
  const last = lastBookableLocalDate(now, s.timezone, s.maxBookingDaysInAdvance);
  if (last !== null && date > last) throw beyondWindow(last);
}

/** The engine's answer for one date of a loaded input: its slots and whether the day is a working one, or the error as the API states it. */
function slotsOfDate(input: Omit<AvailabilityInput, 'date'>, date: LocalDate): { slots: AvailableSlot[]; working: boolean } {
  const result = computeAvailability({ ...input, date });
  if (!result.ok) {
    if (result.error.code === 'DATE_BEYOND_BOOKING_WINDOW') throw beyondWindow(result.error.lastBookableDate ?? date);
    throw errors.validation(result.error.message, [{ field: result.error.code === 'INVALID_DATE' ? 'date' : 'items', message: result.error.message }]);
  }
  return { slots: result.slots, working: result.working };
}

/**
 * The slots of one salon-local date as the engine gives them (every part of each item with its
 * suggested staff member, room or equipment): what the waitlist offers and holds.
 */
export async function slotsForDate(
  db: DbPool,
  tenant: TenantContext,
  query: { date: string; items: RequestedItem[]; onlineOnly: boolean; now: Date },
): Promise<AvailableSlot[]> {
  return (await dayForDate(db, tenant, query)).slots;
}

/** One date's slots and whether it is a working day for the request (closed or full). */
async function dayForDate(
  db: DbPool,
  tenant: TenantContext,
  query: { date: string; items: RequestedItem[]; onlineOnly: boolean; now: Date; excludeBookingId?: string },
): Promise<{ slots: AvailableSlot[]; working: boolean }> {
  checkRequestedDate(tenant, query.date, query.now);
  const input = await baseInput(db, tenant, query.items, query.date, query.date, query.onlineOnly, query.now, query.excludeBookingId);
  return slotsOfDate(input, query.date);
}

/** `excludeBookingId`: a booking whose own time counts as free (the times it could move to, docs/rules/booking.md#moving-a-booking). */
export async function availabilityForDate(
  db: DbPool,
  tenant: TenantContext,
  query: { date: string; items: RequestedItem[]; onlineOnly: boolean; now: Date; excludeBookingId?: string },
): Promise<AvailabilityDto> {
  const { slots, working } = await dayForDate(db, tenant, query);
  return {
    date: query.date,
    timezone: tenant.settings.timezone,
    slotIntervalMinutes: tenant.settings.slotIntervalMinutes ?? 15,
    slots: slots.map(slotDto),
    working,
  };
}

/**
 * The slots of every date from `fromDate` to `toDate` (inclusive, salon-local), from ONE load of the
 * data: a week of the booking page, a month of a calendar. Dates past the booking window are left
 * out (a window of days, so at most 365 of them).
 */
export async function availabilityForDates(
  db: DbPool,
  tenant: TenantContext,
  query: { fromDate: string; toDate: string; items: RequestedItem[]; onlineOnly: boolean; now: Date; excludeBookingId?: string },
): Promise<AvailabilityDto[]> {
  checkRequestedDate(tenant, query.fromDate, query.now, 'fromDate');
  if (!isValidLocalDate(query.toDate) || query.toDate < query.fromDate) {
    throw errors.validation('Request validation failed', [{ field: 'toDate', message: 'must be a date on or after fromDate' }]);
  }
  const s = tenant.settings;
  const last = lastBookableLocalDate(query.now, s.timezone, s.maxBookingDaysInAdvance);
  const toDate = last !== null && query.toDate > last ? last : query.toDate;
  const input = await baseInput(db, tenant, query.items, query.fromDate, toDate, query.onlineOnly, query.now, query.excludeBookingId);
  const days: AvailabilityDto[] = [];
  for (let date = query.fromDate; date <= toDate; date = addDays(date, 1)) {
    const day = slotsOfDate(input, date);
    days.push({ date, timezone: s.timezone, slotIntervalMinutes: input.slotIntervalMinutes ?? 15, slots: day.slots.map(slotDto), working: day.working });
  }
  return days;
}

/**
 * First date after fromDate with a slot, scanning maxDaysAhead days (default 30, max 90; the route
 * rejects > 90), never past the booking window. Data for the whole window is loaded once.
 */
export async function nextAvailableDate(
  db: DbPool,
  tenant: TenantContext,
  body: { items: RequestedItem[]; fromDate: string; maxDaysAhead?: number; onlineOnly: boolean; now: Date },
): Promise<{ date: string | null }> {
  const { now } = body;
  const s = tenant.settings;
  if (!isValidLocalDate(body.fromDate))
    throw errors.validation('Request validation failed', [{ field: 'fromDate', message: 'must be a valid YYYY-MM-DD date' }]);
  const window = normalizeMaxDaysAhead(body.maxDaysAhead);
  let toDate = addDays(body.fromDate, window);
  const last = lastBookableLocalDate(now, s.timezone, s.maxBookingDaysInAdvance);
  if (last !== null && toDate > last) toDate = last;
  const today = utcToLocalDate(now, s.timezone);
  let loadFrom = addDays(body.fromDate, 1);
  if (loadFrom < today) loadFrom = today;
  if (toDate < loadFrom) {
    await baseInput(db, tenant, body.items, loadFrom, loadFrom, body.onlineOnly, now); // still validate ids
    return { date: null };
  }
  const input = await baseInput(db, tenant, body.items, loadFrom, toDate, body.onlineOnly, now);
  // Same scan as nextAvailableDateFromInput, but resources away the whole date (and the next one,
  // which a chain could reach) are left out of that date's computation: a cheap string check that
  // keeps long vacations from costing a full slot computation per resource and day.
  const date = findNextAvailableDate({
    fromDate: body.fromDate,
    maxDaysAhead: window,
    hasAvailability: (d) => {
      const next = addDays(d, 1);
      const resources = input.resources.filter((r) => !(fullDayOff(r, d) && fullDayOff(r, next)));
      const slot = firstSlot({ ...input, resources, date: d });
      return slot === 'STOP' ? 'STOP' : slot !== null;
    },
  });
  return { date };
}
