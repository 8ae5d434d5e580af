// Starts the platform-wide loops once: the subscription reconcile (every 6 hours) and the retention
// starter (every day: each active salon's retention timer, docs/rules/personal-data.md#retention).
// The worker calls this at start-up; when a loop already runs (another worker, an earlier start)
// nothing happens.
import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { RECONCILE_WORKFLOW_ID, RECONCILE_WORKFLOW_TYPE } from '../../domain/billing/subscription-events.rules';
import { RETENTION_STARTER_WORKFLOW_ID, RETENTION_STARTER_WORKFLOW_TYPE } from '../../domain/personal-data/erasure-events.rules';

interface TemporalTarget {
  address: string;
  namespace: string;
  taskQueue: string;
}

type Started = 'STARTED' | 'ALREADY_RUNNING';

async function ensureLoop(client: Client, taskQueue: string, workflowType: string, workflowId: string): Promise<Started> {
  try {
    await client.workflow.start(workflowType, { workflowId, taskQueue, args: [{}] });
    return 'STARTED';
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return 'ALREADY_RUNNING';
    throw err;
  }
}

async function withClient<T>(options: TemporalTarget, use: (client: Client) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address: options.address });
  try {
    return await use(new Client({ connection, namespace: options.namespace }));
  } finally {
    await connection.close();
  }
}

/** The platform loops the worker starts: the reconcile and the retention starter. */
export async function ensurePlatformLoops(options: TemporalTarget): Promise<{ reconcile: Started; retention: Started }> {
  return withClient(options, async (client) => ({
    reconcile: await ensureLoop(client, options.taskQueue, RECONCILE_WORKFLOW_TYPE, RECONCILE_WORKFLOW_ID),
    retention: await ensureLoop(client, options.taskQueue, RETENTION_STARTER_WORKFLOW_TYPE, RETENTION_STARTER_WORKFLOW_ID),
  }));
}
