/**
 * Booking creation (docs/rules/booking.md): staff (POST /bookings), walk-in (POST /bookings/walk-in)
 * and guest (POST /public/tenants/:slug/bookings). One transaction under the tenant booking lock:
 * the visit placed part by part (booking-reservation.ts), customer, booking + items + segments +
 * audit row in one statement, signal before commit.
 */
import crypto from 'node:crypto';
import { errors } from '../errors';
import { activeServicesById, beyondWindow } from '../availability/availability.service';
import type { TenantContext } from '../tenant/tenant-context';
import { effectiveMaxBookingDays, lastBookableLocalDate } from '../availability/booking-window.rules';
import { isBlockingStatus } from '../availability/working-hours.rules';
import { utcToLocalDate } from '../time/salon-time.rules';
import { requireApiDateTime } from '../time/iso';
import { recordMarketingConsent } from '../customer/marketing-consent.service';
import { findOrCreateCustomerByPhone } from '../customer/customer.service';
import { phoneRegionOf, requirePhone } from '../phone/phone.rules';
import { languageOfLocale, type Language } from '../language/language.rules';
import { findCustomer } from '../customer/customer.repository';
import { initialPublicBookingStatus, INITIAL_STATUS_FOR_WALK_IN, type BookingStatus } from './booking-status.rules';
import { lockTenantBookingsReadingServices, withBookingLock, type LockMode } from './booking-lock';
import type { Transaction } from '../../db/db-handle';
import { issueCancellationToken } from './cancellation-token';
import { createBooking } from './booking-change';
import { choosesRooms, planItems, placeVisit, retryingTakenRooms, segmentRows, segmentsOfItem, spanOf } from './booking-reservation';
import { ownResourceOf } from './booking-scope';
import { toDto, type BookingDto } from './booking.dto';
import { setDepositStatus } from './booking.repository';
import { publicDto, type PublicBookingDto } from './booking-public.dto';
import { assertAcceptingBookings } from './accepting-bookings.rules';
import { voucherGuestNotAllowed } from './booking-errors';
import { isRecordedAfterTheFact, RECORDED_AFTER_THE_FACT } from './booking-past.rules';
import { nowOf } from '../time/clock';
import {
  GUEST_ACTOR,
  type Actor,
  type BookingDeps,
  type BookingRow,
  type BookingSource,
  type ContactInput,
  type ItemInput,
  type ItemRow,
} from './booking.types';

export interface CreateInput {
  startTime: string;
  items: ItemInput[];
  customerId?: string;
  customer?: ContactInput;
  source?: 'PHONE' | 'ADMIN';
  notes?: string | null;
  voucherCode?: string;
  /** a series' occurrence: the booking gets a cancellation token, so its messages carry the manage link */
  withManageLink?: boolean;
  /** a series' occurrence: the language of the series' first booking (docs/rules/messages.md#language); unset: the salon's */
  language?: Language;
}

export interface WalkInInput {
  serviceId: string;
  resourceId?: string | null;
  customerId?: string;
  customer?: ContactInput;
  notes?: string | null;
}

export interface PublicCreateInput {
  startTime: string;
  items: { serviceId: string; resourceId?: string | null }[];
  customer: ContactInput;
  voucherCode?: string;
  /** the customer ticked the booking page's marketing checkbox (docs/rules/personal-data.md#consent) */
  marketingConsent?: boolean;
  /** the language the customer booked in (the salon's when left out) */
  language?: Language;
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
  /** salon side, start already passed: see booking-past.rules.ts */
  recordedAfterTheFact?: boolean;
  /** reserved for this booking in its transaction (docs/rules/loyalty.md#vouchers); needs the booking's customer */
  voucherCode?: string;
  /** public booking by a signed-in customer: the booking is the account's (not a guest's) */
  customerAccountId?: string;
  /** the customer's language (docs/rules/messages.md#language); unset: the salon's */
  language?: Language;
  /** a consent to marketing given with the booking (the booking page's checkbox) */
  marketingConsent?: boolean;
}

/** A start past the booking window (salon-local last bookable date): 422 DATE_BEYOND_BOOKING_WINDOW. */
export function assertWithinWindow(tenant: TenantContext, start: Date, now: Date): void {
  const s = tenant.settings;
  const lastDate = lastBookableLocalDate(now, s.timezone, effectiveMaxBookingDays(s));
  if (lastDate !== null && utcToLocalDate(start, s.timezone) > lastDate) throw beyondWindow(lastDate, 'startTime');
}

