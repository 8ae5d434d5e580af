/** Whether a salon takes bookings (docs/rules/billing.md#subscription-gate). Pure. */
import { errors } from '../errors';
import { isSubscriptionLapsed, type TenantBillingReadModel } from '../billing/subscription.rules';

type BookableTenant = { isActive: boolean; launchedAt: Date | string | null } & Partial<TenantBillingReadModel>;

/**
 * Inactive salons, salons that have not launched (docs/rules/salon.md#launch), and salons whose
 * subscription lapsed (EXPIRED, or a trial that ended; not billing-exempt), take no bookings.
 */
export function isAcceptingBookings(tenant: BookableTenant, now: Date): boolean {
  if (!tenant.isActive || !tenant.launchedAt) return false;
  return !isSubscriptionLapsed(
    { subscriptionStatus: tenant.subscriptionStatus ?? null, trialEndsAt: tenant.trialEndsAt ?? null, billingExempt: tenant.billingExempt ?? false },
    now.getTime(),
  );
}

export function assertAcceptingBookings(tenant: BookableTenant, now: Date): void {
  if (!isAcceptingBookings(tenant, now)) throw errors.conflict('TENANT_NOT_ACCEPTING_BOOKINGS', 'This salon is not taking bookings right now');
}
