// PATCH /tenants/:id with `applyToStaff: true` copies the tenant's business hours to every staff
// member's weekly schedule (docs/rules/salon.md#business-hours): the resource area's answer to the
// tenant's port (TenantHooks.applyBusinessHoursToStaff, domain/tenant/tenant-hooks.ts).
//
// The tenant service calls it INSIDE the transaction that updates the tenant, after the new settings
// are validated and saved, with the resulting complete business hours (all seven days). Every
// resource of type `staff` of `tenantId` (active or not, so a re-activated member starts from the
// salon hours) gets its weekly schedule REPLACED by the open days' slots, all active. Rooms and
// equipment, schedule overrides and time-off are left alone. The staff rows are locked first, so
// this serialises with concurrent schedule writes; a failure rolls back the tenant update too.
import type { Db } from '../../db/db-handle';
import { lockStaffResourceIds } from './resource.repository';
import { replaceWeeks } from './schedule.repository';
import type { BusinessHoursDay } from '../tenant/tenant-settings.rules';

/** Runs in the caller's (tenant update) transaction. */
export async function applyBusinessHoursToStaff(trx: Db, tenantId: string, businessHours: BusinessHoursDay[]): Promise<void> {
  const ids = await lockStaffResourceIds(trx, tenantId);
  if (ids.length === 0) return;
  const slots = businessHours
    .filter((day) => day.isOpen)
    .flatMap((day) => day.slots.map((slot) => ({ dayOfWeek: day.dayOfWeek, startTime: slot.startTime, endTime: slot.endTime, isActive: true })));
  await replaceWeeks(trx, tenantId, ids, slots);
}
