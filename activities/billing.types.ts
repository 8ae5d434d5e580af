// What the subscription workflows may ask of the outside world (types only; the workflows import
// these, activities/billing.activities.ts implements them).
import type { SubscriptionSnapshot } from '../domain/billing/subscription-events.rules';

export interface ReconcileBatchResult {
  /** the last subscription id looked at (the next batch starts after it); null when none was left */
  lastId: string | null;
  checked: number;
  /** subscriptions whose provider state differed; their drift went through the webhook handler */
  drifted: number;
}

export interface SubscriptionActivities {
  /** The tenant's billing state once its subscription version reached `minVersion` (retried until then). */
  readSubscriptionState(input: { tenantId: string; minVersion: number }): Promise<SubscriptionSnapshot>;
  /** Applies the tenant's pending inbox events (docs/rules/billing.md#provider-events) and returns the state after them. */
  applySubscriptionEvents(input: { tenantId: string }): Promise<SubscriptionSnapshot>;
  /** The trial timer fired at `asOf` (workflow time, ISO): expires a still-lapsed platform trial. */
  expireTrial(input: { tenantId: string; asOf: string }): Promise<SubscriptionSnapshot>;
  /** Compares up to `limit` linked, non-terminal subscriptions after `afterId` with their provider. */
  reconcileBatch(input: { afterId: string | null; limit: number; asOf: string }): Promise<ReconcileBatchResult>;
}

export const SubscriptionActivityErrors = {
  notFound: 'TENANT_NOT_FOUND',
} as const;
