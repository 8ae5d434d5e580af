// The salon a request acts in, as every module reads it: id, slug, name, whether it is active, and
// its settings. Loaded once per request and passed down, so services do not re-read the tenant.
import type { Knex } from 'knex';
import { errors } from '../errors';
import type { TenantSettings } from './tenant-settings.rules';

export interface TenantContext {
  id: string;
  slug: string;
  name: string;
  isActive: boolean;
  settings: TenantSettings;
}

/** 404 TENANT_NOT_FOUND when there is no such tenant. */
export async function tenantById(db: Knex | Knex.Transaction, tenantId: string): Promise<TenantContext> {
  const row = await db('tenants').select('id', 'slug', 'name', 'isActive', 'settings').where({ id: tenantId }).first();
  if (!row) throw errors.notFound('tenant');
  return row as TenantContext;
}
