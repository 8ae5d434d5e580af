/** Booking reads: staff-side list / get / audit log (STAFF scoped: docs/rules/auth.md#staff-scoping) and the guest's view. */
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { addDays, isValidLocalDate, localDayBoundsUtcMs } from '../time/salon-time.rules';
import { nowOf } from '../time/clock';
import { isBookingStatus } from './booking-status.rules';
import { assertStaffScope, guestBooking, type GuestProof } from './booking-access.service';
import { findBookingRow, itemsOf, loadDto } from './booking.repository';
import { pageOfAuditEntries, pageOfBookings, type AuditLogRow, type BookingFilter } from './booking-list.repository';
import { toDto, type BookingDto } from './booking.dto';
import { publicDto, type PublicBookingDto } from './booking-public.dto';
import type { Actor, BookingDeps, BookingRow } from './booking.types';
import { toIso } from '../time/iso';
import { decodeBookingCursor, encodeBookingCursor } from './booking-cursor.rules';

export async function getBooking(deps: BookingDeps, tenantId: string, actor: Actor, id: string): Promise<BookingDto> {
  const dto = await loadDto(deps.knex, tenantId, id);
  await assertStaffScope(deps.knex, actor, dto);
  return { ...dto, paidAmount: await deps.bookingHooks.paidAmount(deps.knex, tenantId, id) };
}

export interface ListQuery {
  page: number;
  limit: number;
  status?: string;
  date?: string;
  dateFrom?: string;
  dateTo?: string;
  resourceId?: string;
  /** 'false': still ahead and not promised by the customer; 'true': promised (docs/rules/reminders.md#bookings-without-a-promise) */
  promised?: string;
  /** @deprecated the released name: `unconfirmed=true` is `promised=false` (docs/api/changelog.md) */
  unconfirmed?: string;
  sort?: 'createdAt' | 'startTime' | 'endTime' | 'status' | 'updatedAt';
  order?: 'asc' | 'desc';
  /** keyset paging: the `nextAfter` of the page before (docs/api/README.md#paging) */
  after?: string;
}

export async function listBookings(deps: BookingDeps, tenant: TenantContext, actor: Actor, q: ListQuery) {
  const tz = tenant.settings.timezone;
  const filter: BookingFilter = { resourceId: q.resourceId, sort: q.sort, order: q.order };
  if (q.status) {
    const statuses = q.status
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    const bad = statuses.filter((x) => !isBookingStatus(x));
    if (!statuses.length || bad.length)
      throw errors.validation('Request validation failed', [{ field: 'status', message: `unknown status: ${bad.join(', ') || '(empty)'}` }]);
    filter.statuses = statuses;
  }
  for (const [field, value] of [
    ['date', q.date],
    ['dateFrom', q.dateFrom],
    ['dateTo', q.dateTo],
  ] as const) {
    if (value !== undefined && !isValidLocalDate(value))
      throw errors.validation('Request validation failed', [{ field, message: 'must be a valid YYYY-MM-DD date' }]);
  }
  // date and dateFrom/dateTo narrow the same column; the later bound of each side wins.
  const from = [q.date && localDayBoundsUtcMs(q.date, tz).start, q.dateFrom && localDayBoundsUtcMs(q.dateFrom, tz).start].filter((x): x is number => !!x);
  const before = [q.date && localDayBoundsUtcMs(q.date, tz).end, q.dateTo && localDayBoundsUtcMs(addDays(q.dateTo, 0), tz).end].filter((x): x is number => !!x);
  if (from.length) filter.startFrom = new Date(Math.max(...from));
  if (before.length) filter.startBefore = new Date(Math.min(...before));
  if (q.dateFrom && q.dateTo && q.dateTo < q.dateFrom)
    throw errors.validation('Request validation failed', [{ field: 'dateTo', message: 'must not be before dateFrom' }]);
  if (actor.role === 'STAFF') filter.visibleToStaffResource = actor.resourceId;
  // the released `unconfirmed` says the opposite of `promised`
  const promised = q.promised !== undefined ? String(q.promised) === 'true' : q.unconfirmed !== undefined ? String(q.unconfirmed) !== 'true' : undefined;
  if (promised !== undefined) filter.promised = { promised, now: nowOf(deps) };
  const keyset = { sort: q.sort ?? 'createdAt', order: q.order ?? 'desc' } as const;
  if (q.after !== undefined) {
    const cursor = decodeBookingCursor(q.after);
    if (!cursor || cursor.sort !== keyset.sort || cursor.order !== keyset.order)
      throw errors.validation('Request validation failed', [
        { field: 'after', message: `must be a meta.nextAfter of this list with sort=${keyset.sort} and order=${keyset.order}` },
      ]);
    filter.afterBookingId = cursor.bookingId;
  }
  const { rows, total } = await pageOfBookings(deps.knex, tenant.id, filter, q);
  const items = await itemsOf(
    deps.knex,
    rows.map((r) => r.id),
  );
  const last = rows.length === q.limit ? rows.at(-1) : undefined;
  const nextAfter = last ? encodeBookingCursor({ ...keyset, bookingId: last.id }) : null;
  return { rows: rows.map((r) => toDto(r, items)), total, page: q.page, limit: q.limit, nextAfter };
}

export type AuditEntryDto = Omit<AuditLogRow, 'createdAt'> & { createdAt: string };

export async function auditLog(deps: BookingDeps, tenantId: string, actor: Actor, id: string, page: { page: number; limit: number }) {
  const booking = await findBookingRow(deps.knex, tenantId, id, ['id', 'resourceId']);
  await assertStaffScope(deps.knex, actor, booking);
  const { rows, total } = await pageOfAuditEntries(deps.knex, tenantId, id, page);
  return {
    rows: rows.map((r): AuditEntryDto => ({ ...r, createdAt: toIso(r.createdAt) })),
    total,
    page: page.page,
    limit: page.limit,
  };
}

/** GET /public/tenants/:slug/bookings/:id?token=|phone= */
export async function getPublicBooking(deps: BookingDeps, tenant: TenantContext, id: string, proof: GuestProof): Promise<PublicBookingDto> {
  await guestBooking(deps, tenant, id, proof);
  const dto = await loadDto(deps.knex, tenant.id, id);
  // the deposit's state and what was paid, in the booking's details (docs/rules/payments.md#booking-deposit-status)
  return {
    ...(await publicDto(deps.knex, tenant, dto)),
    depositStatus: dto.depositStatus,
    paidAmount: await deps.bookingHooks.paidAmount(deps.knex, tenant.id, id),
  };
}