/** `paymentMode` of a new booking: online bookings of deposit tenants pay online; the salon's own bookings are IN_PERSON (docs/rules/payments.md#deposits). */
function bookingPaymentMode(settings: { depositEnabled: boolean }, source: BookingSource): 'ONLINE' | 'IN_PERSON' {
  return settings.depositEnabled && source === 'ONLINE' ? 'ONLINE' : 'IN_PERSON';
}

function assertOneCustomer(input: { customerId?: string; customer?: ContactInput }): void {
  if (input.customerId && input.customer) {
    throw errors.validation('Request validation failed', [{ field: 'customer', message: 'give customerId or customer, not both' }]);
  }
}

/** What staff and walk-in bookings share: a known or new customer, no guest token, any staff. */
function salonSide(input: { customerId?: string; customer?: ContactInput; notes?: string | null }) {
  return { customerId: input.customerId, contact: input.customer, isGuest: false, notes: input.notes, onlineOnly: false, withToken: false };
}

async function insertBooking(
  deps: BookingDeps,
  spec: InsertSpec,
): Promise<{ booking: BookingDto; cancellationToken: string | null; resourceNames: Map<string, string>; paymentRequired: boolean }> {
  const { tenant, actor } = spec;
  const s = tenant.settings;
  // the contact's number in E.164, read in the salon's country (docs/rules/conventions.md#phone-numbers)
  const region = phoneRegionOf(tenant);
  const contactPhone = spec.contact ? requirePhone(spec.contact.phone, region, 'customer.phone') : null;
  if (spec.items.length === 0) throw errors.validation('Request validation failed', [{ field: 'items', message: 'at least one item' }]);
  const serviceIds = [...new Set(spec.items.map((i) => i.serviceId))];
  const allowDoubleBooking = s.allowDoubleBooking;
  const initialMode: LockMode = spec.items.some((i) => (i.resourceId ?? null) === null) ? 'exclusive' : 'shared';
  // The services come back with the lock, in its round trip (booking-lock.ts).
  const lockReadingServices = (trx: Transaction, mode: LockMode) => lockTenantBookingsReadingServices(trx, tenant.id, mode, serviceIds);

  let roomsChosen = false;
  const write = () =>
    withBookingLock(
      deps.knex,
      tenant.id,
      initialMode,
      async (trx, mode, serviceRows) => {
        const services = activeServicesById(serviceRows, serviceIds);
        // Unknown / other-tenant resources: the placement check under the lock answers 404 RESOURCE_NOT_FOUND.
        if (spec.customerId && !(await findCustomer(trx, tenant.id, spec.customerId))) throw errors.notFound('customer');
        const planned = planItems(services, spec.items, spec.start);
        roomsChosen = choosesRooms(planned);
        const placed = await placeVisit(trx, tenant, planned, { mode, onlineOnly: spec.onlineOnly, allowDoubleBooking });
        let customerId = spec.customerId ?? null;
        // whose vouchers the booking may use: the salon's chosen customer, or a signed-in customer's own record only
        let voucherOwner = customerId;
        if (!customerId && spec.customerAccountId && spec.contact) {
          const forAccount = await deps.bookingHooks.accountCustomer(trx, {
            tenantId: tenant.id,
            region,
            accountId: spec.customerAccountId,
            contact: { ...spec.contact, phone: contactPhone! },
          });
          customerId = forAccount.customerId;
          voucherOwner = forAccount.ownedByAccount ? forAccount.customerId : null;
        } else if (!customerId && spec.contact) {
          customerId = voucherOwner = (
            await findOrCreateCustomerByPhone(trx, tenant.id, { name: spec.contact.name, phone: contactPhone!, email: spec.contact.email ?? null }, region)
          ).id;
        }
        const { start: startTime, end: endTime } = spanOf(planned);
        const locale = (s as unknown as { locale?: string }).locale ?? 'nb-NO';
        const id = crypto.randomUUID();
        const issued = spec.withToken ? issueCancellationToken(deps.manageLinkKey, id) : null;
        const now = nowOf(deps);
        // the booking page's checkbox: a consent to marketing, recorded with its source (docs/rules/personal-data.md#consent)
        if (spec.marketingConsent && customerId)
          await recordMarketingConsent(trx, { tenantId: tenant.id, customerId, granted: true, source: 'BOOKING_PAGE', at: now });
        const totalAmount = planned.reduce((sum, i) => sum + i.price, 0);
        const voucher = spec.voucherCode
          ? await deps.bookingHooks.reserveVoucher(trx, deps.signaller, {
              tenantId: tenant.id,
              code: spec.voucherCode,
              customerId: voucherOwner,
              bookingId: id,
              bookingTotal: totalAmount,
              actor,
              now,
            })
          : null;
        const row: BookingRow = {
          id,
          tenantId: tenant.id,
          customerId,
          resourceId: planned[0].resourceId,
          startTime,
          endTime,
          status: spec.status,
          source: spec.source,
          paymentMode: bookingPaymentMode(s, spec.source),
          totalAmount,
          discountAmount: voucher?.discountAmount ?? 0,
          appliedVoucherId: voucher?.appliedVoucherId ?? null,
          cancellationFee: 0,
          depositStatus: null,
          processedForLoyalty: false,
          metadata: {
            displaySnapshot: { timezone: s.timezone, currency: s.currency, locale },
            ...(spec.recordedAfterTheFact ? { [RECORDED_AFTER_THE_FACT]: true } : {}),
          },
          isGuest: spec.isGuest,
          contactName: spec.contact?.name?.trim() ?? null,
          contactPhone,
          contactEmail: spec.contact?.email ? spec.contact.email.trim().toLowerCase() : null,
          notes: spec.notes ?? spec.contact?.notes ?? null,
          version: 1,
          cancelReason: null,
          cancelledBy: null,
          cancelledAt: null,
          cancellationTokenHash: issued?.hash ?? null,
          allowDoubleBooking,
          createdBy: actor.userId,
          customerAccountId: spec.customerAccountId ?? null,
          language: spec.language ?? languageOfLocale(locale),
          calendarSequence: 0,
          confirmedAt: null,
          confirmedVia: null,
          unconfirmedFlaggedAt: null,
          createdAt: now,
          updatedAt: now,
        };
        const flags = { isActive: isBlockingStatus(spec.status), isExclusive: !allowDoubleBooking };
        const itemIds = planned.map(() => crypto.randomUUID());
        const segments = segmentRows(tenant.id, id, itemIds, placed.parts, flags);
        const itemRows: ItemRow[] = planned.map((i, index) => ({
          id: itemIds[index],
          bookingId: id,
          serviceId: i.serviceId,
          serviceName: services.get(i.serviceId)!.name,
          resourceId: i.resourceId,
          startTime: i.start,
          endTime: i.end,
          duration: i.duration,
          price: i.price,
          sortOrder: index,
          segments: segmentsOfItem(segments, itemIds[index]),
        }));
        // Booking, items, their segments and the audit entry in ONE statement (the hot path), then the signal.
        await createBooking(
          deps,
          trx,
          row,
          itemRows.map(({ serviceName: _name, segments: _segments, ...item }) => ({ ...item, tenantId: tenant.id, ...flags, createdAt: now, updatedAt: now })),
          segments,
          {
            audit: {
              actor,
              action: 'CREATED',
              toStatus: spec.status,
              changes: { source: spec.source, ...(spec.recordedAfterTheFact ? { [RECORDED_AFTER_THE_FACT]: true } : {}) },
            },
            event: spec.recordedAfterTheFact ? 'BookingRecordedAfterTheFact' : 'BookingCreated',
          },
        );
        // BookingCreated: the deposit, in this transaction (payments, through booking-hooks.ts)
        const deposit = await deps.bookingHooks.startDeposit(deps.signaller, trx, tenant, row, now);
        if (deposit.depositStatus) await setDepositStatus(trx, id, (row.depositStatus = deposit.depositStatus));
        const resourceNames = new Map(placed.data.resources.map((r) => [r.id, r.name]));
        return { booking: toDto(row, itemRows), cancellationToken: issued?.token ?? null, resourceNames, paymentRequired: deposit.paymentRequired };
      },
      lockReadingServices,
    );
  return retryingTakenRooms(write, () => roomsChosen);
}

