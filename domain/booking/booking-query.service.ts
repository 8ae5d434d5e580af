/** Booking reads: staff-side list / get / audit log (STAFF scoped, spec 5.4) and the guest's view. */
import type { Knex } from 'knex';
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { addDays, isValidLocalDate, localDayBoundsUtcMs } from '../time/salon-time.rules';
import { isBookingStatus } from './booking-status.rules';
import { assertStaffScope } from './booking-scope';
import { findBookingRow, itemsOf, loadDto } from './booking.repository';
import { toDto, type BookingDto } from './booking.dto';
import { publicDto, type PublicBookingDto } from './booking-public.dto';
import { guestBooking, type GuestProof } from './booking-guest-access';
import type { Actor, BookingDeps, BookingRow } from './booking.types';
import { toIso } from '../time/iso';

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
  const booking = await findBookingRow(deps.knex, tenantId, id, ['id', 'resourceId']);
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
        createdAt: toIso(r.createdAt),
      }),
    ),
    total: Number(count),
    page: page.page,
    limit: page.limit,
  };
}

/** GET /public/tenants/:slug/bookings/:id?token=|phone= */
export async function getPublicBooking(deps: BookingDeps, tenant: TenantContext, id: string, proof: GuestProof): Promise<PublicBookingDto> {
  await guestBooking(deps, tenant, id, proof);
  return publicDto(deps.knex, tenant, await loadDto(deps.knex, tenant.id, id));
}
