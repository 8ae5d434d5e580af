// Barriers on the shared stack's workflows, for checks that something did NOT happen (CONTRIBUTING.md,
// "Tests"): a workflow is idle when it has no activity pending and its last workflow task completed
// (a signal, an activity's result or a fired timer each schedule a new task in the same step as
// their event), so until a timer fires or a signal comes it writes nothing more.
import { Client, Connection } from '@temporalio/client';
import { stack } from './stack';
import { startTestTemporal } from './temporal';
import { eventually } from './eventually';

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

const WORKFLOW_TASK_EVENTS = ['workflowTaskScheduledEventAttributes', 'workflowTaskStartedEventAttributes', 'workflowTaskCompletedEventAttributes', 'workflowTaskFailedEventAttributes', 'workflowTaskTimedOutEventAttributes'] as const;

/** Whether the workflow has nothing to do now: closed, or no activity pending and its last workflow task completed. */
export async function workflowIdle(workflowId: string): Promise<boolean> {
  const handle = (await stackTemporalClient()).workflow.getHandle(workflowId);
  const described = await handle.describe();
  if (described.status.name !== 'RUNNING') return true;
  if (described.raw.pendingActivities?.length) return false;
  const events = (await handle.fetchHistory()).events ?? [];
  const lastTask = events.filter((e) => WORKFLOW_TASK_EVENTS.some((k) => e[k])).at(-1);
  return Boolean(lastTask?.workflowTaskCompletedEventAttributes);
}

/** History length at which each workflow was last seen idle: with no new event it still is. */
const idleAt = new Map<string, number>();

/**
 * Waits until every workflow started after `since` is idle (or closed): what the requests made since
 * then set off has been written, so a snapshot taken now stays as it is until something new happens.
 */
export async function workflowsSettled(since: Date, what = 'the workflows started since then to settle', timeoutMs = 60_000): Promise<void> {
  const temporal = await stackTemporalClient();
  await eventually(
    async () => {
      for await (const run of temporal.workflow.list({ query: `ExecutionStatus = 'Running' AND StartTime > '${since.toISOString()}'` })) {
        if (idleAt.get(run.workflowId) === run.historyLength) continue;
        if (!(await workflowIdle(run.workflowId))) return false;
        idleAt.set(run.workflowId, run.historyLength);
      }
      return true;
    },
    what,
    timeoutMs,
  );
}
