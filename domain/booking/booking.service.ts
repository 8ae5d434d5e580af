/**
 * Bookings (spec 2.8, 3.1, 4.5, 4.7, 5.4, 6): creation (staff, walk-in, public), lifecycle,
 * reschedule, cancellation, self-pick, reads. Each state change is ONE transaction that writes the
 * booking (version + 1), its items' denormalised flags and an audit row, and signals the booking
 * workflow BEFORE commit (ARCHITECTURE.md section 4); a failed signal rolls everything back (503
 * WORKFLOW_UNAVAILABLE). Overlap is enforced by booking_items_no_overlap; unassigned capacity by
 * booking-lock.ts + unassigned.rules.ts.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { errors } from '../errors';
import type { EntitySignaller } from '../../integrations/temporal/entity-signaller';
import { checkBookingPlacement, fitsWithin, isQualified, resourceDayTime, type PlacementIssue } from '../availability';
import { loadAvailabilityData, type AvailabilityData } from '../availability/availability.loader';
import { isResourceFree, placeUnassignedItems } from '../availability/unassigned.rules';
import {
  assertResourcesExist,
  beyondWindow,
  servicesFor,
  type ServiceInfo,
  type TenantContext,
} from '../availability/availability.service';
import { lastBookableLocalDate } from '../availability/booking-window.rules';
import { addDays, isValidLocalDate, localDayBoundsUtcMs, utcToLocalDate, daysBetween } from '../time/salon-time.rules';
import {
  decideTransition,
  initialPublicBookingStatus,
  INITIAL_STATUS_FOR_WALK_IN,
  isBookingStatus,
  type ActorRole,
  type BookingStatus,
} from './booking-status.rules';
import { decideCancellation, isWithinFreeCancellationWindow, type CancellationDecision } from './cancellation.rules';
import { BOOKING_EVENT_SIGNAL, BOOKING_WORKFLOW_TYPE, bookingWorkflowId, type BookingEventType } from './booking-events';
import { withBookingLock, NeedsExclusiveLock, type LockMode } from './booking-lock';
import { issueCancellationToken, verifyCancellationToken } from './cancellation-token';
import { findOrCreateCustomerByPhone } from '../customer/customer.service';
import { normalisePhone } from '../customer/customer.rules';

type Db = Knex | Knex.Transaction;

export type BookingSource = 'PHONE' | 'ADMIN' | 'WALK_IN' | 'ONLINE';

export interface BookingDeps {
  knex: Knex;
  signaller: EntitySignaller;
  /** HMAC key for cancellation tokens */
  secret: string;
  now?: () => Date;
}

export interface Actor {
  userId: string | null;
  role: ActorRole;
  /** STAFF (and OWNER) with a linked resource */
  resourceId: string | null;
}

export interface ItemInput {
  serviceId: string;
  resourceId?: string | null;
  /** ISO; defaults to the booking start for item 0, else the previous item's end */
  startTime?: string;
}

export interface ContactInput {
  name: string;
  phone: string;
  email?: string | null;
  notes?: string | null;
}

// ------------------------------------------------------------------------------- DTOs

export interface BookingItemDto {
  id: string;
  serviceId: string;
  serviceName: string;
  resourceId: string | null;
  startTime: string;
  endTime: string;
  duration: number;
  price: number;
}

export interface BookingDto {
  id: string;
  tenantId: string;
  customerId: string | null;
  resourceId: string | null;
  startTime: string;
  endTime: string;
  status: BookingStatus;
  source: BookingSource;
  paymentMode: string;
  totalAmount: number;
  discountAmount: number;
  appliedVoucherId: string | null;
  cancellationFee: number;
  depositStatus: string | null;
  processedForLoyalty: boolean;
  metadata: { displaySnapshot: { timezone: string; currency: string; locale: string } } & Record<string, unknown>;
  isGuest: boolean;
  contact: { name: string | null; phone: string | null; email: string | null } | null;
  notes: string | null;
  version: number;
  cancelReason: string | null;
  cancelledBy: string | null;
  cancelledAt: string | null;
  createdBy: string | null;
  tenantTimezone: string;
  items: BookingItemDto[];
  createdAt: string;
  updatedAt: string;
}

interface BookingRow {
  id: string;
  tenantId: string;
  customerId: string | null;
  resourceId: string | null;
  startTime: Date;
  endTime: Date;
  status: BookingStatus;
  source: BookingSource;
  paymentMode: string;
  totalAmount: number;
  discountAmount: number;
  appliedVoucherId: string | null;
  cancellationFee: number;
  depositStatus: string | null;
  processedForLoyalty: boolean;
  metadata: BookingDto['metadata'];
  isGuest: boolean;
  contactName: string | null;
  contactPhone: string | null;
  contactEmail: string | null;
  notes: string | null;
  version: number;
  cancelReason: string | null;
  cancelledBy: string | null;
  cancelledAt: Date | null;
  cancellationTokenHash: string | null;
  allowDoubleBooking: boolean;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface ItemRow {
  id: string;
  bookingId: string;
  serviceId: string;
  serviceName: string;
  resourceId: string | null;
  startTime: Date;
  endTime: Date;
  duration: number;
  price: number;
  sortOrder: number;
}

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);
const isBlocking = (s: BookingStatus) => s !== 'CANCELLED' && s !== 'NO_SHOW';

