// The platform subscription of a tenant (docs/rules/billing.md#subscriptions) and the gate derived from it. Pure: no I/O, so
// the subscription workflow may import it.

export const SUBSCRIPTION_STATUSES = ['ACTIVE', 'PAST_DUE', 'CANCELED', 'EXPIRED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const BILLING_EVENT_KINDS = ['created', 'updated', 'renewed', 'canceled', 'expired', 'payment_failed'] as const;
export type BillingEventKind = (typeof BILLING_EVENT_KINDS)[number];

const DAY_MS = 24 * 60 * 60 * 1000;

/** A provider's subscription event, normalised by the billing adapter. */
export interface BillingEvent {
  kind: BillingEventKind;
  providerSubId: string;
  /** from the checkout's custom data; null when the provider did not echo it */
  tenantId: string | null;
  planKey: string | null;
  /** the provider's product/variant id, mapped to a plan when `planKey` is absent */
  variantId: string | null;
  /** the provider's own status, mapped; null when it did not say */
  status: SubscriptionStatus | null;
  customerId: string | null;
  /** ISO strings */
  currentPeriodEnd: string | null;
  trialEndsAt: string | null;
  cancelAtPeriodEnd: boolean | null;
}

export interface SubscriptionFacts {
  status: SubscriptionStatus;
  providerSubId: string | null;
  trialEndsAt: Date | null;
  cancelAtPeriodEnd: boolean;
}

/** The subscription fields the tenant read-model carries (docs/rules/billing.md). */
export interface TenantBillingReadModel {
  subscriptionStatus: string | null;
  trialEndsAt: Date | string | null;
  billingExempt: boolean;
}

/** A row without a provider subscription is the platform's own trial. */
export function isPureTrial(sub: Pick<SubscriptionFacts, 'providerSubId'>): boolean {
  return sub.providerSubId === null;
}

export function trialEndsAtFrom(startMs: number, trialDays: number): Date {
  return new Date(startMs + trialDays * DAY_MS);
}

/** Whole days of trial left at `nowMs` (rounded up; 0 once it ended): what checkout passes on. */
export function remainingTrialDays(trialEndsAt: Date | null, nowMs: number): number {
  if (!trialEndsAt) return 0;
  return Math.max(0, Math.ceil((trialEndsAt.getTime() - nowMs) / DAY_MS));
}

/** The tenant read-model of the latest row: `trialEndsAt` only while that row is the platform trial. */
export function readModelOf(latest: SubscriptionFacts | undefined): { subscriptionStatus: SubscriptionStatus | null; trialEndsAt: Date | null } {
  if (!latest) return { subscriptionStatus: null, trialEndsAt: null };
  return { subscriptionStatus: latest.status, trialEndsAt: isPureTrial(latest) ? latest.trialEndsAt : null };
}

/**
 * The booking gate (docs/rules/billing.md#subscription-gate): blocked when EXPIRED, or ACTIVE with a lapsed trial, unless billing-exempt.
 * PAST_DUE and CANCELED stay open; a tenant without any subscription row is not gated.
 */
export function isSubscriptionLapsed(tenant: TenantBillingReadModel, nowMs: number): boolean {
  if (tenant.billingExempt) return false;
  if (tenant.subscriptionStatus === 'EXPIRED') return true;
  if (tenant.subscriptionStatus === 'ACTIVE' && tenant.trialEndsAt !== null) return new Date(tenant.trialEndsAt).getTime() <= nowMs;
  return false;
}

/** When the workflow's trial timer is due (epoch ms), or null when no trial clock runs. */
export function trialDueAt(tenant: { subscriptionStatus: string | null; trialEndsAt: string | null }): number | null {
  return tenant.subscriptionStatus === 'ACTIVE' && tenant.trialEndsAt ? Date.parse(tenant.trialEndsAt) : null;
}

export type EventOutcome =
  | { action: 'insert'; status: SubscriptionStatus }
  | { action: 'update'; status: SubscriptionStatus; cancelAtPeriodEnd?: boolean; canceled?: boolean; expired?: boolean }
  | { action: 'ignore'; reason: string };

/**
 * The transitions (docs/rules/billing.md#subscriptions) for one provider event on the row with that provider id (`row`, undefined
 * when none exists yet). EXPIRED rows never change: a `created` for them makes a new row.
 */
export function outcomeOf(event: BillingEvent, row: SubscriptionFacts | undefined): EventOutcome {
  if (row?.status === 'EXPIRED') {
    return { action: 'ignore', reason: 'SUBSCRIPTION_EXPIRED_IS_TERMINAL' };
  }
  if (!row) {
    if (event.kind === 'expired') return { action: 'ignore', reason: 'SUBSCRIPTION_NOT_FOUND' };
    // created (or any later event whose created was lost): a new row
    const status: SubscriptionStatus = event.kind === 'payment_failed' ? 'PAST_DUE' : event.kind === 'canceled' ? 'CANCELED' : (event.status ?? 'ACTIVE');
    return { action: 'insert', status: status === 'EXPIRED' ? 'ACTIVE' : status };
  }
  switch (event.kind) {
    case 'created':
    case 'updated':
      return {
        action: 'update',
        status: event.status && event.status !== 'EXPIRED' ? event.status : row.status,
        cancelAtPeriodEnd: event.cancelAtPeriodEnd ?? undefined,
      };
    case 'renewed':
      return { action: 'update', status: 'ACTIVE', cancelAtPeriodEnd: event.cancelAtPeriodEnd ?? undefined };
    case 'payment_failed':
      return row.status === 'ACTIVE' ? { action: 'update', status: 'PAST_DUE' } : { action: 'ignore', reason: `PAYMENT_FAILED_IN_${row.status}` };
    case 'canceled':
      return row.status === 'ACTIVE' || row.status === 'PAST_DUE'
        ? { action: 'update', status: 'CANCELED', cancelAtPeriodEnd: true, canceled: true }
        : { action: 'ignore', reason: `CANCELED_IN_${row.status}` };
    case 'expired':
      return { action: 'update', status: 'EXPIRED', expired: true };
  }
}

/**
 * A provider event whose time is inside its signed body (docs/rules/billing.md#provider-events) is
 * refused once it is older than this: a captured delivery cannot be replayed later. Lemon Squeezy
 * retries a failed delivery within about three minutes; the hour leaves room for a slow queue.
 */
export const SIGNED_EVENT_MAX_AGE_MINUTES = 60;
/** How far ahead of the platform's clock an event's time may be (the provider's clock runs a little fast). */
export const SIGNED_EVENT_MAX_SKEW_MINUTES = 5;

/** Whether an event that happened at `occurredAt` is too old (or too far ahead) to be taken at `now`. At exactly the maximum age it is still taken. */
export function isStaleEvent(occurredAt: Date, now: Date): boolean {
  const age = now.getTime() - occurredAt.getTime();
  return age > SIGNED_EVENT_MAX_AGE_MINUTES * 60_000 || age < -SIGNED_EVENT_MAX_SKEW_MINUTES * 60_000;
}