/** POST /bookings (STAFF+): STAFF items must use their own resource (missing = own). */
export async function createStaffBooking(deps: BookingDeps, tenant: TenantContext, actor: Actor, input: CreateInput): Promise<BookingDto> {
  const items = input.items.map((i) => ({ ...i }));
  if (actor.role === 'STAFF') {
    const own = ownResourceOf(actor);
    for (const item of items) {
      if (item.resourceId === undefined || item.resourceId === null) item.resourceId = own;
      else if (item.resourceId !== own) throw errors.forbidden('Staff may only book their own resource');
    }
  }
  assertOneCustomer(input);
  const start = requireApiDateTime(input.startTime, 'startTime');
  const now = nowOf(deps);
  assertWithinWindow(tenant, start, now);
  const { booking } = await insertBooking(deps, {
    recordedAfterTheFact: isRecordedAfterTheFact(start, now),
    tenant,
    actor,
    items,
    start,
    status: 'CONFIRMED',
    source: input.source ?? 'ADMIN',
    ...salonSide(input),
    withToken: input.withManageLink ?? false,
    voucherCode: input.voucherCode,
    language: input.language,
  });
  return booking;
}

/** POST /bookings/walk-in: IN_PROGRESS, starts now, source WALK_IN; STAFF forced to their own resource. */
export async function createWalkIn(deps: BookingDeps, tenant: TenantContext, actor: Actor, input: WalkInInput): Promise<BookingDto> {
  if (!tenant.settings.walkInEnabled) throw errors.unprocessable('WALK_IN_DISABLED', 'Walk-in bookings are turned off for this salon');
  let resourceId = input.resourceId ?? null;
  if (actor.role === 'STAFF') {
    const own = ownResourceOf(actor);
    if (resourceId !== null && resourceId !== own) throw errors.forbidden('Staff may only register walk-ins for themselves');
    resourceId = own;
  }
  assertOneCustomer(input);
  const now = nowOf(deps);
  now.setMilliseconds(0);
  const { booking } = await insertBooking(deps, {
    tenant,
    actor,
    items: [{ serviceId: input.serviceId, resourceId }],
    start: now,
    status: INITIAL_STATUS_FOR_WALK_IN,
    source: 'WALK_IN',
    ...salonSide(input),
  });
  return booking;
}

