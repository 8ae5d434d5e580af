/**
 * POST /bookings/:id/self-pick: the caller's resource takes an unassigned booking. Needs the skill
 * for every item and free time; first come first served (exclusive lock + compare-and-set on
 * resource_id IS NULL). Otherwise 403.
 */
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import { withBookingLock } from './booking-lock.service';
import { changeBooking } from './booking-change.service';
import { assertMovable } from './booking-errors.rules';
import { placeVisit } from './booking-placement.service';
import { plannedFromItems } from './booking-plan.rules';
import { ownResourceOf } from './booking-access.service';
import { assignUnassigned, findBookingRow, itemsOf, loadDto, lockBookingRow } from './booking.repository';
import { skillsOf } from '../resource/resource.repository';
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
    const skills = (await skillsOf(trx, [me])).get(me) ?? [];
    if (items.some((i) => !skills.includes(i.serviceId))) throw errors.forbidden('You do not have the skill for this service');
    const planned = plannedFromItems(items, { resourceId: (i) => i.resourceId ?? me });
    await placeVisit(trx, tenant, planned, { mode, excludeBookingId: row.id, onlineOnly: false, allowDoubleBooking: row.allowDoubleBooking });
    const picked = await changeBooking(deps, trx, row, {
      compareAndSet: () => assignUnassigned(trx, row, me),
      audit: { actor, action: 'SELF_PICKED', changes: { resourceId: { from: null, to: me } } },
      event: 'BookingReassigned',
    });
    if (picked === undefined) throw errors.forbidden('This booking is already assigned');
  });
  return loadDto(deps.knex, tenant.id, id);
}
