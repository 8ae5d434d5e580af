// A signed-in customer's bookings (docs/rules/customers.md#customer-accounts): the list across salons, ownership (for
// self-cancel and the payment retry), the claim of a guest booking within 60 minutes of its
// creation, and self-cancel by token alone. A booking belongs to the account whose id is in
// bookings.customer_account_id; it is set by a signed-in booking or by the claim, compare-and-set
// while it is NULL, so two claims never both win.
import type { Db } from '../../db/db-handle';
import { AppError, errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { toIso } from '../time/iso';
import { utcToLocalDate, utcToLocalTime } from '../time/salon-time.rules';
import { claimForAccount, isBookingOfAccount, pageOfAccountBookings } from '../booking/booking-account.repository';
import { itemsOf, loadDto, lockBookingRow } from '../booking/booking.repository';
import { changeBooking } from '../booking/booking-change.service';
import { applyCancellation } from '../booking/booking-cancel.service';
import { isWithinFreeCancellationWindow } from '../booking/cancellation.rules';
import { publicDto, type PublicBookingDto } from '../booking/booking-public.dto';
import type { Actor, BookingDeps, BookingRow } from '../booking/booking.types';
import { nowOf, type Clock } from '../time/clock';
import { seriesOfTheseBookings } from '../series/series.service';
import type { BookingStatus } from '../booking/booking-status.rules';
import { CLAIM_WINDOW_MINUTES, isWithinClaimWindow } from './claim.rules';
import { verifyManageToken } from '../booking/manage-link.service';
import { phoneRegionOf, samePhone } from '../phone/phone.rules';
import { findAccount } from './customer-account.repository';

/** The actor of a signed-in customer's own changes in the booking audit log. */
const customerActor: Actor = { userId: null, role: 'CUSTOMER', resourceId: null };

export interface CustomerBookingDto {
  id: string;
  tenantId: string;
  tenantSlug: string;
  tenantName: string;
  status: BookingStatus;
  startTime: string;
  endTime: string;
  /** the booking's display snapshot timezone, flattened in (customer bookings list) */
  tenantTimezone: string;
  currency: string;
  locale: string;
  /** start and end rendered in the snapshot's timezone */
  localDate: string;
  localStartTime: string;
  localEndTime: string;
  totalAmount: number;
  discountAmount: number;
  items: { serviceId: string; serviceName: string; resourceId: string | null; startTime: string; endTime: string; localStartTime: string; price: number }[];
  createdAt: string;
  /** the standing appointment it starts or belongs to, with its next dates (docs/rules/series.md) */
  series: { id: string; intervalWeeks: number; status: string; nextDates: string[] } | null;
}

/** GET /customer/me/bookings: newest appointment first, across salons. */
export async function listCustomerBookings(deps: { knex: Db; now?: Clock }, accountId: string, page: { page: number; limit: number }) {
  const db = deps.knex;
  const { rows, total } = await pageOfAccountBookings(db, accountId, page);
  const items = await itemsOf(
    db,
    rows.map((r) => r.id),
  );
  const series = await seriesOfTheseBookings(
    deps,
    rows.map((r) => ({ id: r.id, timezone: r.metadata.displaySnapshot.timezone })),
  );
  const dtos = rows.map((b): CustomerBookingDto => {
    const snapshot = b.metadata.displaySnapshot;
    const tz = snapshot.timezone;
    return {
      id: b.id,
      tenantId: b.tenantId,
      tenantSlug: b.tenantSlug,
      tenantName: b.tenantName,
      status: b.status,
      startTime: toIso(b.startTime),
      endTime: toIso(b.endTime),
      tenantTimezone: tz,
      currency: snapshot.currency,
      locale: snapshot.locale,
      localDate: utcToLocalDate(b.startTime, tz),
      localStartTime: utcToLocalTime(b.startTime, tz),
      localEndTime: utcToLocalTime(b.endTime, tz),
      totalAmount: Number(b.totalAmount),
      discountAmount: Number(b.discountAmount),
      items: items
        .filter((i) => i.bookingId === b.id)
        .sort((x, y) => x.sortOrder - y.sortOrder)
        .map((i) => ({
          serviceId: i.serviceId,
          serviceName: i.serviceName,
          resourceId: i.resourceId,
          startTime: toIso(i.startTime),
          endTime: toIso(i.endTime),
          localStartTime: utcToLocalTime(i.startTime, tz),
          price: Number(i.price),
        })),
      createdAt: toIso(b.createdAt),
      series: seriesSummary(series.get(b.id)),
    };
  });
  return { rows: dtos, total, page: page.page, limit: page.limit };
}

function seriesSummary(series: { id: string; intervalWeeks: number; status: string; nextDates: string[] } | undefined): CustomerBookingDto['series'] {
  return series ? { id: series.id, intervalWeeks: series.intervalWeeks, status: series.status, nextDates: series.nextDates } : null;
}

/**
 * POST /public/tenants/:slug/bookings/:id/claim (docs/rules/customers.md#claiming-a-guest-booking):
 * the guest booking becomes the customer's when they prove it is theirs, with its manage token or
 * with the phone it was made with, proven on their account (a one-time code); anything less is 403
 * BOOKING_CLAIM_PROOF_REQUIRED, whatever the booking. Only within CLAIM_WINDOW_MINUTES of its
 * creation and only while no account owns it. The UPDATE is the compare-and-set (customer_account_id
 * IS NULL), under the booking's row lock, so of two racing claims exactly one wins and the other gets
 * 409 BOOKING_ALREADY_CLAIMED.
 */
export async function claimBooking(
  deps: BookingDeps,
  tenant: TenantContext,
  accountId: string,
  bookingId: string,
  proof: { token?: string },
): Promise<PublicBookingDto> {
  const now = nowOf(deps);
  await deps.knex.transaction(async (trx) => {
    const row = (await lockBookingRow(trx, tenant.id, bookingId)) as BookingRow & { customerAccountId: string | null };
    if (row.customerAccountId === accountId) return; // already this customer's: nothing to do
    const account = await findAccount(trx, accountId);
    const byToken = proof.token !== undefined && verifyManageToken(deps.manageLinkKey, row.id, proof.token, row.manageTokenHash);
    const byPhone = !!account?.phoneVerifiedAt && samePhone(account.phone, row.contactPhone, phoneRegionOf(tenant));
    if (!byToken && !byPhone) {
      throw new AppError(403, 'BOOKING_CLAIM_PROOF_REQUIRED', 'Prove the booking is yours: send its manage token, or verify the phone it was made with');
    }
    if (row.customerAccountId !== null) throw errors.conflict('BOOKING_ALREADY_CLAIMED', 'This booking already belongs to a customer account');
    if (!isWithinClaimWindow(new Date(row.createdAt), now)) {
      throw errors.unprocessable('BOOKING_CLAIM_WINDOW_CLOSED', `A booking can be claimed within ${CLAIM_WINDOW_MINUTES} minutes of its creation`);
    }
    const claimed = await changeBooking(deps, trx, row, {
      compareAndSet: async () => (await claimForAccount(trx, row, accountId, now)) !== undefined,
      audit: { actor: customerActor, action: 'CLAIMED', changes: { customerAccountId: accountId } },
      event: 'BookingUpdated',
    });
    if (claimed === undefined) throw errors.conflict('BOOKING_ALREADY_CLAIMED', 'This booking already belongs to a customer account');
  });
  return publicDto(deps.knex, tenant, await loadDto(deps.knex, tenant.id, bookingId));
}

/** GET /public/tenants/:slug/bookings/:id with a customer token instead of a guest proof. */
export async function getOwnBooking(deps: BookingDeps, tenant: TenantContext, accountId: string, bookingId: string): Promise<PublicBookingDto> {
  if (!(await isBookingOfAccount(deps.knex, tenant.id, bookingId, accountId))) throw errors.notFound('booking');
  return publicDto(deps.knex, tenant, await loadDto(deps.knex, tenant.id, bookingId));
}

/**
 * POST /public/tenants/:slug/bookings/:id/cancel by a signed-in customer, by token alone: only the
 * customer's own booking (anyone else's is 404, as if it did not exist), inside the free window.
 */
export async function cancelOwnBooking(
  deps: BookingDeps,
  tenant: TenantContext,
  accountId: string,
  bookingId: string,
  reason?: string,
): Promise<PublicBookingDto> {
  const now = nowOf(deps);
  await deps.knex.transaction(async (trx) => {
    const row = (await lockBookingRow(trx, tenant.id, bookingId)) as BookingRow & { customerAccountId: string | null };
    if (row.customerAccountId !== accountId) throw errors.notFound('booking');
    if (!isWithinFreeCancellationWindow(new Date(row.startTime), now, tenant.settings.cancellationHours)) {
      throw errors.unprocessable(
        'CANCELLATION_WINDOW_CLOSED',
        `Free cancellation ends ${tenant.settings.cancellationHours} hours before the appointment; please contact the salon`,
      );
    }
    await applyCancellation(deps, trx, tenant, row, customerActor, { bySalon: false, reason: reason ?? null, now });
  });
  return publicDto(deps.knex, tenant, await loadDto(deps.knex, tenant.id, bookingId));
}
