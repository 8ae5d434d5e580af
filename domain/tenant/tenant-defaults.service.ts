// Rows every new tenant starts with, written in the same transaction that creates the tenant
// (registration and POST /tenants). Each area that needs per-tenant defaults adds its call here.
import type { Db } from '../../db/db-handle';
import { createDefaultTaxes } from '../tax/tax.service';

export interface NewTenant {
  id: string;
  industryType: string;
}

/** Runs in the caller's (tenant creation) transaction. */
export async function seedTenantDefaults(trx: Db, tenant: NewTenant): Promise<void> {
  // The Norwegian taxes 25 % (default), 15 % and 0 %.
  await createDefaultTaxes(trx, tenant.id);
}
