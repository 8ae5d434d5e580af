// Plans and plan features for the super-admin, and the plan lists tenants and visitors see
// (docs/rules/billing.md#plans-and-features). Each write owns its transaction.
import type { Db } from '../../db/db-handle';
import { errors } from '../errors';
import * as repo from './plan.repository';
import { assertValidPricing, storedFeatureValue, type BillingCycle } from './plan.rules';
import { toAdminPlanDto, toFeatureDto, toPublicPlanDto } from './plan.dto';

export interface FeatureToggle {
  featureKey: string;
  value?: boolean | number | string | null;
}

export type PlanInput = Partial<Omit<repo.PlanFields, 'updatedBy'>> & {
  planKey?: string;
  displayName?: string;
  displayNameNb?: string;
  billingCycle?: BillingCycle;
  features?: FeatureToggle[];
};

const planNotFound = () => errors.notFound('plan');

async function withFeatures<T>(
  db: Db,
  plans: repo.PlanRow[],
  dto: (p: repo.PlanRow, f: repo.PlanFeatureRow[], v: repo.PlanFeatureValueRow[]) => T,
): Promise<T[]> {
  const [features, values] = await Promise.all([
    repo.listFeatures(db),
    repo.featureValuesOf(
      db,
      plans.map((p) => p.id),
    ),
  ]);
  return plans.map((p) => dto(p, features, values));
}

/** GET /public/plans: published plans with their feature values. */
export async function publicPlans(db: Db) {
  return withFeatures(db, await repo.listPlans(db, { publicOnly: true }), toPublicPlanDto);
}

/** GET /me/plans: the published plans plus hidden ones the tenant already has. */
export async function plansForTenant(db: Db, tenantId: string) {
  const own = await repo.planKeysOfTenant(db, tenantId);
  return withFeatures(db, await repo.listPlans(db, { publicOnly: true, orPlanKeys: own }), toPublicPlanDto);
}

export async function adminPlans(db: Db) {
  return withFeatures(db, await repo.listPlans(db), toAdminPlanDto);
}

async function adminPlan(db: Db, plan: repo.PlanRow) {
  return (await withFeatures(db, [plan], toAdminPlanDto))[0];
}

async function assertFeaturedFree(db: Db, plan: repo.PlanRow | repo.PlanFields, exceptId?: string): Promise<void> {
  if (plan.isFeatured && (await repo.otherFeaturedPlan(db, plan.billingCycle, exceptId))) {
    throw errors.conflict('PLAN_FEATURED_EXISTS', `Another ${plan.billingCycle} plan is already featured; unfeature it first`, [
      { field: 'isFeatured', message: 'at most one featured plan per billing cycle' },
    ]);
  }
}

async function applyFeatures(db: Db, planId: string, toggles: FeatureToggle[]): Promise<void> {
  const keys = toggles.map((t) => t.featureKey);
  if (new Set(keys).size !== keys.length)
    throw errors.validation('A feature is listed twice', [{ field: 'features', message: 'each featureKey at most once' }]);
  const known = new Map((await repo.featuresByKey(db, keys)).map((f) => [f.featureKey, f]));
  const values: { featureId: string; value: string | null }[] = [];
  toggles.forEach((t, i) => {
    const feature = known.get(t.featureKey);
    if (!feature) throw errors.validation('Unknown feature', [{ field: `features.${i}.featureKey`, message: `no feature ${t.featureKey}` }]);
    const value = storedFeatureValue(feature.valueType, t.value, `features.${i}.value`);
    if (value !== undefined) values.push({ featureId: feature.id, value });
  });
  await repo.replaceFeatureValues(db, planId, values);
}

