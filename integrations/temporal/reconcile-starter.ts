// Starts the platform-wide subscription reconcile workflow (every 6 hours) once: the worker
// calls this at start-up; when it already runs (another worker, an earlier start) nothing happens.
import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { RECONCILE_WORKFLOW_ID, RECONCILE_WORKFLOW_TYPE } from '../../domain/billing/subscription-events.rules';

export async function ensureReconcileWorkflow(options: { address: string; namespace: string; taskQueue: string }): Promise<'STARTED' | 'ALREADY_RUNNING'> {
  const connection = await Connection.connect({ address: options.address });
  try {
    const client = new Client({ connection, namespace: options.namespace });
    await client.workflow.start(RECONCILE_WORKFLOW_TYPE, { workflowId: RECONCILE_WORKFLOW_ID, taskQueue: options.taskQueue, args: [{}] });
    return 'STARTED';
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return 'ALREADY_RUNNING';
    throw err;
  } finally {
    await connection.close();
  }
}
