// The set-up every workflow test file shares: mocha hooks that start the embedded stack (the real
// database), one time-skipping test server and the platform's workflow bundle for the file, and
// tear the server down after it; a signaller that delivers to that server; and message outboxes.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createSmsWorker } from '../../../composition/worker';
import type { EntitySignaller } from '../../../domain/workflow-signals/entity-signaller';
import { signalWithStart } from '../../../integrations/temporal/temporal-signaller';
import { FolderMailer } from '../../../integrations/mail/mailer';
import { FolderSmsSender } from '../../../integrations/sms/sms-sender';
import { stack } from '../../support/stack';
import { createTimeSkippingEnv } from '../../support/temporal';
import { eventually } from '../../support/eventually';
import { platformWorkflowBundle } from './platform-bundle';

export interface TimeSkipping {
  env: TestWorkflowEnvironment;
  workflowBundle: WorkflowBundleWithSourceMap;
  /** the file's workers (see `platformWorker`), run until the file ends */
  workers: { worker: Worker; running: Promise<void> }[];
}

/**
 * Registers the file's before/after hooks and returns the environment they fill in: read `env` and
 * `workflowBundle` inside tests (they are set once `before` ran).
 */
export function withTimeSkipping(): TimeSkipping {
  const t = { workers: [] } as unknown as TimeSkipping;
  before(async () => {
    await stack();
    t.env = await createTimeSkippingEnv();
    t.workflowBundle = await platformWorkflowBundle();
  });
  after(async () => {
    for (const { worker } of t.workers) if (worker.getState() === 'RUNNING') worker.shutdown();
    const ends = await Promise.allSettled(t.workers.map(({ running }) => running));
    await t.env?.teardown();
    const failed = ends.find((end) => end.status === 'rejected');
    if (failed) throw failed.reason;
  });
  return t;
}

/** A worker of the file's server (see `platformWorker`). */
export interface FileWorker {
  /** Resolves with `work`; rejects if a worker of the file stopped first. */
  runUntil<T>(work: Promise<T> | (() => Promise<T>)): Promise<T>;
}

/**
 * A worker of the platform's workflows on the file's server and `taskQueue`, and a worker of the SMS
 * queue beside it (workflows/shared/sms-queue.ts) with the same activities. Both run until the file
 * ends, as a deployment's workers never stop, not until the test does: the file's tests share one
 * server whose clock each test skips ahead, so an earlier test's booking reaches its reminder in a
 * later test's sleep. Its SMS is an activity on the SMS queue and its completion a workflow task on
 * the main one; the test server holds its clock still while either waits for a worker, so with
 * the test's workers stopped every later sleep of the file would wait forever.
 */
export async function platformWorker(t: TimeSkipping, options: { taskQueue: string; activities: object }): Promise<FileWorker> {
  const connection = t.env.nativeConnection;
  const { taskQueue, activities } = options;
  const workers = [
    await Worker.create({ connection, taskQueue, workflowBundle: t.workflowBundle, activities }),
    await createSmsWorker({ connection, taskQueue, activities }),
  ];
  const running = workers.map((worker) => ({ worker, running: worker.run() }));
  t.workers.push(...running);
  const stopped = Promise.race(running.map((r) => r.running)).then(() => {
    throw new Error(`a worker of ${taskQueue} stopped before the test's work was done`);
  });
  return { runUntil: (work) => Promise.race([typeof work === 'function' ? work() : work, stopped]) };
}

/** What the api's signaller does against Temporal, against the test server and on `taskQueue`. */
export function testServerSignaller(env: TestWorkflowEnvironment, taskQueue: string): EntitySignaller {
  return { signal: (ref, signalName, event) => signalWithStart(env.client, taskQueue, ref, signalName, event) };
}

/** The file's own folder outboxes (`sms-<name>`, `mail-<name>` in the stack's data folder), read back by its assertions. */
export function withOutboxes(name: string, ready: (outboxes: { sms: FolderSmsSender; mail: FolderMailer }) => void): void {
  before(async () => {
    const { platform } = await stack();
    ready({ sms: new FolderSmsSender(`${platform.deps.config.dataDir}/sms-${name}`), mail: new FolderMailer(`${platform.deps.config.dataDir}/mail-${name}`) });
  });
}

/**
 * Waits until the workflow `workflowId` has closed, with time held still. `result()` lets time skip
 * while it waits and until the client locks it again after the run closed: in that window every
 * idle run's next timer fires (an earlier test's booking reminder, its appointment's end), so the
 * server's clock can jump days past the dates a test chose from the wall clock. Use this where the
 * run closes by itself, without a timer.
 */
export async function closedWithoutSkipping(env: TestWorkflowEnvironment, workflowId: string): Promise<void> {
  const handle = env.client.workflow.getHandle(workflowId);
  await eventually(async () => (await handle.describe()).status.name !== 'RUNNING', `workflow ${workflowId} to close`);
}
