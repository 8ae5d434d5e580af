// Every query of plans and plan features (docs/rules/billing.md#plans-and-features). Plans are platform-wide (no tenant scope);
// the per-tenant read is `planKeysOfTenant`.
import { fn } from 'objection';
import type { Db } from '../../db/db-handle';
import { PlanModel } from '../../db/models/plan.model';
import { PlanFeatureModel } from '../../db/models/plan-feature.model';
import { PlanFeatureOnPlanModel } from '../../db/models/plan-feature-on-plan.model';
import { SubscriptionModel } from '../../db/models/subscription.model';
import { plain } from '../../db/plain';
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
/** What a new plan must name; the database defaults the rest (currency NOK, public, self-serve...). */
export type NewPlanFields = Partial<PlanFields> & Pick<PlanFields, 'planKey' | 'displayName' | 'displayNameNb' | 'billingCycle'>;
export type PlanFeatureFields = Omit<PlanFeatureRow, 'id'>;

const ORDER = [{ column: 'sortOrder' }, { column: 'planKey' }];

/** db/ types the enums as strings; the domain's rows narrow them. */
const planRow = (model: PlanModel): PlanRow => plain(model) as unknown as PlanRow;
const featureRow = (model: PlanFeatureModel): PlanFeatureRow => plain(model) as unknown as PlanFeatureRow;

export async function listPlans(db: Db, filter: { publicOnly?: boolean; orPlanKeys?: string[] } = {}): Promise<PlanRow[]> {
  const q = PlanModel.query(db).orderBy(ORDER);
  if (filter.publicOnly) q.where((w) => w.where('isPublic', true).orWhereIn('planKey', filter.orPlanKeys ?? []));
  return (await q).map(planRow);
}

export async function countPlans(db: Db): Promise<number> {
  return PlanModel.query(db).resultSize();
}

export async function findPlan(db: Db, id: string, forUpdate = false): Promise<PlanRow | undefined> {
  const q = PlanModel.query(db).findById(id);
  if (forUpdate) q.forUpdate();
  const row = await q;
  return row && planRow(row);
}

export async function findPlanByKey(db: Db, planKey: string): Promise<PlanRow | undefined> {
  const row = await PlanModel.query(db).findOne({ planKey });
  return row && planRow(row);
}

/** The plan a provider variant id sells, by the plan's own variant column (`sandboxVariantId`...). */
export async function planKeyByVariantColumn(
  db: Db,
  column: 'sandboxVariantId' | 'polarVariantId' | 'lemonsqueezyVariantId',
  variantId: string,
): Promise<string | undefined> {
  return (await PlanModel.query(db).select('planKey').where(column, variantId).first())?.planKey;
}

export async function insertPlan(db: Db, fields: NewPlanFields): Promise<PlanRow> {
  return planRow(await PlanModel.query(db).insert(fields).returning('*'));
}

export async function updatePlan(db: Db, id: string, patch: Partial<PlanFields>): Promise<PlanRow> {
  const [row] = await PlanModel.query(db)
    .patch({ ...patch, updatedAt: fn.now() })
    .where({ id })
    .returning('*');
  return planRow(row);
}

export async function deletePlan(db: Db, id: string): Promise<void> {
  await PlanModel.query(db).deleteById(id);
}

/** Another featured plan of the same billing cycle (at most one per cycle). */
export async function otherFeaturedPlan(db: Db, billingCycle: string, exceptId?: string): Promise<PlanRow | undefined> {
  const q = PlanModel.query(db).where({ billingCycle, isFeatured: true });
  if (exceptId) q.whereNot({ id: exceptId });
  const row = await q.first();
  return row && planRow(row);
}

/** How many tenants have a subscription row on this plan (any status). */
export async function subscriberCount(db: Db, planKey: string): Promise<number> {
  const row = (await SubscriptionModel.query(db).where({ planKey }).countDistinct({ count: 'tenantId' }).first()) as unknown as { count: number };
  return Number(row.count);
}

export async function listFeatures(db: Db): Promise<PlanFeatureRow[]> {
  return (await PlanFeatureModel.query(db).orderBy([{ column: 'category' }, { column: 'sortOrder' }, { column: 'featureKey' }])).map(featureRow);
}

export async function featuresByKey(db: Db, keys: string[]): Promise<PlanFeatureRow[]> {
  return keys.length ? (await PlanFeatureModel.query(db).whereIn('featureKey', keys)).map(featureRow) : [];
}

export async function findFeatureIdByKey(db: Db, featureKey: string): Promise<string | undefined> {
  return (await PlanFeatureModel.query(db).select('id').findOne({ featureKey }))?.id;
}

export async function insertFeature(db: Db, fields: PlanFeatureFields): Promise<PlanFeatureRow> {
  return featureRow(await PlanFeatureModel.query(db).insert(fields).returning('*'));
}

export async function featureValuesOf(db: Db, planIds: string[]): Promise<PlanFeatureValueRow[]> {
  return planIds.length ? (await PlanFeatureOnPlanModel.query(db).whereIn('planId', planIds).select('planId', 'featureId', 'value')).map(plain) : [];
}

/** Adds feature values to a plan. */
export async function insertFeatureValues(db: Db, planId: string, values: { featureId: string; value: string | null }[]): Promise<void> {
  if (values.length) await PlanFeatureOnPlanModel.query(db).insert(values.map((v) => ({ planId, ...v })));
}

/** Replaces every feature value of the plan with `values`. */
export async function replaceFeatureValues(db: Db, planId: string, values: { featureId: string; value: string | null }[]): Promise<void> {
  await PlanFeatureOnPlanModel.query(db).where({ planId }).delete();
  await insertFeatureValues(db, planId, values);
}

/** Plan keys the tenant has a subscription row on (its hidden plans stay visible to it). */
export async function planKeysOfTenant(db: Db, tenantId: string): Promise<string[]> {
  return (await SubscriptionModel.query(db).where({ tenantId }).distinct('planKey')).map((r) => r.planKey);
}
