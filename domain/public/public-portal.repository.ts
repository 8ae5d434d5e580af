// The public booking portal's reads (docs/rules/booking.md#the-public-portal): only public columns, plain rows out; the caller
// passes the pool or its transaction.
import type { Knex } from 'knex';
import type { Db } from '../../db/db-handle';
import type { TenantContext } from '../tenant/tenant-context';
import { likePattern } from '../customer/customer.rules';
import type { ServiceRow } from '../catalogue/catalogue.repository';

export interface PublicTenantSummary {
  id: string;
  name: string;
  slug: string;
  industryType: string;
  description: string | null;
  address: Record<string, unknown> | null;
  branding: Record<string, unknown>;
}

export type PublicTenant = TenantContext & { industryType: string; description: string | null; address: unknown; branding: unknown };

export interface PublicCategoryRow {
  id: string;
  name: string;
  sortOrder: number;
}

export type PublicServiceRow = Pick<ServiceRow, 'id' | 'name' | 'description' | 'duration' | 'price' | 'currency' | 'imageKey' | 'sortOrder' | 'categoryId'>;

export interface PublicResourceRow {
  id: string;
  type: string;
  name: string;
  color: string | null;
  avatarKey: string | null;
  imageKey: string | null;
  description: string | null;
  sortOrder: number;
  metadata: { jobTitle?: string | null };
}

/**
 * The public salon list leaves out inactive salons and lapsed subscriptions (docs/rules/billing.md#subscription-gate): EXPIRED,
 * or ACTIVE with a trial that ended, unless billing-exempt (same rule as isSubscriptionLapsed).
 */
export function excludeNonListedTenants(query: Knex.QueryBuilder): Knex.QueryBuilder {
  return query
    .where('isActive', true)
    .where((w) =>
      w
        .where('billingExempt', true)
        .orWhereNull('subscriptionStatus')
        .orWhere((open) => open.whereNot('subscriptionStatus', 'EXPIRED').where((t) => t.whereNot('subscriptionStatus', 'ACTIVE').orWhereNull('trialEndsAt').orWhere('trialEndsAt', '>', new Date()))),
    );
}

export async function pageOfListedTenants(db: Db, q: { search?: string; page: number; limit: number }): Promise<{ rows: PublicTenantSummary[]; total: number }> {
  const base = excludeNonListedTenants(db('tenants'));
  if (q.search && q.search.trim()) {
    const pattern = likePattern(q.search.trim().toLowerCase());
    base.where((w) => w.whereRaw('lower(name) LIKE ?', [pattern]).orWhereRaw('slug LIKE ?', [pattern]));
  }
  const [{ count }] = await base.clone().count({ count: '*' });
  const rows = await base
    .select('id', 'name', 'slug', 'industryType', 'description', 'address', 'branding')
    .orderBy([{ column: 'name' }, { column: 'id' }])
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  return { rows: rows as PublicTenantSummary[], total: Number(count) };
}

export async function findPublicTenant(db: Db, slug: string): Promise<PublicTenant | undefined> {
  return db('tenants')
    .select('id', 'slug', 'name', 'isActive', 'settings', 'industryType', 'description', 'address', 'branding', 'subscriptionStatus', 'trialEndsAt', 'billingExempt')
    .where({ slug })
    .first();
}

export async function categoriesOf(db: Db, tenantId: string): Promise<PublicCategoryRow[]> {
  return db('serviceCategories').select('id', 'name', 'sortOrder').where({ tenantId }).orderBy([{ column: 'sortOrder' }, { column: 'name' }, { column: 'id' }]);
}

export async function activeServicesOf(db: Db, tenantId: string): Promise<PublicServiceRow[]> {
  return db('services')
    .select('id', 'name', 'description', 'duration', 'price', 'currency', 'imageKey', 'sortOrder', 'categoryId')
    .where({ tenantId, isActive: true })
    .orderBy([{ column: 'sortOrder' }, { column: 'name' }, { column: 'id' }]);
}

export async function isActiveService(db: Db, tenantId: string, serviceId: string): Promise<boolean> {
  return !!(await db('services').select('id').where({ tenantId, id: serviceId, isActive: true }).first());
}

/** Active, online-bookable resources; with serviceId only those with that skill. */
export async function bookableResourcesOf(db: Db, tenantId: string, serviceId?: string): Promise<PublicResourceRow[]> {
  const q = db('resources')
    .select('id', 'type', 'name', 'color', 'avatarKey', 'imageKey', 'description', 'sortOrder', 'metadata')
    .where({ tenantId, isActive: true, isBookableOnline: true })
    .orderBy([{ column: 'sortOrder' }, { column: 'name' }, { column: 'id' }]);
  if (serviceId) q.whereIn('id', db('resourceSkills').select('resourceId').where({ tenantId, serviceId }));
  return q;
}

export async function skillsOfResources(db: Db, tenantId: string, resourceIds: string[]): Promise<{ resourceId: string; serviceId: string }[]> {
  if (!resourceIds.length) return [];
  return db('resourceSkills').select('resourceId', 'serviceId').where({ tenantId }).whereIn('resourceId', resourceIds);
}
