// Rows every new tenant starts with, written in the same transaction that creates the tenant
// (registration and POST /tenants). Each area that needs per-tenant defaults adds its call here.
import type { Knex } from 'knex';

export interface NewTenant {
  id: string;
  industryType: string;
}

export async function seedTenantDefaults(_trx: Knex.Transaction, _tenant: NewTenant): Promise<void> {
  // Areas add their default rows here (e.g. the Norwegian taxes of spec 2.6).
}
