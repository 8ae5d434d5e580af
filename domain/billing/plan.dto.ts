// Plan and feature rows -> API shapes (docs/rules/billing.md#plans-and-features).
import { toIso } from '../time/iso';
import { featureValueOut } from './plan.rules';
import type { PlanFeatureRow, PlanFeatureValueRow, PlanRow } from './plan.repository';

export function toFeatureDto(f: PlanFeatureRow) {
  return {
    id: f.id,
    featureKey: f.featureKey,
    displayName: f.displayName,
    displayNameNb: f.displayNameNb,
    description: f.description,
    descriptionNb: f.descriptionNb,
    category: f.category,
    isRoadmap: f.isRoadmap,
    valueType: f.valueType,
    iconKey: f.iconKey,
    sortOrder: f.sortOrder,
  };
}

function planFeatures(plan: PlanRow, features: PlanFeatureRow[], values: PlanFeatureValueRow[]) {
  const byId = new Map(features.map((f) => [f.id, f]));
  return values
    .filter((v) => v.planId === plan.id && byId.has(v.featureId))
    .map((v) => ({ feature: byId.get(v.featureId)!, value: v.value }))
    .sort(
      (a, b) =>
        a.feature.category.localeCompare(b.feature.category) ||
        a.feature.sortOrder - b.feature.sortOrder ||
        a.feature.featureKey.localeCompare(b.feature.featureKey),
    )
    .map(({ feature, value }) => ({
      featureKey: feature.featureKey,
      displayName: feature.displayName,
      displayNameNb: feature.displayNameNb,
      category: feature.category,
      isRoadmap: feature.isRoadmap,
      valueType: feature.valueType,
      iconKey: feature.iconKey,
      value: featureValueOut(feature.valueType, value),
    }));
}

/** What tenants and the public see of a plan. */
export function toPublicPlanDto(plan: PlanRow, features: PlanFeatureRow[], values: PlanFeatureValueRow[]) {
  return {
    planKey: plan.planKey,
    displayName: plan.displayName,
    displayNameNb: plan.displayNameNb,
    billingCycle: plan.billingCycle,
    tagline: plan.tagline,
    taglineNb: plan.taglineNb,
    description: plan.description,
    descriptionNb: plan.descriptionNb,
    flatPriceMinor: plan.flatPriceMinor,
    pricePerSeatMinor: plan.pricePerSeatMinor,
    currency: plan.currency,
    selfServeCheckout: plan.selfServeCheckout,
    isPublic: plan.isPublic,
    isFeatured: plan.isFeatured,
    sortOrder: plan.sortOrder,
    trialDays: plan.trialDays,
    features: planFeatures(plan, features, values),
  };
}

/** The super-admin's view: everything, provider variant ids and audit fields included. */
export function toAdminPlanDto(plan: PlanRow, features: PlanFeatureRow[], values: PlanFeatureValueRow[]) {
  return {
    id: plan.id,
    ...toPublicPlanDto(plan, features, values),
    sandboxVariantId: plan.sandboxVariantId,
    polarVariantId: plan.polarVariantId,
    lemonsqueezyVariantId: plan.lemonsqueezyVariantId,
    createdAt: toIso(plan.createdAt),
    updatedAt: toIso(plan.updatedAt),
    updatedBy: plan.updatedBy,
  };
}
