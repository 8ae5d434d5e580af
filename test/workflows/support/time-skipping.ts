// The set-up every workflow test file shares: mocha hooks that start the embedded stack (the real
// database), one time-skipping test server and the platform's workflow bundle for the file, and
// tear the server down after it; a signaller that delivers to that server; and message outboxes.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
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
}

/**
 * Registers the file's before/after hooks and returns the environment they fill in: read `env` and
 * `workflowBundle` inside tests (they are set once `before` ran).
 */
export function withTimeSkipping(): TimeSkipping {
  const t = {} as TimeSkipping;
  before(async () => {
    await stack();
    t.env = await createTimeSkippingEnv();
    t.workflowBundle = await platformWorkflowBundle();
  });
  after(async () => {
    await t.env?.teardown();
  });
  return t;
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