function toDto(b: BookingRow, items: ItemRow[]): BookingDto {
  const hasContact = b.contactName !== null || b.contactPhone !== null || b.contactEmail !== null;
  return {
    id: b.id,
    tenantId: b.tenantId,
    customerId: b.customerId,
    resourceId: b.resourceId,
    startTime: iso(b.startTime)!,
    endTime: iso(b.endTime)!,
    status: b.status,
    source: b.source,
    paymentMode: b.paymentMode,
    totalAmount: b.totalAmount,
    discountAmount: b.discountAmount,
    appliedVoucherId: b.appliedVoucherId,
    cancellationFee: b.cancellationFee,
    depositStatus: b.depositStatus,
    processedForLoyalty: b.processedForLoyalty,
    metadata: b.metadata,
    isGuest: b.isGuest,
    contact: hasContact ? { name: b.contactName, phone: b.contactPhone, email: b.contactEmail } : null,
    notes: b.notes,
    version: b.version,
    cancelReason: b.cancelReason,
    cancelledBy: b.cancelledBy,
    cancelledAt: iso(b.cancelledAt),
    createdBy: b.createdBy,
    tenantTimezone: b.metadata?.displaySnapshot?.timezone,
    items: items
      .filter((i) => i.bookingId === b.id)
      .sort((x, y) => x.sortOrder - y.sortOrder)
      .map((i) => ({
        id: i.id,
        serviceId: i.serviceId,
        serviceName: i.serviceName,
        resourceId: i.resourceId,
        startTime: iso(i.startTime)!,
        endTime: iso(i.endTime)!,
        duration: i.duration,
        price: i.price,
      })),
    createdAt: iso(b.createdAt)!,
    updatedAt: iso(b.updatedAt)!,
  };
}

async function itemsOf(db: Db, bookingIds: string[]): Promise<ItemRow[]> {
  if (!bookingIds.length) return [];
  return db('bookingItems as bi')
    .join('services as s', 's.id', 'bi.serviceId')
    .select('bi.id', 'bi.bookingId', 'bi.serviceId', 's.name as serviceName', 'bi.resourceId', 'bi.startTime', 'bi.endTime', 'bi.duration', 'bi.price', 'bi.sortOrder')
    .whereIn('bi.bookingId', bookingIds);
}

async function loadDto(db: Db, tenantId: string, id: string): Promise<BookingDto> {
  const row = await db('bookings').where({ tenantId, id }).first();
  if (!row) throw errors.notFound('booking');
  return toDto(row, await itemsOf(db, [id]));
}

// ------------------------------------------------------------------------------- helpers

/**
 * Spec 5.4: STAFF may act on bookings of their own resource and on unassigned ones; others are 403.
 * A multi-service booking also counts as theirs when one of its items is on their resource.
 */
async function assertStaffScope(db: Db, actor: Actor, booking: { id: string; resourceId: string | null }): Promise<void> {
  if (actor.role !== 'STAFF') return;
  if (booking.resourceId === null) return;
  if (actor.resourceId && booking.resourceId === actor.resourceId) return;
  if (actor.resourceId) {
    const item = await db('bookingItems').select('id').where({ bookingId: booking.id, resourceId: actor.resourceId }).first();
    if (item) return;
  }
  throw errors.forbidden('This booking belongs to another staff member');
}

async function lockBookingRow(trx: Knex.Transaction, tenantId: string, id: string): Promise<BookingRow> {
  const row: BookingRow | undefined = await trx('bookings').where({ tenantId, id }).forUpdate().first();
  if (!row) throw errors.notFound('booking');
  return row;
}

async function signalBooking(deps: BookingDeps, b: { id: string; tenantId: string }, type: BookingEventType, entityVersion: number): Promise<void> {
  try {
    await deps.signaller.signal(
      { workflowType: BOOKING_WORKFLOW_TYPE, workflowId: bookingWorkflowId(b.id), startArgs: { bookingId: b.id, tenantId: b.tenantId } },
      BOOKING_EVENT_SIGNAL,
      { type, entityVersion },
    );
  } catch {
    throw errors.unavailable('WORKFLOW_UNAVAILABLE', 'The booking workflow service is unreachable; nothing was changed, please try again');
  }
}

async function audit(
  trx: Knex.Transaction,
  entry: {
    bookingId: string;
    tenantId: string;
    actor: Actor;
    action: string;
    fromStatus?: string | null;
    toStatus?: string | null;
    reason?: string | null;
    forced?: boolean;
    changes?: Record<string, unknown>;
  },
): Promise<void> {
  await trx('bookingAuditLogs').insert({
    bookingId: entry.bookingId,
    tenantId: entry.tenantId,
    actorUserId: entry.actor.userId,
    actorRole: entry.actor.role,
    action: entry.action,
    fromStatus: entry.fromStatus ?? null,
    toStatus: entry.toStatus ?? null,
    reason: entry.reason ?? null,
    forced: entry.forced ?? false,
    changes: JSON.stringify(entry.changes ?? {}),
  });
}

function eventOf(to: BookingStatus, bySalon = false): BookingEventType {
  switch (to) {
    case 'CONFIRMED':
      return 'BookingConfirmed';
    case 'ARRIVED':
      return 'BookingArrived';
    case 'IN_PROGRESS':
      return 'BookingStarted';
    case 'COMPLETED':
      return 'BookingCompleted';
    case 'CANCELLED':
      return bySalon ? 'BookingCancelledBySalon' : 'BookingCancelled';
    case 'NO_SHOW':
      return 'BookingMarkedNoShow';
    default:
      return 'BookingUpdated';
  }
}

interface PlannedItem {
  serviceId: string;
  resourceId: string | null;
  start: Date;
  end: Date;
  duration: number;
  price: number;
}

