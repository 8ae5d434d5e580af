/**
 * A new booking, whoever asks for it (booking-create.service.ts: staff, walk-in, guest), as one
 * story in one transaction under the tenant booking lock: plan the visit, place it, resolve the
 * customer, reserve the voucher, write the booking, its items, their segments and the audit row in
 * one statement with the signal before commit, then start its deposit (docs/rules/booking.md#creating-a-booking).
 * A room taken by a write that committed first runs the story again (retryingTakenRooms).
 */
import crypto from 'node:crypto';
import { errors } from '../errors';
import type { Transaction } from '../../db/db-handle';
import { activeServicesById } from '../availability/availability.service';
import type { TenantContext } from '../tenant/tenant-context';
import { findOrCreateCustomerByPhone } from '../customer/customer.service';
import { findCustomer } from '../customer/customer.repository';
import { recordMarketingConsent } from '../customer/marketing-consent.service';
import { phoneRegionOf, requirePhone } from '../phone/phone.rules';
import type { Language } from '../language/language.rules';
import { nowOf } from '../time/clock';
import type { BookingStatus } from './booking-status.rules';
import { lockTenantBookingsReadingServices, retryingTakenRooms, withBookingLock, type LockMode } from './booking-lock.service';
import { choosesRooms, planItems, type PlannedItem } from './booking-plan.rules';
import { placeVisit } from './booking-placement.service';
import { newBookingRow, newItemRows, totalOf, type NewBooking } from './booking-rows.rules';
import { createBooking } from './booking-change.service';
import { issueManageToken } from './manage-link.service';
import { setDepositStatus } from './booking.repository';
import { toDto, type BookingDto } from './booking.dto';
import { RECORDED_AFTER_THE_FACT } from './booking-past.rules';
import type { Actor, BookingDeps, BookingSource, ContactInput, ItemInput } from './booking.types';

