// The subscription workflow's contract (docs/rules/consistency.md#the-entity-contract): one workflow
// per tenant, `subscriptionWorkflow` with id `subscription:<tenantId>`, told about every change of the
// tenant's subscription by the signal `subscriptionEvent` `{type, entityVersion}` (the tenant's
// `subscription_version` after the change), reading it as a SubscriptionSnapshot; and one
// platform-wide reconcile workflow. Pure: imported by the services, the activities and the workflows.
import { entityContract, type EntityEvent } from '../workflow-signals/entity-contract.rules';

export type SubscriptionEventType =
  // owner registration started the platform trial
  | 'TrialStarted'
  // a verified provider webhook (or reconcile drift) landed in the inbox
  | 'ProviderEventReceived'
  // the owner cancelled during the trial
  | 'TrialCancelRequested'
  // the owner asked the provider to cancel at period end
  | 'CancelRequested';

export type SubscriptionEvent = EntityEvent<SubscriptionEventType>;

export interface SubscriptionWorkflowArgs {
  tenantId: string;
}

/** What the workflow reads: the tenant's billing read-model and how many inbox events wait. */
export interface SubscriptionSnapshot {
  tenantId: string;
  version: number;
  subscriptionStatus: string | null;
  /** ISO; set only while the latest row is the platform trial */
  trialEndsAt: string | null;
  pendingEvents: number;
}

/** A tenant's subscription is the entity: its id is the tenant's. */
export const subscriptionContract = entityContract<SubscriptionEventType, SubscriptionWorkflowArgs, SubscriptionSnapshot>({
  entity: 'subscription',
  startArgs: (s) => ({ tenantId: s.tenantId }),
});

export const RECONCILE_WORKFLOW_TYPE = 'subscriptionReconcileWorkflow';
export const RECONCILE_WORKFLOW_ID = 'subscription-reconcile';
/** Every 6 hours, in batches of 100. */
export const RECONCILE_INTERVAL_MS = 6 * 60 * 60 * 1000;
export const RECONCILE_BATCH_SIZE = 100;
