// Every query of plans and plan features (docs/rules/billing.md#plans-and-features). Plans are platform-wide (no tenant scope);
// the per-tenant read is `planKeysOfTenant`.
import type { Db } from '../../db/db-handle';
import type { BillingCycle, FeatureCategory, FeatureValueType } from './plan.rules';

export interface PlanRow {
  id: string;
  planKey: string;
  displayName: string;
  displayNameNb: string;
  billingCycle: BillingCycle;
  tagline: string | null;
  taglineNb: string | null;
  description: string | null;
  descriptionNb: string | null;
  flatPriceMinor: number | null;
  pricePerSeatMinor: number | null;
  currency: string;
  selfServeCheckout: boolean;
  isPublic: boolean;
  isFeatured: boolean;
  sortOrder: number;
  trialDays: number | null;
  sandboxVariantId: string | null;
  polarVariantId: string | null;
  lemonsqueezyVariantId: string | null;
  createdAt: Date;
  updatedAt: Date;
  updatedBy: string | null;
}

export interface PlanFeatureRow {
  id: string;
  featureKey: string;
  displayName: string;
  displayNameNb: string;
  description: string | null;
  descriptionNb: string | null;
  category: FeatureCategory;
  isRoadmap: boolean;
  valueType: FeatureValueType;
  iconKey: string | null;
  sortOrder: number;
}

export interface PlanFeatureValueRow {
  planId: string;
  featureId: string;
  value: string | null;
}

export type PlanFields = Omit<PlanRow, 'id' | 'createdAt' | 'updatedAt'>;
export type PlanFeatureFields = Omit<PlanFeatureRow, 'id'>;

const ORDER = [{ column: 'sortOrder' }, { column: 'planKey' }];

export async function listPlans(db: Db, filter: { publicOnly?: boolean; orPlanKeys?: string[] } = {}): Promise<PlanRow[]> {
  const q = db('plans').select('*').orderBy(ORDER);
  if (filter.publicOnly) q.where((w) => w.where('isPublic', true).orWhereIn('planKey', filter.orPlanKeys ?? []));
  return q;
}

export async function findPlan(db: Db, id: string, forUpdate = false): Promise<PlanRow | undefined> {
  const q = db('plans').where({ id }).first();
  return forUpdate ? q.forUpdate() : q;
}

export async function findPlanByKey(db: Db, planKey: string): Promise<PlanRow | undefined> {
  return db('plans').where({ planKey }).first();
}

export async function insertPlan(db: Db, fields: PlanFields): Promise<PlanRow> {
  const [row] = await db('plans').insert(fields).returning('*');
  return row;
}

export async function updatePlan(db: Db, id: string, patch: Partial<PlanFields>): Promise<PlanRow> {
  const [row] = await db('plans')
    .where({ id })
    .update({ ...patch, updatedAt: db.fn.now() })
    .returning('*');
  return row;
}

export async function deletePlan(db: Db, id: string): Promise<void> {
  await db('plans').where({ id }).delete();
}

/** Another featured plan of the same billing cycle (at most one per cycle). */
export async function otherFeaturedPlan(db: Db, billingCycle: string, exceptId?: string): Promise<PlanRow | undefined> {
  const q = db('plans').where({ billingCycle, isFeatured: true }).first();
  if (exceptId) q.whereNot({ id: exceptId });
  return q;
}

/** How many tenants have a subscription row on this plan (any status). */
export async function subscriberCount(db: Db, planKey: string): Promise<number> {
  const [{ count }] = await db('subscriptions').where({ planKey }).countDistinct({ count: 'tenantId' });
  return Number(count);
}

export async function listFeatures(db: Db): Promise<PlanFeatureRow[]> {
  return db('planFeatures').select('*').orderBy([{ column: 'category' }, { column: 'sortOrder' }, { column: 'featureKey' }]);
}

export async function featuresByKey(db: Db, keys: string[]): Promise<PlanFeatureRow[]> {
  return keys.length ? db('planFeatures').whereIn('featureKey', keys) : [];
}

export async function insertFeature(db: Db, fields: PlanFeatureFields): Promise<PlanFeatureRow> {
  const [row] = await db('planFeatures').insert(fields).returning('*');
  return row;
}

export async function featureValuesOf(db: Db, planIds: string[]): Promise<PlanFeatureValueRow[]> {
  return planIds.length ? db('planFeatureOnPlan').whereIn('planId', planIds).select('planId', 'featureId', 'value') : [];
}

/** Replaces every feature value of the plan with `values`. */
export async function replaceFeatureValues(db: Db, planId: string, values: { featureId: string; value: string | null }[]): Promise<void> {
  await db('planFeatureOnPlan').where({ planId }).delete();
  if (values.length) await db('planFeatureOnPlan').insert(values.map((v) => ({ planId, ...v })));
}

/** Plan keys the tenant has a subscription row on (its hidden plans stay visible to it). */
export async function planKeysOfTenant(db: Db, tenantId: string): Promise<string[]> {
  const rows: { planKey: string }[] = await db('subscriptions').where({ tenantId }).distinct('planKey');
  return rows.map((r) => r.planKey);
}
