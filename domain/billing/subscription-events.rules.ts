// The subscription workflow's contract (docs/rules/consistency.md#one-workflow-per-entity): one workflow per tenant with id
// `subscription:<tenantId>`, told about every change of the tenant's subscription by a small signal
// `{type, entityVersion}` (the tenant's `subscription_version` after the change), and one
// platform-wide reconcile workflow. Pure: imported by the services, the signaller and the workflows.

export type SubscriptionEventType =
  // owner registration started the platform trial
  | 'TrialStarted'
  // a verified provider webhook (or reconcile drift) landed in the inbox
  | 'ProviderEventReceived'
  // the owner cancelled during the trial
  | 'TrialCancelRequested'
  // the owner asked the provider to cancel at period end
  | 'CancelRequested';

export interface SubscriptionEvent {
  type: SubscriptionEventType;
  entityVersion: number;
}

export interface SubscriptionWorkflowArgs {
  tenantId: string;
}

/** What the workflow reads: the tenant's billing read-model and how many inbox events wait. */
export interface SubscriptionState {
  tenantId: string;
  version: number;
  subscriptionStatus: string | null;
  /** ISO; set only while the latest row is the platform trial */
  trialEndsAt: string | null;
  pendingEvents: number;
}

export const SUBSCRIPTION_WORKFLOW_TYPE = 'subscriptionWorkflow';
export const SUBSCRIPTION_EVENT_SIGNAL = 'subscriptionEvent';
export const RECONCILE_WORKFLOW_TYPE = 'subscriptionReconcileWorkflow';
export const RECONCILE_WORKFLOW_ID = 'subscription-reconcile';
/** Every 6 hours, in batches of 100. */
export const RECONCILE_INTERVAL_MS = 6 * 60 * 60 * 1000;
export const RECONCILE_BATCH_SIZE = 100;

export function subscriptionWorkflowId(tenantId: string): string {
  return `subscription:${tenantId}`;
}
