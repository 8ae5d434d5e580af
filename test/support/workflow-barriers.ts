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
 *
 * One pass that finds each workflow idle is not enough: a workflow checked early in the pass can be
 * signalled by one checked later (a round's activity tells a waitlist entry), which is idle by the
 * time it is checked. So two passes in a row must find the same workflows idle at the same history
 * lengths.
 */
export async function workflowsSettled(since: Date, what = 'the workflows started since then to settle', timeoutMs = 60_000): Promise<void> {
  const temporal = await stackTemporalClient();
  const { signaller } = await stack();
  /** The running workflows at their history lengths when each is idle; undefined when one is not. */
  const idlePass = async (): Promise<string | undefined> => {
    // The list is the server's visibility store, written a moment after a workflow's own history (a
    // workflow the api has just started may not be listed yet: the api's signals name those), and its
    // history lengths are those of the workflow's last visibility update, not of now: each workflow's
    // length is read from its own description.
    const ids = new Set<string>();
    for await (const run of temporal.workflow.list({ query: `ExecutionStatus = 'Running' AND StartTime > '${since.toISOString()}'` })) ids.add(run.workflowId);
    for (const sent of signaller.sent) if (sent.at >= since.getTime()) ids.add(sent.ref.workflowId);
    const lengths: string[] = [];
    for (const id of ids) {
      const described = await temporal.workflow.getHandle(id).describe();
      if (described.status.name !== 'RUNNING' || described.startTime <= since) continue;
      lengths.push(`${id}@${described.historyLength}`);
      if (idleAt.get(id) === described.historyLength) continue;
      if (!(await workflowIdle(temporal, id))) return undefined;
      idleAt.set(id, described.historyLength);
    }
    return lengths.sort().join(' ');
  };
  await eventually(
    async () => {
      const first = await idlePass();
      return first !== undefined && (await idlePass()) === first;
    },
    what,
    timeoutMs,
  );
}