export async function createPlan(db: Db, adminId: string, input: PlanInput) {
  const { features, ...fields } = input;
  const row: repo.PlanFields = {
    planKey: fields.planKey!,
    displayName: fields.displayName!,
    displayNameNb: fields.displayNameNb!,
    billingCycle: fields.billingCycle!,
    tagline: fields.tagline ?? null,
    taglineNb: fields.taglineNb ?? null,
    description: fields.description ?? null,
    descriptionNb: fields.descriptionNb ?? null,
    flatPriceMinor: fields.flatPriceMinor ?? null,
    pricePerSeatMinor: fields.pricePerSeatMinor ?? null,
    currency: fields.currency ?? 'NOK',
    selfServeCheckout: fields.selfServeCheckout ?? true,
    isPublic: fields.isPublic ?? true,
    isFeatured: fields.isFeatured ?? false,
    sortOrder: fields.sortOrder ?? 0,
    trialDays: fields.trialDays ?? null,
    sandboxVariantId: fields.sandboxVariantId ?? null,
    polarVariantId: fields.polarVariantId ?? null,
    lemonsqueezyVariantId: fields.lemonsqueezyVariantId ?? null,
    updatedBy: adminId,
  };
  assertValidPricing(row);
  return db.transaction(async (trx) => {
    if (await repo.findPlanByKey(trx, row.planKey)) throw errors.conflict('PLAN_KEY_EXISTS', `A plan with planKey ${row.planKey} already exists`);
    await assertFeaturedFree(trx, row);
    const plan = await repo.insertPlan(trx, row);
    if (features) await applyFeatures(trx, plan.id, features);
    return adminPlan(trx, plan);
  });
}

export async function updatePlan(db: Db, adminId: string, id: string, input: PlanInput) {
  const { features, ...patch } = input;
  return db.transaction(async (trx) => {
    const current = await repo.findPlan(trx, id, true);
    if (!current) throw planNotFound();
    const next = { ...current, ...patch };
    assertValidPricing(next);
    await assertFeaturedFree(trx, next, id);
    const plan = await repo.updatePlan(trx, id, { ...patch, updatedBy: adminId });
    if (features) await applyFeatures(trx, id, features);
    return adminPlan(trx, plan);
  });
}

/** 409 PLAN_HAS_SUBSCRIBERS with the tenant count: hide it (`isPublic=false`) instead. */
export async function deletePlan(db: Db, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const plan = await repo.findPlan(trx, id, true);
    if (!plan) throw planNotFound();
    const tenants = await repo.subscriberCount(trx, plan.planKey);
    if (tenants > 0) {
      throw errors.conflict('PLAN_HAS_SUBSCRIBERS', `${tenants} tenant(s) subscribe to this plan; set isPublic=false to hide it instead of deleting it`, [
        { field: 'tenantCount', message: String(tenants) },
        { field: 'isPublic', message: 'set isPublic=false to hide the plan; existing subscribers keep it' },
      ]);
    }
    await repo.deletePlan(trx, id);
  });
}

export async function listFeatures(db: Db) {
  return (await repo.listFeatures(db)).map(toFeatureDto);
}

export async function createFeature(
  db: Db,
  input: Partial<repo.PlanFeatureFields> & Pick<repo.PlanFeatureFields, 'featureKey' | 'displayName' | 'displayNameNb' | 'category'>,
) {
  return db.transaction(async (trx) => {
    if ((await repo.featuresByKey(trx, [input.featureKey])).length)
      throw errors.conflict('PLAN_FEATURE_KEY_EXISTS', `A feature with featureKey ${input.featureKey} already exists`);
    return toFeatureDto(
      await repo.insertFeature(trx, {
        featureKey: input.featureKey,
        displayName: input.displayName,
        displayNameNb: input.displayNameNb,
        description: input.description ?? null,
        descriptionNb: input.descriptionNb ?? null,
        category: input.category,
        isRoadmap: input.isRoadmap ?? false,
        valueType: input.valueType ?? 'boolean',
        iconKey: input.iconKey ?? null,
        sortOrder: input.sortOrder ?? 0,
      }),
    );
  });
}
