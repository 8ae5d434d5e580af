/**
 * The ways a booking is made (docs/rules/booking.md#creating-a-booking): by staff (POST /bookings),
 * as a walk-in (POST /bookings/walk-in) and by a guest or signed-in customer (POST
 * /public/tenants/:slug/bookings, and the booking page's form). Each checks its own request and
 * hands it to the one story of a new booking (booking-insert.service.ts).
 */
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { requireApiDateTime } from '../time/iso';
import type { Language } from '../language/language.rules';
import { nowOf } from '../time/clock';
import { initialPublicBookingStatus, INITIAL_STATUS_FOR_WALK_IN } from './booking-status.rules';
import { insertBooking } from './booking-insert.service';
import { ownResourceOf } from './booking-access.service';
import type { BookingDto } from './booking.dto';
import { publicDto, type PublicBookingDto } from './booking-public.dto';
import { assertAcceptingBookings } from './accepting-bookings.rules';
import { voucherGuestNotAllowed } from './booking-errors.rules';
import { isRecordedAfterTheFact } from './booking-past.rules';
import { assertNotPassed, assertOnSlotGrid, assertWithinWindow } from './booking-start.rules';
import { GUEST_ACTOR, type Actor, type BookingDeps, type ContactInput, type ItemInput } from './booking.types';

export interface CreateInput {
  startTime: string;
  items: ItemInput[];
  customerId?: string;
  customer?: ContactInput;
  source?: 'PHONE' | 'ADMIN';
  notes?: string | null;
  voucherCode?: string;
  /** the booking gets a manage token, so its messages carry the manage link */
  withManageLink?: boolean;
  /** the customer's language (docs/rules/messages.md#language); unset: the salon's */
  language?: Language;
}

/** A standing appointment's occurrence: who made the series decides whose booking it is. */
export interface OccurrenceInput {
  startTime: string;
  items: ItemInput[];
  customerId: string;
  /** STAFF: the salon's own series; CUSTOMER: the one a signed-in customer made (their account's, when it still exists) */
  madeBy: { via: 'STAFF' } | { via: 'CUSTOMER'; customerAccountId: string | null };
  /** the language of the series' first booking (docs/rules/messages.md#language) */
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

function assertOneCustomer(input: { customerId?: string; customer?: ContactInput }): void {
  if (input.customerId && input.customer) {
    throw errors.validation('Request validation failed', [{ field: 'customer', message: 'give customerId or customer, not both' }]);
  }
}

/** What staff and walk-in bookings share: a known or new customer, no manage link, any staff. */
function salonSide(input: { customerId?: string; customer?: ContactInput; notes?: string | null }) {
  return { customerId: input.customerId, contact: input.customer, isGuest: false, notes: input.notes, onlineOnly: false, withManageLink: false };
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
    withManageLink: input.withManageLink ?? false,
    voucherCode: input.voucherCode,
    language: input.language,
  });
  return booking;
}

/**
 * A standing appointment's occurrence (docs/rules/series.md#booking-an-occurrence), booked as its
 * series' own kind of booking is made, through the one story of a new booking: a series the salon
 * made books the salon's own bookings (CONFIRMED, paid in person, as POST /bookings); a series a
 * customer made books theirs as a public booking is made: PENDING until the salon approves it when
 * autoConfirm is off, online with the salon's deposit when deposits are on (BookingHooks.startDeposit),
 * with staff who take online bookings. Both carry the manage link.
 */
export async function createOccurrenceBooking(deps: BookingDeps, tenant: TenantContext, actor: Actor, input: OccurrenceInput): Promise<BookingDto> {
  if (input.madeBy.via === 'STAFF') {
    const { startTime, items, customerId, language } = input;
    return createStaffBooking(deps, tenant, actor, { startTime, items, customerId, language, source: 'ADMIN', withManageLink: true });
  }
  const start = requireApiDateTime(input.startTime, 'startTime');
  const now = nowOf(deps);
  assertNotPassed(start, now);
  assertWithinWindow(tenant, start, now);
  const { booking } = await insertBooking(deps, {
    tenant,
    actor,
    items: input.items,
    start,
    status: initialPublicBookingStatus(tenant.settings.autoConfirm),
    source: 'ONLINE',
    customerId: input.customerId,
    isGuest: false,
    customerAccountId: input.madeBy.customerAccountId ?? undefined,
    onlineOnly: true,
    withManageLink: true,
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
 * POST /public/tenants/:slug/bookings (and both booking pages): a guest, or a signed-in customer's
 * account. Only a signed-in customer may apply a voucher (guests: 422 LOYALTY_VOUCHER_GUEST_NOT_ALLOWED).
 * "Anyone" (an item without resourceId) is the placement's to decide (booking-placement.service.ts).
 */
export async function createPublicBooking(
  deps: BookingDeps,
  tenant: TenantContext,
  input: PublicCreateInput,
  customerAccountId?: string,
): Promise<PublicBookingDto & { manageToken: string; cancellationToken: string; paymentRequired: boolean }> {
  if (input.voucherCode !== undefined && !customerAccountId) throw voucherGuestNotAllowed();
  const now = nowOf(deps);
  assertAcceptingBookings(tenant, now);
  const s = tenant.settings;
  const start = requireApiDateTime(input.startTime, 'startTime');
  assertNotPassed(start, now);
  assertWithinWindow(tenant, start, now);
  assertOnSlotGrid(tenant, start);
  const { booking, manageToken, resourceNames, paymentRequired } = await insertBooking(deps, {
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
    withManageLink: true,
    voucherCode: customerAccountId ? input.voucherCode : undefined,
    language: input.language,
    marketingConsent: input.marketingConsent,
  });
  // cancellationToken: the released name of manageToken (docs/api/changelog.md: kept until 2027-06-01)
  return { ...(await publicDto(deps.knex, tenant, booking, resourceNames)), manageToken: manageToken!, cancellationToken: manageToken!, paymentRequired };
}
