// Data access of tenants: plain rows out (settings typed as the domain's TenantSettings); the caller
// passes the pool or its transaction.
import type { Db } from '../../db/db-handle';
import { TenantModel, type OnboardingState } from '../../db/models/tenant.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain, type Row } from '../../db/plain';
import { raw } from 'objection';
import type { TenantSettings } from './tenant-settings.rules';

/** db/ stores settings as JSON without knowing its shape; the domain's type is applied here. */
export type TenantRow = Omit<Row<TenantModel>, 'settings'> & { settings: TenantSettings };
export type NewTenantRow = Pick<TenantRow, 'name' | 'slug' | 'industryType' | 'settings' | 'branding'> &
  Partial<Pick<TenantRow, 'description' | 'address' | 'onboardedAt' | 'launchedAt' | 'contactPhone' | 'contactEmail'>>;
export type TenantChanges = Partial<
  Pick<
    TenantRow,
    'name' | 'slug' | 'industryType' | 'settings' | 'branding' | 'description' | 'address' | 'onboardedAt' | 'launchedAt' | 'contactPhone' | 'contactEmail'
  >
> & {
  onboarding?: OnboardingState;
};

function row(model: TenantModel): TenantRow;
function row(model: TenantModel | undefined): TenantRow | undefined;
function row(model: TenantModel | undefined): TenantRow | undefined {
  return model ? (plain(model) as TenantRow) : undefined;
}

/** Is there any tenant at all (the demo salon is seeded into an empty database only)? */
export async function anyTenantExists(db: Db): Promise<boolean> {
  return !!(await TenantModel.query(db).select('id').first());
}

export async function findTenant(db: Db, id: string, lock = false): Promise<TenantRow | undefined> {
  const q = TenantModel.query(db).findById(id);
  if (lock) q.forUpdate();
  return row(await q);
}

export async function findTenantBySlug(db: Db, slug: string, activeOnly = false): Promise<TenantRow | undefined> {
  return row(await TenantModel.query(db).findOne(activeOnly ? { slug, isActive: true } : { slug }));
}

/** Tenant resolution by host (docs/rules/auth.md#tenant-resolution): `<slug>.<platform domain>` or a custom domain. */
export async function findTenantIdByHost(db: Db, host: { slug: string } | { customDomain: string }, activeOnly = false): Promise<string | undefined> {
  return (
    await TenantModel.query(db)
      .select('id')
      .findOne(activeOnly ? { ...host, isActive: true } : host)
  )?.id;
}

/** Slugs of the given tenants, alphabetically. */
export async function slugsOf(db: Db, ids: string[]): Promise<string[]> {
  return (await TenantModel.query(db).select('slug').whereIn('id', ids).orderBy('slug')).map((t) => t.slug);
}

export async function pageOfTenants(db: Db, order: 'asc' | 'desc', page: PageQuery): Promise<PageResult<TenantRow>> {
  return (await paginate(TenantModel.query(db).orderBy('createdAt', order).orderBy('id'), page)) as PageResult<TenantRow>;
}

export async function insertTenant(db: Db, fields: NewTenantRow): Promise<TenantRow> {
  return row(await TenantModel.query(db).insertAndFetch(fields));
}

export async function patchTenant(db: Db, id: string, changes: TenantChanges): Promise<TenantRow> {
  return row(await TenantModel.query(db).patchAndFetchById(id, changes));
}

// ---------------------------------------------------------------- the billing read model (domain/billing)

export interface TenantBillingRow {
  id: string;
  subscriptionStatus: string | null;
  trialEndsAt: Date | null;
  billingExempt: boolean;
  subscriptionVersion: number;
}

/** The tenant's billing fields; `lock` takes the row lock every subscription change of the tenant takes. */
export async function tenantBilling(db: Db, tenantId: string, lock = false): Promise<TenantBillingRow | undefined> {
  const q = TenantModel.query(db).select('id', 'subscriptionStatus', 'trialEndsAt', 'billingExempt', 'subscriptionVersion').findById(tenantId);
  if (lock) q.forUpdate();
  const row = await q;
  return row && (plain(row) as TenantBillingRow);
}

/** Bumps the tenant's subscription version (the subscription workflow's entity version) and returns it. */
export async function bumpSubscriptionVersion(db: Db, tenantId: string): Promise<number> {
  const [row] = await TenantModel.query(db)
    .patch({ subscriptionVersion: raw('subscription_version + 1') })
    .where({ id: tenantId })
    .returning('subscriptionVersion');
  return row.subscriptionVersion;
}

export async function setSubscriptionReadModel(
  db: Db,
  tenantId: string,
  fields: { subscriptionStatus: string | null; trialEndsAt: Date | null },
): Promise<void> {
  await TenantModel.query(db).patch(fields).where({ id: tenantId });
}

export async function setBillingExempt(db: Db, tenantId: string, billingExempt: boolean): Promise<boolean> {
  return (await TenantModel.query(db).patch({ billingExempt }).where({ id: tenantId })) > 0;
}

/** A deleted upload leaves the tenant's branding: `brandingKey` goes when it still holds `fileKey`. */
export async function removeBrandingImage(db: Db, tenantId: string, brandingKey: string, fileKey: string): Promise<void> {
  await TenantModel.query(db)
    .patch({ branding: raw('branding - ?', [brandingKey]) })
    .where({ id: tenantId })
    .whereRaw('branding->>? = ?', [brandingKey, fileKey]);
}
