// HOOK for the staff-schedules area: PATCH /tenants/:id with `applyToStaff: true` copies the
// tenant's business hours to every staff member's weekly schedule (spec 2.2).
//
// Staff schedules do not exist yet, so this is a deliberate no-op. The tenant service calls it
// INSIDE the transaction that updates the tenant, after the new settings are validated and saved,
// with the resulting complete business hours (all seven days). The colleague who builds schedules
// replaces the body: replace the weekly schedule rows of every active staff resource of `tenantId`
// using `trx` (so a failure rolls back the tenant update too). Never touch other tenants.
import type { Knex } from 'knex';
import type { BusinessHoursDay } from './tenant-settings.rules';

export async function applyBusinessHoursToStaff(_trx: Knex.Transaction, _tenantId: string, _businessHours: BusinessHoursDay[]): Promise<void> {
  // intentionally empty until staff schedules exist
}
