// Owner onboarding wizard (docs/rules/salon.md#onboarding): seven steps, monotonic progress, `complete` launches the salon
// (docs/rules/salon.md#launch): onboardedAt and launchedAt, unless something blocks it.
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
import { launchBlockers, type LaunchBlocker } from './launch.rules';

export const ONBOARDING_STEPS = ['welcome', 'salon_info', 'business_hours', 'services', 'staff', 'booking_policy', 'review_launch'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

const notFound = () => errors.notFound('tenant', 'Tenant not found');

/** What blocks the salon's launch now (docs/rules/salon.md#launch): the facts of the areas above, through `hooks`. */
async function blockersOf(db: Db, hooks: TenantHooks, tenant: repo.TenantRow): Promise<LaunchBlocker[]> {
  const [readiness, hasActivePaymentConfig] = await Promise.all([
    hooks.launchReadiness(db, tenant.id),
    tenant.settings.depositEnabled ? hooks.hasActivePaymentConfig(db, tenant.id) : Promise.resolve(true),
  ]);
  return launchBlockers(tenant.settings, { ...readiness, hasActivePaymentConfig });
}

/** The review step's list: what blocks the launch, and what customers would miss (no contact phone or e-mail). */
async function view(db: Db, hooks: TenantHooks, tenant: repo.TenantRow) {
  const stored = tenant.onboarding?.currentStep ?? 0;
  const current = tenant.onboardedAt ? ONBOARDING_STEPS.length : Math.max(0, Math.min(stored, ONBOARDING_STEPS.length));
  const launchBlockers = await blockersOf(db, hooks, tenant);
  const warnings: { code: string; message: string }[] = [...launchBlockers];
  if (!tenant.contactPhone && !tenant.contactEmail) {
    warnings.push({ code: 'SALON_CONTACT_MISSING', message: 'No contact phone or e-mail: customers told to contact the salon could not' });
  }
  return {
    currentStep: current,
    completedSteps: ONBOARDING_STEPS.filter((_, i) => i < current),
    steps: ONBOARDING_STEPS.map((key, index) => ({ key, index, completed: index < current })),
    isComplete: tenant.onboardedAt !== null && tenant.onboardedAt !== undefined,
    onboardedAt: toIsoOrNull(tenant.onboardedAt),
    launchedAt: toIsoOrNull(tenant.launchedAt),
    launchBlockers,
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

/**
 * The last step, review and launch (docs/rules/salon.md#launch): refused with 422
 * TENANT_LAUNCH_BLOCKED, listing what blocks it, while anything does; otherwise `now` stamps
 * onboardedAt and launchedAt the first time, and the salon is listed and bookable online. A salon that
 * has launched stays launched.
 */
export async function completeOnboarding(db: Db, hooks: TenantHooks, tenantId: string, now: Date): Promise<OnboardingView> {
  return db.transaction(async (trx) => {
    const tenant = await existingTenant(trx, tenantId, true);
    if (!tenant.launchedAt) {
      const blockers = await blockersOf(trx, hooks, tenant);
      if (blockers.length)
        throw errors.unprocessable(
          'TENANT_LAUNCH_BLOCKED',
          'The salon cannot take bookings online yet',
          blockers.map((b) => ({ field: b.code, message: b.message })),
        );
    }
    const updated = await repo.patchTenant(trx, tenantId, {
      onboarding: { currentStep: ONBOARDING_STEPS.length, completedSteps: [...ONBOARDING_STEPS] },
      onboardedAt: tenant.onboardedAt ?? now,
      launchedAt: tenant.launchedAt ?? now,
    });
    return view(trx, hooks, updated);
  });
}
