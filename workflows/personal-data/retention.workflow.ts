// Each salon's customer retention (docs/rules/personal-data.md#retention), one durable timer per salon
// (`customer-retention:<salon id>`):
//
//   sweep  -> every customer past the salon's retention is pseudonymised, in batches; the sales kept
//             for the accounts whose period ended are removed; the sweep's report is recorded
//   a day  -> the next sweep, as a new run (continueAsNew), so the history stays short
//
// and the platform-wide loop (`customer-retention-starter`) that the worker starts, which makes sure
// every active salon has its timer once a day (signal-with-start: a running timer only hears it).
// The sweep's time is the workflow clock's, handed to the activities.
import { continueAsNew, defineSignal, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { RetentionActivities } from '../../activities/personal-data.types';
import { RETENTION_ENSURED_SIGNAL, RETENTION_STARTER_BATCH_SIZE, RETENTION_SWEEP_INTERVAL_MS } from '../../domain/personal-data/erasure-events.rules';

export interface RetentionWorkflowArgs {
  tenantId: string;
  /** sweeps run by earlier runs (continueAsNew carries it) */
  sweeps?: number;
}

export const customerRetentionEnsuredSignal = defineSignal<[unknown]>(RETENTION_ENSURED_SIGNAL);

const { sweepRetentionBatch, recordRetentionSweep, ensureRetentionTimers } = proxyActivities<RetentionActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 hour' },
});

export async function customerRetentionWorkflow({ tenantId, sweeps = 0 }: RetentionWorkflowArgs): Promise<void> {
  // the starter's daily signal only starts a timer that is not running; a running one has nothing to do with it
  setHandler(customerRetentionEnsuredSignal, () => undefined);
  const at = Date.now();
  let accountingRemoved = 0;
  for (;;) {
    const batch = await sweepRetentionBatch({ tenantId, at });
    if (batch.salonGone) return;
    accountingRemoved += batch.accountingRemoved;
    if (!batch.more) break;
  }
  await recordRetentionSweep({ tenantId, at, accountingRemoved });
  await sleep(RETENTION_SWEEP_INTERVAL_MS);
  await continueAsNew<typeof customerRetentionWorkflow>({ tenantId, sweeps: sweeps + 1 });
}

export interface RetentionStarterArgs {
  cycles?: number;
}

export async function customerRetentionStarterWorkflow({ cycles = 0 }: RetentionStarterArgs = {}): Promise<void> {
  let afterId: string | null = null;
  for (;;) {
    const batch: { lastId: string | null } = await ensureRetentionTimers({ afterId, limit: RETENTION_STARTER_BATCH_SIZE });
    if (batch.lastId === null) break;
    afterId = batch.lastId;
  }
  await sleep(RETENTION_SWEEP_INTERVAL_MS);
  await continueAsNew<typeof customerRetentionStarterWorkflow>({ cycles: cycles + 1 });
}