/**
 * POST /public/tenants/:slug/bookings: a guest, or a signed-in customer's account. Only a
 * signed-in customer may apply a voucher (guests: 422 LOYALTY_VOUCHER_GUEST_NOT_ALLOWED).
 */
export async function createPublicBooking(
  deps: BookingDeps,
  tenant: TenantContext,
  input: PublicCreateInput,
  customerAccountId?: string,
): Promise<PublicBookingDto & { cancellationToken: string; paymentRequired: boolean }> {
  if (input.voucherCode !== undefined && !customerAccountId) throw voucherGuestNotAllowed();
  const now = nowOf(deps);
  assertAcceptingBookings(tenant, now);
  const s = tenant.settings;
  if (s.bookingMode === 'assigned_only') {
    const missing = input.items.findIndex((i) => !i.resourceId);
    if (missing >= 0) {
      throw errors.unprocessable('RESOURCE_REQUIRED', 'This salon requires choosing a staff member', [
        { field: `items.${missing}.resourceId`, message: 'is required (bookingMode assigned_only)' },
      ]);
    }
  }
  const start = requireApiDateTime(input.startTime, 'startTime');
  if (start.getTime() < now.getTime())
    throw errors.unprocessable('BOOKING_IN_PAST', 'The chosen time has already passed', [{ field: 'startTime', message: 'must be in the future' }]);
  assertWithinWindow(tenant, start, now);
  const { booking, cancellationToken, resourceNames, paymentRequired } = await insertBooking(deps, {
    tenant,
    actor: GUEST_ACTOR,
    items: input.items.map((i) => ({ serviceId: i.serviceId, resourceId: i.resourceId ?? null })),
    start,
    status: initialPublicBookingStatus(s.autoConfirm),
    source: 'ONLINE',
    contact: input.customer,
    isGuest: !customerAccountId,
    customerAccountId,
    notes: input.customer.notes ?? null,
    onlineOnly: true,
    withToken: true,
    voucherCode: customerAccountId ? input.voucherCode : undefined,
    language: input.language,
    marketingConsent: input.marketingConsent,
  });
  return { ...(await publicDto(deps.knex, tenant, booking, resourceNames)), cancellationToken: cancellationToken!, paymentRequired };
}
