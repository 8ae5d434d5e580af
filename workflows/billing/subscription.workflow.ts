// A salon's platform subscription over time (docs/rules/billing.md#subscriptions), one workflow per tenant
// (`subscription:<tenantId>`), and the platform-wide reconcile loop (docs/rules/billing.md#reconcile).
//
//   trial started      -> a durable timer runs to trialEndsAt (the plan's trialDays, else 14 days)
//   provider events    -> applied in arrival order through the one handler (created, updated,
//                         renewed, canceled, expired, payment_failed)
//   trialEndsAt        -> the trial expires, unless a paid subscription arrived first
//   nothing left to wait for -> the workflow ends; the next signal starts it again (signal-with-start)
//
// The api bumps the tenant's subscription version and signals `{type, entityVersion}` before its
// transaction commits; the entity inbox turns those signals into committed state.
import { continueAsNew, proxyActivities, sleep } from '@temporalio/workflow';
import type { ReconcileBatchResult, SubscriptionActivities } from '../../activities/billing.types';
import { SubscriptionActivityErrors } from '../../activities/billing.types';
import {
  RECONCILE_BATCH_SIZE,
  RECONCILE_INTERVAL_MS,
  subscriptionContract,
  type SubscriptionSnapshot,
  type SubscriptionWorkflowArgs,
} from '../../domain/billing/subscription-events.rules';
import { trialDueAt } from '../../domain/billing/subscription.rules';
import { entityInbox, entitySignal, proxyReadActivities } from '../shared/entity-inbox';

export type { SubscriptionWorkflowArgs } from '../../domain/billing/subscription-events.rules';

export const subscriptionEventSignal = entitySignal(subscriptionContract);

const { readSubscriptionState } = proxyReadActivities<SubscriptionActivities>([SubscriptionActivityErrors.notFound]);

// Database writes: retried until the database is back (an hour at most between attempts).
const { applySubscriptionEvents, expireTrial, reconcileBatch } = proxyActivities<SubscriptionActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 hour', nonRetryableErrorTypes: [SubscriptionActivityErrors.notFound] },
});

export async function subscriptionWorkflow({ tenantId }: SubscriptionWorkflowArgs): Promise<void> {
  let state: SubscriptionSnapshot | undefined;

  const subscription = entityInbox(subscriptionContract, tenantId, {
    readCommitted: (minVersion) => readSubscriptionState({ tenantId, minVersion }),
    // every committed change: apply the provider events that landed in the inbox
    onChange: async ({ current }) => {
      state = current.pendingEvents > 0 ? await applySubscriptionEvents({ tenantId }) : current;
    },
  });

  if (!(await subscription.first())) return;

  for (;;) {
    const due = trialDueAt(state!);
    if (due === null) {
      // no clock runs: apply what is still queued, then end (a later signal starts a new run)
      if (!(await subscription.catchUp())) return;
      continue;
    }
    // the trial runs until its end, unless a change moves or ends it first
    const changed = await subscription.waitUntil(() => trialDueAt(state!) !== due, {
      deadline: () => trialDueAt(state!),
      summary: () => `end of the trial at ${state!.trialEndsAt}`,
    });
    if (!changed) state = await expireTrial({ tenantId, asOf: new Date(Date.now()).toISOString() });
  }
}

export interface ReconcileWorkflowArgs {
  /** cycles run by earlier runs of this workflow (continueAsNew carries it) */
  cycles?: number;
}

/**
 * Every 6 hours, linked non-terminal subscriptions are compared with their provider in batches of
 * 100; drift goes through the webhook handler. One cycle per run: the next is a new run
 * (continueAsNew), so the history never grows.
 */
export async function subscriptionReconcileWorkflow({ cycles = 0 }: ReconcileWorkflowArgs = {}): Promise<void> {
  await sleep(RECONCILE_INTERVAL_MS, { summary: 'the next reconcile cycle with the billing providers' });
  const asOf = new Date(Date.now()).toISOString();
  let afterId: string | null = null;
  for (;;) {
    const batch: ReconcileBatchResult = await reconcileBatch({ afterId, limit: RECONCILE_BATCH_SIZE, asOf });
    if (batch.lastId === null) break;
    afterId = batch.lastId;
  }
  await continueAsNew<typeof subscriptionReconcileWorkflow>({ cycles: cycles + 1 });
}
