// Owner onboarding wizard (docs/rules/salon.md#onboarding): seven steps, monotonic progress, `complete` sets onboardedAt.
//
// Progress is stored in tenants.onboarding as {currentStep, completedSteps}: `currentStep` is the
// index of the next step to do (0..7). Marking a step done moves progress to the step after it;
// every earlier step counts as done. Going back is IGNORED (not rejected): a step at or before the
// current progress leaves the state unchanged and answers 200, so client retries are harmless.
import type { Db } from '../../db/db-handle';
import * as repo from './tenant.repository';
import { errors } from '../errors';
import { toIsoOrNull } from '../time/iso';
import type { TenantHooks } from './tenant-hooks';
import { onlineBookingWarnings } from './online-booking-warnings.service';

export const ONBOARDING_STEPS = ['welcome', 'salon_info', 'business_hours', 'services', 'staff', 'booking_policy', 'review_launch'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

const notFound = () => errors.notFound('tenant', 'Tenant not found');

/** `hooks` answers whether payments are configured (the online booking warnings). */
async function view(db: Db, hooks: TenantHooks, tenant: repo.TenantRow) {
  const stored = tenant.onboarding?.currentStep ?? 0;
  const current = tenant.onboardedAt ? ONBOARDING_STEPS.length : Math.max(0, Math.min(stored, ONBOARDING_STEPS.length));
  const warnings = await onlineBookingWarnings(db, hooks, tenant.id, tenant.settings);
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

async function existingTenant(db: Db, tenantId: string, lock = false): Promise<repo.TenantRow> {
  const tenant = await repo.findTenant(db, tenantId, lock);
  if (!tenant) throw notFound();
  return tenant;
}

export async function getOnboarding(db: Db, hooks: TenantHooks, tenantId: string): Promise<OnboardingView> {
  return view(db, hooks, await existingTenant(db, tenantId));
}

export async function completeStep(db: Db, hooks: TenantHooks, tenantId: string, step: OnboardingStep): Promise<OnboardingView> {
  return db.transaction(async (trx) => {
    const tenant = await existingTenant(trx, tenantId, true);
    const next = ONBOARDING_STEPS.indexOf(step) + 1;
    const current = tenant.onboarding?.currentStep ?? 0;
    if (next <= current) return view(trx, hooks, tenant);
    const updated = await repo.patchTenant(trx, tenantId, {
      onboarding: { currentStep: next, completedSteps: ONBOARDING_STEPS.slice(0, next) as unknown as string[] },
    });
    return view(trx, hooks, updated);
  });
}

/** `now` stamps onboardedAt the first time. */
export async function completeOnboarding(db: Db, hooks: TenantHooks, tenantId: string, now: Date): Promise<OnboardingView> {
  return db.transaction(async (trx) => {
    const tenant = await existingTenant(trx, tenantId, true);
    const updated = await repo.patchTenant(trx, tenantId, {
      onboarding: { currentStep: ONBOARDING_STEPS.length, completedSteps: [...ONBOARDING_STEPS] },
      onboardedAt: tenant.onboardedAt ?? now,
    });
    return view(trx, hooks, updated);
  });
}