/** What is booked, for whom and by whom: the entry points' request, checked. */
export interface NewBookingRequest {
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
  /** the public portal: staff must be bookable online */
  onlineOnly: boolean;
  /** the booking gets a manage token, so its messages carry the manage link */
  withManageLink: boolean;
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

export interface InsertedBooking {
  booking: BookingDto;
  /** the manage link's token, handed out this once; null without a manage link */
  manageToken: string | null;
  /** the staff members' names by id, as the placement read them */
  resourceNames: Map<string, string>;
  /** the customer goes on to pay a deposit */
  paymentRequired: boolean;
}

export async function insertBooking(deps: BookingDeps, request: NewBookingRequest): Promise<InsertedBooking> {
  const { tenant } = request;
  // the contact's number in E.164, read in the salon's country (docs/rules/conventions.md#phone-numbers)
  const contactPhone = request.contact ? requirePhone(request.contact.phone, phoneRegionOf(tenant), 'customer.phone') : null;
  if (request.items.length === 0) throw errors.validation('Request validation failed', [{ field: 'items', message: 'at least one item' }]);
  const serviceIds = [...new Set(request.items.map((i) => i.serviceId))];
  // an unassigned item decides on capacity others count on: the exclusive lock (booking-lock.service.ts)
  const initialMode: LockMode = request.items.some((i) => (i.resourceId ?? null) === null) ? 'exclusive' : 'shared';
  let roomsChosen = false;

  const write = () =>
    withBookingLock(
      deps.knex,
      tenant.id,
      initialMode,
      async (trx, mode, serviceRows) => {
        const services = activeServicesById(serviceRows, serviceIds);
        // Unknown / other-tenant resources: the placement check under the lock answers 404 RESOURCE_NOT_FOUND.
        if (request.customerId && !(await findCustomer(trx, tenant.id, request.customerId))) throw errors.notFound('customer');
        const visit = planItems(services, request.items, request.start);
        roomsChosen = choosesRooms(visit);
        const placed = await placeVisit(trx, tenant, visit, {
          mode,
          onlineOnly: request.onlineOnly,
          allowDoubleBooking: tenant.settings.allowDoubleBooking,
          assignsStaff: true,
        });
        // the visit as placed: an "anyone" item of a salon that assigns every booking has its staff member now
        const planned = placed.items;
        const customer = await resolveCustomer(deps, trx, request, contactPhone);
        const now = nowOf(deps);
        // the booking page's checkbox: a consent to marketing, recorded with its source (docs/rules/personal-data.md#consent)
        if (request.marketingConsent && customer.customerId)
          await recordMarketingConsent(trx, { tenantId: tenant.id, customerId: customer.customerId, granted: true, source: 'BOOKING_PAGE', at: now });
        const id = crypto.randomUUID();
        const issued = request.withManageLink ? issueManageToken(deps.manageLinkKey, id) : null;
        const voucher = await reserveVoucher(deps, trx, request, { bookingId: id, voucherOwner: customer.voucherOwner, planned, now });
        const booking: NewBooking = {
          ...request,
          id,
          planned,
          parts: placed.parts,
          customerId: customer.customerId,
          contactPhone,
          voucher,
          manageTokenHash: issued?.hash ?? null,
          createdBy: request.actor.userId,
          now,
        };
        const row = newBookingRow(booking);
        const serviceNames = new Map([...services].map(([sid, svc]) => [sid, svc.name]));
        const { items, answer, segments } = newItemRows(
          booking,
          serviceNames,
          planned.map(() => crypto.randomUUID()),
          crypto.randomUUID,
        );
        // Booking, items, their segments and the audit entry in ONE statement (the hot path), then the signal.
        await createBooking(deps, trx, row, items, segments, createdChange(request));
        // BookingCreated: the deposit, in this transaction (payments, through booking-hooks.ts)
        const deposit = await deps.bookingHooks.startDeposit(deps.signaller, trx, tenant, row, now);
        if (deposit.depositStatus) await setDepositStatus(trx, id, (row.depositStatus = deposit.depositStatus));
        const resourceNames = new Map(placed.data.resources.map((r) => [r.id, r.name]));
        return { booking: toDto(row, answer), manageToken: issued?.token ?? null, resourceNames, paymentRequired: deposit.paymentRequired };
      },
      // the services come back with the lock, in its round trip (booking-lock.service.ts)
      (trx: Transaction, mode: LockMode) => lockTenantBookingsReadingServices(trx, tenant.id, mode, serviceIds),
    );
  return retryingTakenRooms(write, () => roomsChosen);
}

/**
 * Whose booking it is: the salon's chosen customer, a signed-in customer's record (docs/rules/customers.md#linking-an-account),
 * or the contact's record by phone (made when new). `voucherOwner`: whose vouchers it may use (the
 * chosen customer, or a signed-in customer's own record only).
 */
async function resolveCustomer(
  deps: BookingDeps,
  trx: Transaction,
  request: NewBookingRequest,
  contactPhone: string | null,
): Promise<{ customerId: string | null; voucherOwner: string | null }> {
  const { tenant, contact } = request;
  if (request.customerId) return { customerId: request.customerId, voucherOwner: request.customerId };
  if (!contact) return { customerId: null, voucherOwner: null };
  const region = phoneRegionOf(tenant);
  if (request.customerAccountId) {
    const forAccount = await deps.bookingHooks.accountCustomer(trx, {
      tenantId: tenant.id,
      region,
      accountId: request.customerAccountId,
      contact: { ...contact, phone: contactPhone! },
    });
    return { customerId: forAccount.customerId, voucherOwner: forAccount.ownedByAccount ? forAccount.customerId : null };
  }
  const found = await findOrCreateCustomerByPhone(trx, tenant.id, { name: contact.name, phone: contactPhone!, email: contact.email ?? null }, region);
  return { customerId: found.id, voucherOwner: found.id };
}

/** The voucher reserved for the new booking (loyalty, through booking-hooks.ts), or none. */
async function reserveVoucher(
  deps: BookingDeps,
  trx: Transaction,
  request: NewBookingRequest,
  visit: { bookingId: string; voucherOwner: string | null; planned: readonly PlannedItem[]; now: Date },
): Promise<{ appliedVoucherId: string; discountAmount: number } | null> {
  if (!request.voucherCode) return null;
  return deps.bookingHooks.reserveVoucher(trx, deps.signaller, {
    tenantId: request.tenant.id,
    code: request.voucherCode,
    customerId: visit.voucherOwner,
    bookingId: visit.bookingId,
    bookingTotal: totalOf(visit.planned),
    actor: request.actor,
    now: visit.now,
  });
}

/** The CREATED audit entry and the event the workflow is told (a visit recorded after the fact tells the customer nothing). */
function createdChange(request: NewBookingRequest) {
  const past = request.recordedAfterTheFact ? { [RECORDED_AFTER_THE_FACT]: true } : {};
  return {
    audit: { actor: request.actor, action: 'CREATED', toStatus: request.status, changes: { source: request.source, ...past } },
    event: request.recordedAfterTheFact ? ('BookingRecordedAfterTheFact' as const) : ('BookingCreated' as const),
  };
}
