// Owner onboarding wizard (spec 4.2): seven steps, monotonic progress, `complete` sets onboardedAt.
//
// Progress is stored in tenants.onboarding as {currentStep, completedSteps}: `currentStep` is the
// index of the next step to do (0..7). Marking a step done moves progress to the step after it;
// every earlier step counts as done. Going back is IGNORED (not rejected): a step at or before the
// current progress leaves the state unchanged and answers 200, so client retries are harmless.
import type { Knex } from 'knex';
import type { TenantSettings } from './tenant-settings.rules';
import { TenantModel } from '../../db/models/tenant.model';
import { errors } from '../errors';
import { toIsoOrNull } from '../time/iso';

export const ONBOARDING_STEPS = ['welcome', 'salon_info', 'business_hours', 'services', 'staff', 'booking_policy', 'review_launch'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

/**
 * HOOK for the payments area: whether the tenant has an active payment-provider configuration.
 * Payment configurations do not exist yet, so this answers false and onboarding warns whenever
 * deposits are enabled. The payments colleague replaces the body with a real lookup.
 */
export async function hasActivePaymentConfig(_db: Knex | Knex.Transaction, _tenantId: string): Promise<boolean> {
  return false;
}

const notFound = () => errors.notFound('tenant', 'Tenant not found');

async function view(db: Knex | Knex.Transaction, tenant: TenantModel) {
  const stored = tenant.onboarding?.currentStep ?? 0;
  const current = tenant.onboardedAt ? ONBOARDING_STEPS.length : Math.max(0, Math.min(stored, ONBOARDING_STEPS.length));
  const warnings: { code: string; message: string }[] = [];
  if ((tenant.settings as TenantSettings).depositEnabled && !(await hasActivePaymentConfig(db, tenant.id))) {
    warnings.push({ code: 'DEPOSIT_WITHOUT_PAYMENT_CONFIG', message: 'Deposits are enabled but no active payment configuration exists' });
  }
  return {
    currentStep: current,
    completedSteps: ONBOARDING_STEPS.filter((_, i) => i < current),
    steps: ONBOARDING_STEPS.map((key, index) => ({ key, index, completed: index < current })),
    isComplete: tenant.onboardedAt !== null && tenant.onboardedAt !== undefined,
    onboardedAt: toIsoOrNull(tenant.onboardedAt),
    warnings,
  };
}

export type OnboardingView = Awaited<ReturnType<typeof view>>;

export async function getOnboarding(knex: Knex, tenantId: string): Promise<OnboardingView> {
  const tenant = await TenantModel.query(knex).findById(tenantId);
  if (!tenant) throw notFound();
  return view(knex, tenant);
}

export async function completeStep(knex: Knex, tenantId: string, step: OnboardingStep): Promise<OnboardingView> {
  return knex.transaction(async (trx) => {
    const tenant = await TenantModel.query(trx).findById(tenantId).forUpdate();
    if (!tenant) throw notFound();
    const next = ONBOARDING_STEPS.indexOf(step) + 1;
    const current = tenant.onboarding?.currentStep ?? 0;
    if (next <= current) return view(trx, tenant);
    const updated = await TenantModel.query(trx).patchAndFetchById(tenantId, {
      onboarding: { currentStep: next, completedSteps: ONBOARDING_STEPS.slice(0, next) as unknown as string[] },
    });
    return view(trx, updated);
  });
}

export async function completeOnboarding(knex: Knex, tenantId: string): Promise<OnboardingView> {
  return knex.transaction(async (trx) => {
    const tenant = await TenantModel.query(trx).findById(tenantId).forUpdate();
    if (!tenant) throw notFound();
    const updated = await TenantModel.query(trx).patchAndFetchById(tenantId, {
      onboarding: { currentStep: ONBOARDING_STEPS.length, completedSteps: [...ONBOARDING_STEPS] },
      onboardedAt: tenant.onboardedAt ?? new Date(),
    });
    return view(trx, updated);
  });
}
