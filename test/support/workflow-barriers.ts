// Barriers on the shared stack's workflows, for checks that something did NOT happen (CONTRIBUTING.md,
// "Tests"): wait until a workflow, or every workflow started since a moment, is idle
// (test/support/workflow-history.ts), so what it was told has been done and written.
import { Client, Connection } from '@temporalio/client';
import { stack } from './stack';
import { startTestTemporal } from './temporal';
import { eventually } from './eventually';
import { workflowIdle } from './workflow-history';

let client: Promise<Client> | undefined;

/** A Temporal client on the shared stack's server, closed with the stack. */
export function stackTemporalClient(): Promise<Client> {
  client ??= (async () => {
    const { platform, config } = await stack();
    const connection = await Connection.connect({ address: (await startTestTemporal()).address });
    platform.onStop(async () => {
      client = undefined;
      await connection.close();
    });
    return new Client({ connection, namespace: config.temporalNamespace });
  })();
  return client;
}

/** Waits until the workflow is idle or closed: what it was told so far has been done. */
export async function workflowSettled(workflowId: string, timeoutMs = 60_000): Promise<void> {
  const temporal = await stackTemporalClient();
  await eventually(async () => workflowIdle(temporal, workflowId), `${workflowId} to settle`, timeoutMs);
}

/** History length at which each workflow was last seen idle: with no new event it still is. */
const idleAt = new Map<string, number>();

/**
 * Waits until every workflow started after `since` is idle (or closed): what the requests made since
 * then set off has been written, so a snapshot taken now stays as it is until something new happens
 * (or a timer fires: the shortest a test's rows set is a delivery's retry, 30 s on).
 */
export async function workflowsSettled(since: Date, what = 'the workflows started since then to settle', timeoutMs = 60_000): Promise<void> {
  const temporal = await stackTemporalClient();
  await eventually(
    async () => {
      for await (const run of temporal.workflow.list({ query: `ExecutionStatus = 'Running' AND StartTime > '${since.toISOString()}'` })) {
        if (idleAt.get(run.workflowId) === run.historyLength) continue;
        if (!(await workflowIdle(temporal, run.workflowId))) return false;
        idleAt.set(run.workflowId, run.historyLength);
      }
      return true;
    },
    what,
    timeoutMs,
  );
}
