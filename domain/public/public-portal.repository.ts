// The public booking portal's reads (docs/rules/booking.md#the-public-portal): only public columns, plain rows out; the caller
// passes the pool or its transaction.
import type { QueryBuilder } from 'objection';
import type { Db } from '../../db/db-handle';
import { TenantModel } from '../../db/models/tenant.model';
import { ServiceCategoryModel } from '../../db/models/service-category.model';
import { ServiceModel } from '../../db/models/service.model';
import { ResourceModel } from '../../db/models/resource.model';
import { ResourceSkillModel } from '../../db/models/resource-skill.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain } from '../../db/plain';
import type { TenantContext } from '../tenant/tenant-context';
import { likePattern } from '../customer/customer.rules';
import type { ServiceRow } from '../catalogue/catalogue.repository';
import { runNamedStatement } from '../../db/named-statement';

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
 * The public salon list leaves out inactive salons, salons not launched (docs/rules/salon.md#launch) and lapsed subscriptions (docs/rules/billing.md#subscription-gate): EXPIRED,
 * or ACTIVE with a trial that ended by `now`, unless billing-exempt (same rule as isSubscriptionLapsed).
 */
function excludeNonListedTenants(query: QueryBuilder<TenantModel>, now: Date): QueryBuilder<TenantModel> {
  return query
    .where('isActive', true)
    .whereNotNull('launchedAt')
    .where((w) =>
      w
        .where('billingExempt', true)
        .orWhereNull('subscriptionStatus')
        .orWhere((open) =>
          open
            .whereNot('subscriptionStatus', 'EXPIRED')
            .where((t) => t.whereNot('subscriptionStatus', 'ACTIVE').orWhereNull('trialEndsAt').orWhere('trialEndsAt', '>', now)),
        ),
    );
}

export async function pageOfListedTenants(db: Db, q: { search?: string } & PageQuery, now: Date): Promise<PageResult<PublicTenantSummary>> {
  const query = excludeNonListedTenants(TenantModel.query(db), now);
  if (q.search && q.search.trim()) {
    const pattern = likePattern(q.search.trim().toLowerCase());
    query.where((w) => w.whereRaw('lower(name) LIKE ?', [pattern]).orWhereRaw('slug LIKE ?', [pattern]));
  }
  query.select('id', 'name', 'slug', 'industryType', 'description', 'address', 'branding').orderBy([{ column: 'name' }, { column: 'id' }]);
  return (await paginate(query, q)) as unknown as PageResult<PublicTenantSummary>;
}

/**
 * The salon behind a public slug: every public request's first read (a booking's included). Raw SQL
 * with camelCase aliases, a named statement (parsed once per connection): the model query built a
 * TenantModel and mapped each column's name on every request, for one row read by its unique slug.
 * The JSON columns come back parsed by the driver, as through the model.
 */
export async function findPublicTenant(db: Db, slug: string): Promise<PublicTenant | undefined> {
  return (await runNamedStatement<PublicTenant>(db, { name: 'public-tenant-by-slug', sql: PUBLIC_TENANT_BY_SLUG, bindings: [slug] }))[0];
}

// settings without the key migration 180 renamed and keeps for the version before it (db/models/tenant.model.ts)
const PUBLIC_TENANT_BY_SLUG = `SELECT id, slug, name, is_active AS "isActive", settings - 'unconfirmedFlagHoursBefore' AS settings, industry_type AS "industryType", description, address, branding,
  subscription_status AS "subscriptionStatus", trial_ends_at AS "trialEndsAt", billing_exempt AS "billingExempt", launched_at AS "launchedAt",
  contact_phone AS "contactPhone", contact_email AS "contactEmail"
FROM tenants WHERE slug = ? LIMIT 1`;

export async function categoriesOf(db: Db, tenantId: string): Promise<PublicCategoryRow[]> {
  return (
    await ServiceCategoryModel.query(db)
      .select('id', 'name', 'sortOrder')
      .where({ tenantId })
      .orderBy([{ column: 'sortOrder' }, { column: 'name' }, { column: 'id' }])
  ).map(plain);
}

export async function activeServicesOf(db: Db, tenantId: string): Promise<PublicServiceRow[]> {
  const rows = await ServiceModel.query(db)
    .select('id', 'name', 'description', 'duration', 'price', 'currency', 'imageKey', 'sortOrder', 'categoryId')
    .where({ tenantId, isActive: true })
    .orderBy([{ column: 'sortOrder' }, { column: 'name' }, { column: 'id' }]);
  return rows.map(plain);
}

export async function isActiveService(db: Db, tenantId: string, serviceId: string): Promise<boolean> {
  return !!(await ServiceModel.query(db).select('id').findOne({ tenantId, id: serviceId, isActive: true }));
}

/** Active, online-bookable resources; with serviceId only those with that skill. */
export async function bookableResourcesOf(db: Db, tenantId: string, serviceId?: string): Promise<PublicResourceRow[]> {
  const q = ResourceModel.query(db)
    .select('id', 'type', 'name', 'color', 'avatarKey', 'imageKey', 'description', 'sortOrder', 'metadata')
    .where({ tenantId, isActive: true, isBookableOnline: true })
    .orderBy([{ column: 'sortOrder' }, { column: 'name' }, { column: 'id' }]);
  if (serviceId) q.whereIn('id', ResourceSkillModel.query(db).select('resourceId').where({ tenantId, serviceId }));
  return (await q).map(plain);
}

export async function skillsOfResources(db: Db, tenantId: string, resourceIds: string[]): Promise<{ resourceId: string; serviceId: string }[]> {
  if (!resourceIds.length) return [];
  return (await ResourceSkillModel.query(db).select('resourceId', 'serviceId').where({ tenantId }).whereIn('resourceId', resourceIds)).map((r) => ({
    resourceId: r.resourceId,
    serviceId: r.serviceId,
  }));
}