function planItems(services: Map<string, ServiceInfo>, items: readonly ItemInput[], start: Date): PlannedItem[] {
  let cursor = start.getTime();
  return items.map((item, index) => {
    const svc = services.get(item.serviceId)!;
    const s = item.startTime ? new Date(item.startTime).getTime() : cursor;
    if (Number.isNaN(s)) throw errors.validation('Request validation failed', [{ field: `items.${index}.startTime`, message: 'must be a date-time' }]);
    const e = s + svc.duration * 60_000;
    cursor = e;
    return { serviceId: item.serviceId, resourceId: item.resourceId ?? null, start: new Date(s), end: new Date(e), duration: svc.duration, price: svc.price };
  });
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
 * Checks the planned items under the tenant booking lock: schedule / business hours / time-off,
 * skills, overlaps with assigned bookings, and that every unassigned item (new and existing) still
 * has a qualified free resource. Throws the spec's errors; NeedsExclusiveLock when a SHARED lock is
 * not enough.
 */
async function checkPlacement(
  trx: Knex.Transaction,
  tenant: TenantContext,
  items: PlannedItem[],
  opts: { mode: LockMode; excludeBookingId?: string; onlineOnly: boolean; allowDoubleBooking: boolean },
): Promise<AvailabilityData> {
  const s = tenant.settings;
  const tz = s.timezone;
  const first = new Date(Math.min(...items.map((i) => i.start.getTime())));
  const last = new Date(Math.max(...items.map((i) => i.end.getTime())) - 1);
  const data: AvailabilityData = await loadAvailabilityData(trx, {
    tenantId: tenant.id,
    timezone: tz,
    serviceIds: items.map((i) => i.serviceId),
    resourceIds: items.map((i) => i.resourceId).filter((x): x is string => !!x),
    fromDate: utcToLocalDate(first, tz),
    toDate: utcToLocalDate(last, tz),
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

function assertWithinWindow(tenant: TenantContext, start: Date, now: Date): void {
  const s = tenant.settings;
  const lastDate = lastBookableLocalDate(now, s.timezone, s.maxBookingDaysInAdvance);
  if (lastDate !== null && utcToLocalDate(start, s.timezone) > lastDate) throw beyondWindow(lastDate);
}

// ------------------------------------------------------------------------------- creation

export interface CreateInput {
  startTime: string;
  items: ItemInput[];
  customerId?: string;
  customer?: ContactInput;
  source?: 'PHONE' | 'ADMIN';
  notes?: string | null;
}

interface InsertSpec {
  tenant: TenantContext;
  actor: Actor;
  items: ItemInput[];
  start: Date;
  status: BookingStatus;
  source: BookingSource;
  customerId?: string;
  contact?: ContactInput;
  isGuest: boolean;
  notes?: string | null;
  onlineOnly: boolean;
  withToken: boolean;
}

async function insertBooking(
  deps: BookingDeps,
  spec: InsertSpec,
): Promise<{ booking: BookingDto; cancellationToken: string | null; resourceNames: Map<string, string> }> {
  const { tenant, actor } = spec;
  const s = tenant.settings;
  if (spec.items.length === 0) throw errors.validation('Request validation failed', [{ field: 'items', message: 'at least one item' }]);
  const services = await servicesFor(deps.knex, tenant.id, spec.items.map((i) => i.serviceId));
  // Unknown / other-tenant resources: the placement check under the lock answers 404 RESOURCE_NOT_FOUND.
  if (spec.customerId) {
    const c = await deps.knex('customers').select('id').where({ tenantId: tenant.id, id: spec.customerId }).first();
    if (!c) throw errors.notFound('customer');
  }
  const planned = planItems(services, spec.items, spec.start);
  const allowDoubleBooking = s.allowDoubleBooking;
  const initialMode: LockMode = planned.some((i) => i.resourceId === null) ? 'exclusive' : 'shared';

  return withBookingLock(deps.knex, tenant.id, initialMode, async (trx, mode) => {
    const data = await checkPlacement(trx, tenant, planned, { mode, onlineOnly: spec.onlineOnly, allowDoubleBooking });
    let customerId = spec.customerId ?? null;
    if (!customerId && spec.contact) {
      const found = await findOrCreateCustomerByPhone(trx, tenant.id, { name: spec.contact.name, phone: spec.contact.phone, email: spec.contact.email ?? null });
      customerId = found.customer.id;
    }
    const startTime = new Date(Math.min(...planned.map((i) => i.start.getTime())));
    const endTime = new Date(Math.max(...planned.map((i) => i.end.getTime())));
    const locale = (s as unknown as { locale?: string }).locale ?? 'nb-NO';
    const id = crypto.randomUUID();
    const issued = spec.withToken ? issueCancellationToken(deps.secret, id) : null;
    const now = new Date();
    const row: BookingRow = {
      id,
      tenantId: tenant.id,
      customerId,
      resourceId: planned[0].resourceId,
      startTime,
      endTime,
      status: spec.status,
      source: spec.source,
      paymentMode: 'IN_PERSON',
      totalAmount: planned.reduce((sum, i) => sum + i.price, 0),
      discountAmount: 0,
      appliedVoucherId: null,
      cancellationFee: 0,
      depositStatus: null,
      processedForLoyalty: false,
      metadata: { displaySnapshot: { timezone: s.timezone, currency: s.currency, locale } },
      isGuest: spec.isGuest,
      contactName: spec.contact?.name?.trim() ?? null,
      contactPhone: normalisePhone(spec.contact?.phone) ?? null,
      contactEmail: spec.contact?.email ? spec.contact.email.trim().toLowerCase() : null,
      notes: spec.notes ?? spec.contact?.notes ?? null,
      version: 1,
      cancelReason: null,
      cancelledBy: null,
      cancelledAt: null,
      cancellationTokenHash: issued?.hash ?? null,
      allowDoubleBooking,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    };
    const itemRows: ItemRow[] = planned.map((i, index) => ({
      id: crypto.randomUUID(),
      bookingId: id,
      serviceId: i.serviceId,
      serviceName: services.get(i.serviceId)!.name,
      resourceId: i.resourceId,
      startTime: i.start,
      endTime: i.end,
      duration: i.duration,
      price: i.price,
      sortOrder: index,
    }));
    // Booking, items and the audit entry in ONE statement (one round trip inside the transaction).
    // booking_items_no_overlap is checked as the items are inserted; the FK to bookings at the end
    // of the statement, when the booking row exists.
    await trx.raw(
      `WITH b AS (
         INSERT INTO bookings (id, tenant_id, customer_id, resource_id, start_time, end_time, status, source, payment_mode, total_amount,
                               metadata, is_guest, contact_name, contact_phone, contact_email, notes, allow_double_booking, created_by,
                               version, cancellation_token_hash, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
       ), i AS (
         INSERT INTO booking_items (id, booking_id, tenant_id, service_id, resource_id, start_time, end_time, duration, price, sort_order,
                                    is_active, is_exclusive, created_at, updated_at)
         SELECT x.id, ?::uuid, ?::uuid, x.service_id, x.resource_id, x.start_time, x.end_time, x.duration, x.price, x.sort_order, ?, ?, ?, ?
           FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, service_id uuid, resource_id uuid, start_time timestamptz, end_time timestamptz,
                                                  duration int, price int, sort_order int)
       ), a AS (
         INSERT INTO booking_audit_logs (booking_id, tenant_id, actor_user_id, actor_role, action, to_status, changes, created_at)
         VALUES (?, ?, ?, ?, 'CREATED', ?, ?::jsonb, ?)
       )
       SELECT 1`,
      [
        id, tenant.id, row.customerId, row.resourceId, startTime, endTime, row.status, row.source, row.paymentMode, row.totalAmount,
        JSON.stringify(row.metadata), row.isGuest, row.contactName, row.contactPhone, row.contactEmail, row.notes, allowDoubleBooking, actor.userId,
        row.cancellationTokenHash, now, now,
        id, tenant.id, isBlocking(spec.status), !allowDoubleBooking, now, now,
        JSON.stringify(itemRows.map((i) => ({ id: i.id, service_id: i.serviceId, resource_id: i.resourceId, start_time: i.startTime.toISOString(), end_time: i.endTime.toISOString(), duration: i.duration, price: i.price, sort_order: i.sortOrder }))),
        id, tenant.id, actor.userId, actor.role, spec.status, JSON.stringify({ source: spec.source }), now,
      ],
    );
    await signalBooking(deps, row, 'BookingCreated', 1);
    const resourceNames = new Map(data.resources.map((r) => [r.id, r.name]));
    return { booking: toDto(row, itemRows), cancellationToken: issued?.token ?? null, resourceNames };
  });
}

/** POST /bookings (STAFF+): STAFF items must use their own resource (missing = own). */
export async function createStaffBooking(deps: BookingDeps, tenant: TenantContext, actor: Actor, input: CreateInput): Promise<BookingDto> {
  const items = input.items.map((i) => ({ ...i }));
  if (actor.role === 'STAFF') {
    if (!actor.resourceId) throw errors.forbidden('Your login is not linked to a staff resource');
    for (const item of items) {
      if (item.resourceId === undefined || item.resourceId === null) item.resourceId = actor.resourceId;
      else if (item.resourceId !== actor.resourceId) throw errors.forbidden('Staff may only book their own resource');
    }
  }
  if (input.customerId && input.customer) {
    throw errors.validation('Request validation failed', [{ field: 'customer', message: 'give customerId or customer, not both' }]);
  }
  const start = new Date(input.startTime);
  const now = deps.now?.() ?? new Date();
  assertWithinWindow(tenant, start, now);
  const { booking } = await insertBooking(deps, {
    tenant,
    actor,
    items,
    start,
    status: 'CONFIRMED',
    source: input.source ?? 'ADMIN',
    customerId: input.customerId,
    contact: input.customer,
    isGuest: false,
    notes: input.notes,
    onlineOnly: false,
    withToken: false,
  });
  return booking;
}

export interface WalkInInput {
  serviceId: string;
  resourceId?: string | null;
  customerId?: string;
  customer?: ContactInput;
  notes?: string | null;
}

/** POST /bookings/walk-in: IN_PROGRESS, starts now, source WALK_IN; STAFF forced to their own resource. */
export async function createWalkIn(deps: BookingDeps, tenant: TenantContext, actor: Actor, input: WalkInInput): Promise<BookingDto> {
  if (!tenant.settings.walkInEnabled) throw errors.unprocessable('WALK_IN_DISABLED', 'Walk-in bookings are turned off for this salon');
  let resourceId = input.resourceId ?? null;
  if (actor.role === 'STAFF') {
    if (!actor.resourceId) throw errors.forbidden('Your login is not linked to a staff resource');
    if (resourceId !== null && resourceId !== actor.resourceId) throw errors.forbidden('Staff may only register walk-ins for themselves');
    resourceId = actor.resourceId;
  }
  if (input.customerId && input.customer) {
    throw errors.validation('Request validation failed', [{ field: 'customer', message: 'give customerId or customer, not both' }]);
  }
  const now = deps.now?.() ?? new Date();
  now.setMilliseconds(0);
  const { booking } = await insertBooking(deps, {
    tenant,
    actor,
    items: [{ serviceId: input.serviceId, resourceId }],
    start: now,
    status: INITIAL_STATUS_FOR_WALK_IN,
    source: 'WALK_IN',
    customerId: input.customerId,
    contact: input.customer,
    isGuest: false,
    notes: input.notes,
    onlineOnly: false,
    withToken: false,
  });
  return booking;
}

// ------------------------------------------------------------------------------- public portal

/** Billing hook (spec 4.7): lapsed subscriptions will stop bookings here; today only inactive salons do. */
export function isAcceptingBookings(tenant: { isActive: boolean }): boolean {
  return tenant.isActive;
}

export function assertAcceptingBookings(tenant: { isActive: boolean }): void {
  if (!isAcceptingBookings(tenant)) throw errors.conflict('TENANT_NOT_ACCEPTING_BOOKINGS', 'This salon is not taking bookings right now');
}

export interface PublicCreateInput {
  startTime: string;
  items: { serviceId: string; resourceId?: string | null }[];
  customer: ContactInput;
}

export interface PublicBookingDto {
  id: string;
  status: BookingStatus;
  startTime: string;
  endTime: string;
  totalAmount: number;
  currency: string;
  displaySnapshot: { timezone: string; currency: string; locale: string };
  customerName: string | null;
  freeCancellationUntil: string;
  items: { serviceId: string; serviceName: string; resourceId: string | null; resourceName: string | null; startTime: string; endTime: string; price: number }[];
}

async function publicDto(db: Db, tenant: TenantContext, b: BookingDto, known?: Map<string, string>): Promise<PublicBookingDto> {
  const resourceIds = b.items.map((i) => i.resourceId).filter((x): x is string => !!x);
  const names =
    known ??
    new Map<string, string>(
      resourceIds.length ? (await db('resources').select('id', 'name').whereIn('id', resourceIds)).map((r: { id: string; name: string }) => [r.id, r.name]) : [],
    );
  return {
    id: b.id,
    status: b.status,
    startTime: b.startTime,
    endTime: b.endTime,
    totalAmount: b.totalAmount,
    currency: b.metadata.displaySnapshot.currency,
    displaySnapshot: b.metadata.displaySnapshot,
    customerName: b.contact?.name ?? null,
    freeCancellationUntil: new Date(new Date(b.startTime).getTime() - tenant.settings.cancellationHours * 3_600_000).toISOString(),
    items: b.items.map((i) => ({
      serviceId: i.serviceId,
      serviceName: i.serviceName,
      resourceId: i.resourceId,
      resourceName: i.resourceId ? names.get(i.resourceId) ?? null : null,
      startTime: i.startTime,
      endTime: i.endTime,
      price: i.price,
    })),
  };
}

/** POST /public/tenants/:slug/bookings (guest). */
export async function createPublicBooking(
  deps: BookingDeps,
  tenant: TenantContext,
  input: PublicCreateInput,
): Promise<PublicBookingDto & { cancellationToken: string; paymentRequired: boolean }> {
  assertAcceptingBookings(tenant);
  const s = tenant.settings;
  if (s.bookingMode === 'assigned_only') {
    const missing = input.items.findIndex((i) => !i.resourceId);
    if (missing >= 0) {
      throw errors.unprocessable('RESOURCE_REQUIRED', 'This salon requires choosing a staff member', [{ field: `items.${missing}.resourceId`, message: 'is required (bookingMode assigned_only)' }]);
    }
  }
  const start = new Date(input.startTime);
  const now = deps.now?.() ?? new Date();
  if (start.getTime() < now.getTime()) throw errors.unprocessable('BOOKING_IN_PAST', 'The chosen time has already passed', [{ field: 'startTime', message: 'must be in the future' }]);
  assertWithinWindow(tenant, start, now);
  const { booking, cancellationToken, resourceNames } = await insertBooking(deps, {
    tenant,
    actor: { userId: null, role: 'CUSTOMER', resourceId: null },
    items: input.items.map((i) => ({ serviceId: i.serviceId, resourceId: i.resourceId ?? null })),
    start,
    status: initialPublicBookingStatus(s.autoConfirm),
    source: 'ONLINE',
    contact: input.customer,
    isGuest: true,
    notes: input.customer.notes ?? null,
    onlineOnly: true,
    withToken: true,
  });
  return { ...(await publicDto(deps.knex, tenant, booking, resourceNames)), cancellationToken: cancellationToken!, paymentRequired: false };
}

async function guestBooking(deps: BookingDeps, tenant: TenantContext, id: string, proof: { token?: string; phone?: string }): Promise<BookingRow> {
  const row: BookingRow | undefined = await deps.knex('bookings').where({ tenantId: tenant.id, id }).first();
  const phone = normalisePhone(proof.phone);
  const ok =
    !!row &&
    ((proof.token !== undefined && verifyCancellationToken(deps.secret, id, proof.token, row.cancellationTokenHash)) ||
      (phone !== null && row.contactPhone !== null && row.contactPhone === phone));
  // Without a valid proof the booking does not exist for the caller (no leaking by id).
  if (!ok) throw errors.notFound('booking');
  return row!;
}

/** GET /public/tenants/:slug/bookings/:id?token=|phone= */
export async function getPublicBooking(deps: BookingDeps, tenant: TenantContext, id: string, proof: { token?: string; phone?: string }): Promise<PublicBookingDto> {
  await guestBooking(deps, tenant, id, proof);
  return publicDto(deps.knex, tenant, await loadDto(deps.knex, tenant.id, id));
}

/** POST /public/tenants/:slug/bookings/:id/cancel: inside the free window only. */
export async function cancelPublicBooking(
  deps: BookingDeps,
  tenant: TenantContext,
  id: string,
  input: { token?: string; phone?: string; reason?: string },
): Promise<PublicBookingDto> {
  await guestBooking(deps, tenant, id, input);
  const now = deps.now?.() ?? new Date();
  const actor: Actor = { userId: null, role: 'CUSTOMER', resourceId: null };
  await deps.knex.transaction(async (trx) => {
    const row = await lockBookingRow(trx, tenant.id, id);
    if (!isWithinFreeCancellationWindow(new Date(row.startTime), now, tenant.settings.cancellationHours)) {
      throw errors.unprocessable(
        'CANCELLATION_WINDOW_CLOSED',
        `Free cancellation ends ${tenant.settings.cancellationHours} hours before the appointment; please contact the salon`,
      );
    }
    await applyCancellation(deps, trx, tenant, row, actor, { bySalon: false, reason: input.reason ?? null, now });
  });
  return publicDto(deps.knex, tenant, await loadDto(deps.knex, tenant.id, id));
}

// ------------------------------------------------------------------------------- reads

export async function getBooking(deps: BookingDeps, tenantId: string, actor: Actor, id: string): Promise<BookingDto> {
  const dto = await loadDto(deps.knex, tenantId, id);
  await assertStaffScope(deps.knex, actor, dto);
  return dto;
}

export interface ListQuery {
  page: number;
  limit: number;
  status?: string;
  date?: string;
  dateFrom?: string;
  dateTo?: string;
  resourceId?: string;
  sort?: 'createdAt' | 'startTime' | 'endTime' | 'status' | 'updatedAt';
  order?: 'asc' | 'desc';
}

export async function listBookings(deps: BookingDeps, tenant: TenantContext, actor: Actor, q: ListQuery) {
  const tz = tenant.settings.timezone;
  const query = deps.knex('bookings').where({ tenantId: tenant.id });
  if (q.status) {
    const statuses = q.status.split(',').map((x) => x.trim()).filter(Boolean);
    const bad = statuses.filter((x) => !isBookingStatus(x));
    if (!statuses.length || bad.length) throw errors.validation('Request validation failed', [{ field: 'status', message: `unknown status: ${bad.join(', ') || '(empty)'}` }]);
    query.whereIn('status', statuses);
  }
  for (const [field, value] of [['date', q.date], ['dateFrom', q.dateFrom], ['dateTo', q.dateTo]] as const) {
    if (value !== undefined && !isValidLocalDate(value)) throw errors.validation('Request validation failed', [{ field, message: 'must be a valid YYYY-MM-DD date' }]);
  }
  if (q.date) {
    const { start, end } = localDayBoundsUtcMs(q.date, tz);
    query.where('startTime', '>=', new Date(start)).where('startTime', '<', new Date(end));
  }
  if (q.dateFrom) query.where('startTime', '>=', new Date(localDayBoundsUtcMs(q.dateFrom, tz).start));
  if (q.dateTo) query.where('startTime', '<', new Date(localDayBoundsUtcMs(addDays(q.dateTo, 0), tz).end));
  if (q.dateFrom && q.dateTo && q.dateTo < q.dateFrom) throw errors.validation('Request validation failed', [{ field: 'dateTo', message: 'must not be before dateFrom' }]);
  if (q.resourceId) query.where('resourceId', q.resourceId);
  if (actor.role === 'STAFF') {
    const own = actor.resourceId;
    query.where((w) => {
      w.whereNull('resourceId');
      if (own) {
        w.orWhere('resourceId', own).orWhereExists(function (this: Knex.QueryBuilder) {
          this.select(1).from('bookingItems').whereRaw('booking_items.booking_id = bookings.id').where('bookingItems.resourceId', own);
        });
      }
    });
  }
  const [{ count }] = await query.clone().count({ count: '*' });
  const rows: BookingRow[] = await query
    .orderBy([{ column: q.sort ?? 'createdAt', order: q.order ?? 'desc' }, { column: 'id', order: 'asc' }])
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const items = await itemsOf(deps.knex, rows.map((r) => r.id));
  return { rows: rows.map((r) => toDto(r, items)), total: Number(count), page: q.page, limit: q.limit };
}

export interface AuditEntryDto {
  id: string;
  actorUserId: string | null;
  actorRole: string;
  action: string;
  fromStatus: string | null;
  toStatus: string | null;
  reason: string | null;
  forced: boolean;
  changes: Record<string, unknown>;
  createdAt: string;
}

export async function auditLog(deps: BookingDeps, tenantId: string, actor: Actor, id: string, page: { page: number; limit: number }) {
  const booking = await deps.knex('bookings').select('id', 'resourceId').where({ tenantId, id }).first();
  if (!booking) throw errors.notFound('booking');
  await assertStaffScope(deps.knex, actor, booking);
  const base = deps.knex('bookingAuditLogs').where({ tenantId, bookingId: id });
  const [{ count }] = await base.clone().count({ count: '*' });
  const rows = await base
    .orderBy([{ column: 'createdAt', order: 'asc' }, { column: 'id', order: 'asc' }])
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
  return {
    rows: rows.map(
      (r: AuditEntryDto & { createdAt: Date }): AuditEntryDto => ({
        id: r.id,
        actorUserId: r.actorUserId,
        actorRole: r.actorRole,
        action: r.action,
        fromStatus: r.fromStatus,
        toStatus: r.toStatus,
        reason: r.reason,
        forced: r.forced,
        changes: r.changes,
        createdAt: new Date(r.createdAt).toISOString(),
      }),
    ),
    total: Number(count),
    page: page.page,
    limit: page.limit,
  };
}

// ------------------------------------------------------------------------------- lifecycle

async function setStatus(
  deps: BookingDeps,
  trx: Knex.Transaction,
  row: BookingRow,
  to: BookingStatus,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const version = row.version + 1;
  await trx('bookings').update({ status: to, version, updatedAt: new Date(), ...extra }).where({ id: row.id, tenantId: row.tenantId });
  if (isBlocking(row.status) !== isBlocking(to)) {
    await trx('bookingItems').update({ isActive: isBlocking(to), updatedAt: new Date() }).where({ bookingId: row.id });
  }
  return version;
}

/** Re-activating time (e.g. forced CANCELLED -> CONFIRMED) must pass the placement check again. */
async function recheckOwnItems(trx: Knex.Transaction, tenant: TenantContext, row: BookingRow, mode: LockMode): Promise<void> {
  const items: ItemRow[] = await itemsOf(trx, [row.id]);
  await checkPlacement(
    trx,
    tenant,
    items.map((i) => ({ serviceId: i.serviceId, resourceId: i.resourceId, start: new Date(i.startTime), end: new Date(i.endTime), duration: i.duration, price: i.price })),
    { mode, excludeBookingId: row.id, onlineOnly: false, allowDoubleBooking: row.allowDoubleBooking },
  );
}

function transitionError(rejection: string, from: string, to: string) {
  switch (rejection) {
    case 'FORCE_NOT_PERMITTED':
      return errors.forbidden('Only an owner or admin may force a status change');
    case 'FORCE_REASON_REQUIRED':
      return errors.validation('Request validation failed', [{ field: 'reason', message: 'is required when force is true' }]);
    case 'SAME_STATUS':
      return errors.conflict('BOOKING_INVALID_TRANSITION', `The booking is already ${to}`);
    default:
      return errors.conflict('BOOKING_INVALID_TRANSITION', `A booking cannot go from ${from} to ${to}`);
  }
}

/** POST /bookings/:id/status/:status */
export async function changeStatus(
  deps: BookingDeps,
  tenant: TenantContext,
  actor: Actor,
  id: string,
  to: BookingStatus,
  opts: { force?: boolean; reason?: string },
): Promise<BookingDto> {
  if (opts.force && actor.role !== 'OWNER' && actor.role !== 'ADMIN') throw errors.forbidden('Only an owner or admin may force a status change');
  const peek = await deps.knex('bookings').select('status').where({ tenantId: tenant.id, id }).first();
  if (!peek) throw errors.notFound('booking');
  const reactivates = !isBlocking(peek.status) && isBlocking(to);
  const run = async (trx: Knex.Transaction, mode: LockMode | null) => {
    const row = await lockBookingRow(trx, tenant.id, id);
    await assertStaffScope(trx, actor, row);
    const decision = decideTransition(row.status, to, {
      force: opts.force ? { role: actor.role, reason: opts.reason ?? '' } : null,
      bySalon: to === 'CANCELLED' && actor.role !== 'CUSTOMER',
    });
    if (!decision.allowed) throw transitionError(decision.rejection, row.status, to);
    if (to === 'CANCELLED') {
      await applyCancellation(deps, trx, tenant, row, actor, { bySalon: true, reason: opts.reason ?? null, now: deps.now?.() ?? new Date(), forced: decision.forced });
      return;
    }
    if (!isBlocking(row.status) && isBlocking(to)) {
      if (!mode) throw new NeedsExclusiveLock();
      await recheckOwnItems(trx, tenant, row, mode);
    }
    const version = await setStatus(deps, trx, row, to);
    await audit(trx, {
      bookingId: row.id,
      tenantId: tenant.id,
      actor,
      action: 'STATUS_CHANGED',
      fromStatus: row.status,
      toStatus: to,
      reason: decision.auditReason ?? opts.reason ?? null,
      forced: decision.forced,
    });
    await signalBooking(deps, row, eventOf(to), version);
  };
  if (reactivates) await withBookingLock(deps.knex, tenant.id, 'exclusive', run);
  else {
    try {
      await deps.knex.transaction((trx) => run(trx, null));
    } catch (err) {
      // the status changed under us to a non-blocking one: redo under the lock
      if (!(err instanceof NeedsExclusiveLock)) throw err;
      await withBookingLock(deps.knex, tenant.id, 'exclusive', run);
    }
  }
  return loadDto(deps.knex, tenant.id, id);
}

async function applyCancellation(
  deps: BookingDeps,
  trx: Knex.Transaction,
  tenant: TenantContext,
  row: BookingRow,
  actor: Actor,
  opts: { bySalon: boolean; reason: string | null; now: Date; forced?: boolean },
): Promise<void> {
  const decision = decideTransition(row.status, 'CANCELLED', { bySalon: opts.bySalon });
  if (!decision.allowed && !opts.forced) throw transitionError(decision.rejection, row.status, 'CANCELLED');
  const policy = cancellationPolicy(tenant, row, opts.bySalon, opts.now);
  const version = await setStatus(deps, trx, row, 'CANCELLED', {
    cancelReason: opts.reason,
    cancelledBy: actor.role === 'SYSTEM' ? 'SYSTEM' : opts.bySalon ? 'SALON' : 'CUSTOMER',
    cancelledAt: opts.now,
    cancellationFee: policy.cancellationFee,
    ...(policy.depositStatusAfter ? { depositStatus: policy.depositStatusAfter } : {}),
  });
  await audit(trx, {
    bookingId: row.id,
    tenantId: tenant.id,
    actor,
    action: 'CANCELLED',
    fromStatus: row.status,
    toStatus: 'CANCELLED',
    reason: opts.reason,
    forced: opts.forced ?? false,
    changes: { bySalon: opts.bySalon, withinFreeWindow: policy.withinFreeWindow, refundAction: policy.action, cancellationFee: policy.cancellationFee },
  });
  await signalBooking(deps, row, opts.bySalon ? 'BookingCancelledBySalon' : 'BookingCancelled', version);
}

/**
 * Spec 6 refund policy. Deposits (payments) are not implemented yet, so the deposit input is always
 * NONE: no refund, no fee, depositStatus unchanged. The window and the event are still decided
 * here; the payment context will pass the captured/authorized deposit when it exists.
 */
function cancellationPolicy(tenant: TenantContext, row: BookingRow, bySalon: boolean, now: Date): CancellationDecision {
  return decideCancellation({
    bookingStart: new Date(row.startTime),
    now,
    cancellationHours: tenant.settings.cancellationHours,
    cancelledBy: bySalon ? 'SALON' : 'CUSTOMER',
    deposit: { state: 'NONE' },
  });
}

/** POST /bookings/:id/cancel (salon side; `bySalon` false = the customer cancelled through the salon). */
export async function cancelBooking(
  deps: BookingDeps,
  tenant: TenantContext,
  actor: Actor,
  id: string,
  input: { bySalon?: boolean; reason?: string },
): Promise<BookingDto> {
  await deps.knex.transaction(async (trx) => {
    const row = await lockBookingRow(trx, tenant.id, id);
    await assertStaffScope(trx, actor, row);
    await applyCancellation(deps, trx, tenant, row, actor, { bySalon: input.bySalon ?? false, reason: input.reason ?? null, now: deps.now?.() ?? new Date() });
  });
  return loadDto(deps.knex, tenant.id, id);
}

export interface CancelPreviewDto {
  bookingId: string;
  status: BookingStatus;
  startTime: string;
  cancellationHours: number;
  freeCancellationUntil: string;
  cancelledBy: 'CUSTOMER' | 'SALON';
  deposit: 'NONE' | 'CAPTURED';
  withinFreeWindow: boolean;
  action: string;
  refundAmount: number;
  cancellationFee: number;
  depositStatusAfter: string | null;
  captureRequired: boolean;
  event: string;
  cancellable: boolean;
}

export async function cancelPreview(deps: BookingDeps, tenant: TenantContext, actor: Actor, id: string, bySalon: boolean): Promise<CancelPreviewDto> {
  const row: BookingRow | undefined = await deps.knex('bookings').where({ tenantId: tenant.id, id }).first();
  if (!row) throw errors.notFound('booking');
  await assertStaffScope(deps.knex, actor, row);
  const now = deps.now?.() ?? new Date();
  const p = cancellationPolicy(tenant, row, bySalon, now);
  return {
    bookingId: row.id,
    status: row.status,
    startTime: iso(row.startTime)!,
    cancellationHours: tenant.settings.cancellationHours,
    freeCancellationUntil: new Date(new Date(row.startTime).getTime() - tenant.settings.cancellationHours * 3_600_000).toISOString(),
    cancelledBy: bySalon ? 'SALON' : 'CUSTOMER',
    deposit: 'NONE',
    withinFreeWindow: p.withinFreeWindow,
    action: p.action,
    refundAmount: p.refundAmount,
    cancellationFee: p.cancellationFee,
    depositStatusAfter: p.depositStatusAfter,
    captureRequired: p.captureRequired,
    event: p.event,
    cancellable: decideTransition(row.status, 'CANCELLED').allowed,
  };
}

export interface PatchInput {
  startTime?: string;
  resourceId?: string | null;
  notes?: string | null;
}

/** PATCH /bookings/:id: reschedule (whole booking shifts), reassign (all items), notes. */
export async function updateBooking(deps: BookingDeps, tenant: TenantContext, actor: Actor, id: string, patch: PatchInput): Promise<BookingDto> {
  const moving = patch.startTime !== undefined || patch.resourceId !== undefined;
  if (patch.resourceId) await assertResourcesExist(deps.knex, tenant.id, [patch.resourceId]);
  const run = async (trx: Knex.Transaction, mode: LockMode | null) => {
    const row = await lockBookingRow(trx, tenant.id, id);
    await assertStaffScope(trx, actor, row);
    if (actor.role === 'STAFF' && patch.resourceId !== undefined && patch.resourceId !== row.resourceId) {
      throw errors.forbidden('Staff may not move a booking to another resource');
    }
    const changes: Record<string, unknown> = {};
    const update: Record<string, unknown> = {};
    let event: BookingEventType = 'BookingUpdated';
    if (patch.notes !== undefined && patch.notes !== row.notes) {
      changes.notes = { from: row.notes, to: patch.notes };
      update.notes = patch.notes;
    }
    if (moving) {
      if (!isBlocking(row.status) || row.status === 'COMPLETED') {
        throw errors.conflict('BOOKING_NOT_MODIFIABLE', `A ${row.status} booking cannot be moved`);
      }
      const items = await itemsOf(trx, [row.id]);
      const delta = patch.startTime !== undefined ? new Date(patch.startTime).getTime() - new Date(row.startTime).getTime() : 0;
      const planned: (PlannedItem & { id: string })[] = items
        .sort((a, b) => a.sortOrder - b.sortOrder)
        .map((i) => ({
          id: i.id,
          serviceId: i.serviceId,
          resourceId: patch.resourceId !== undefined ? patch.resourceId : i.resourceId,
          start: new Date(new Date(i.startTime).getTime() + delta),
          end: new Date(new Date(i.endTime).getTime() + delta),
          duration: i.duration,
          price: i.price,
        }));
      if (!mode) throw new NeedsExclusiveLock();
      await checkPlacement(trx, tenant, planned, { mode, excludeBookingId: row.id, onlineOnly: false, allowDoubleBooking: row.allowDoubleBooking });
      for (const p of planned) {
        await trx('bookingItems').update({ resourceId: p.resourceId, startTime: p.start, endTime: p.end, updatedAt: new Date() }).where({ id: p.id });
      }
      const newStart = new Date(Math.min(...planned.map((p) => p.start.getTime())));
      const newEnd = new Date(Math.max(...planned.map((p) => p.end.getTime())));
      if (delta !== 0) {
        changes.startTime = { from: iso(row.startTime), to: newStart.toISOString() };
        event = 'BookingRescheduled';
      }
      const newResource = planned[0].resourceId;
      if (newResource !== row.resourceId) {
        changes.resourceId = { from: row.resourceId, to: newResource };
        if (event !== 'BookingRescheduled') event = 'BookingReassigned';
      }
      Object.assign(update, { startTime: newStart, endTime: newEnd, resourceId: newResource });
    }
    if (Object.keys(changes).length === 0) return;
    const version = row.version + 1;
    await trx('bookings').update({ ...update, version, updatedAt: new Date() }).where({ id: row.id });
    await audit(trx, { bookingId: row.id, tenantId: tenant.id, actor, action: event === 'BookingUpdated' ? 'UPDATED' : event === 'BookingRescheduled' ? 'RESCHEDULED' : 'REASSIGNED', changes });
    await signalBooking(deps, row, event, version);
  };
  if (moving) {
    await withBookingLock(deps.knex, tenant.id, 'shared', (trx, mode) => run(trx, mode));
  } else {
    await deps.knex.transaction((trx) => run(trx, null));
  }
  return loadDto(deps.knex, tenant.id, id);
}

/**
 * POST /bookings/:id/self-pick: the caller's resource takes an unassigned booking. Needs the skill
 * for every item and free time; first come first served (exclusive lock + compare-and-set on
 * resource_id IS NULL). Spec 5.4: otherwise 403.
 */
export async function selfPick(deps: BookingDeps, tenant: TenantContext, actor: Actor, id: string): Promise<BookingDto> {
  const exists = await deps.knex('bookings').select('id').where({ tenantId: tenant.id, id }).first();
  if (!exists) throw errors.notFound('booking');
  if (!actor.resourceId) throw errors.forbidden('Your login is not linked to a staff resource');
  const me = actor.resourceId;
  await withBookingLock(deps.knex, tenant.id, 'exclusive', async (trx, mode) => {
    const row = await lockBookingRow(trx, tenant.id, id);
    if (row.resourceId !== null) throw errors.forbidden('This booking is already assigned');
    if (!isBlocking(row.status) || row.status === 'COMPLETED') throw errors.conflict('BOOKING_NOT_MODIFIABLE', `A ${row.status} booking cannot be picked`);
    const items = await itemsOf(trx, [row.id]);
    const skills: string[] = (await trx('resourceSkills').select('serviceId').where({ tenantId: tenant.id, resourceId: me })).map((r: { serviceId: string }) => r.serviceId);
    if (items.some((i) => !skills.includes(i.serviceId))) throw errors.forbidden('You do not have the skill for this service');
    const planned = items.map((i) => ({
      serviceId: i.serviceId,
      resourceId: i.resourceId ?? me,
      start: new Date(i.startTime),
      end: new Date(i.endTime),
      duration: i.duration,
      price: i.price,
    }));
    await checkPlacement(trx, tenant, planned, { mode, excludeBookingId: row.id, onlineOnly: false, allowDoubleBooking: row.allowDoubleBooking });
    const updated = await trx('bookings')
      .update({ resourceId: me, version: row.version + 1, updatedAt: new Date() })
      .where({ id: row.id, tenantId: tenant.id })
      .whereNull('resourceId')
      .returning('version');
    if (updated.length !== 1) throw errors.forbidden('This booking is already assigned');
    await trx('bookingItems').update({ resourceId: me, updatedAt: new Date() }).where({ bookingId: row.id }).whereNull('resourceId');
    await audit(trx, { bookingId: row.id, tenantId: tenant.id, actor, action: 'SELF_PICKED', changes: { resourceId: { from: null, to: me } } });
    await signalBooking(deps, row, 'BookingReassigned', row.version + 1);
  });
  return loadDto(deps.knex, tenant.id, id);
}
