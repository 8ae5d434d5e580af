/**
 * POST /bookings/:id/self-pick: the caller's resource takes an unassigned booking. Needs the skill
 * for every item and free time; first come first served (exclusive lock + compare-and-set on
 * resource_id IS NULL). Spec 5.4: otherwise 403.
 */
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { withBookingLock } from './booking-lock';
import { auditAndSignal } from './booking-change';
import { assertMovable } from './booking-errors';
import { checkPlacement, plannedFromItems } from './booking-placement';
import { ownResourceOf } from './booking-scope';
import { findBookingRow, itemsOf, loadDto, lockBookingRow } from './booking.repository';
import type { BookingDto } from './booking.dto';
import type { Actor, BookingDeps } from './booking.types';

export async function selfPick(deps: BookingDeps, tenant: TenantContext, actor: Actor, id: string): Promise<BookingDto> {
  await findBookingRow(deps.knex, tenant.id, id, ['id']);
  const me = ownResourceOf(actor);
  await withBookingLock(deps.knex, tenant.id, 'exclusive', async (trx, mode) => {
    const row = await lockBookingRow(trx, tenant.id, id);
    if (row.resourceId !== null) throw errors.forbidden('This booking is already assigned');
    assertMovable(row.status, 'picked');
    const items = await itemsOf(trx, [row.id]);
    const skills: string[] = (await trx('resourceSkills').select('serviceId').where({ tenantId: tenant.id, resourceId: me })).map((r: { serviceId: string }) => r.serviceId);
    if (items.some((i) => !skills.includes(i.serviceId))) throw errors.forbidden('You do not have the skill for this service');
    const planned = plannedFromItems(items, { resourceId: (i) => i.resourceId ?? me });
    await checkPlacement(trx, tenant, planned, { mode, excludeBookingId: row.id, onlineOnly: false, allowDoubleBooking: row.allowDoubleBooking });
    const updated = await trx('bookings')
      .update({ resourceId: me, version: row.version + 1, updatedAt: new Date() })
      .where({ id: row.id, tenantId: tenant.id })
      .whereNull('resourceId')
      .returning('version');
    if (updated.length !== 1) throw errors.forbidden('This booking is already assigned');
    await trx('bookingItems').update({ resourceId: me, updatedAt: new Date() }).where({ bookingId: row.id }).whereNull('resourceId');
    await auditAndSignal(deps, trx, row, { actor, action: 'SELF_PICKED', changes: { resourceId: { from: null, to: me } } }, 'BookingReassigned', row.version + 1);
  });
  return loadDto(deps.knex, tenant.id, id);
}
