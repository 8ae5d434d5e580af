// The worker's watchdog on workflow code (patches/@temporalio+worker: one timeout watchdog per
// activation instead of one per call into the workflow sandbox, docs/performance.md): a workflow that
// never yields still has its workflow task failed with the timeout, and the worker goes on running
// the other workflows.
import { expect } from 'chai';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkerOptions, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { createTimeSkippingEnv } from '../support/temporal';
import { eventually } from '../support/eventually';
import { unique } from '../support/factories';
import { neverYields, spinsAfterSignal, stepSignal, yieldsEachStep } from './support/watchdog.workflow';

const TIMEOUT_MS = 400;

/** The failure messages of the workflow's failed workflow tasks, in order. */
async function failedTasks(handle: WorkflowHandle): Promise<string[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events.filter((e) => e.workflowTaskFailedEventAttributes).map((e) => e.workflowTaskFailedEventAttributes!.failure?.message ?? '');
}

describe('worker watchdog on workflow code', function () {
  this.timeout(60_000);
  let env: TestWorkflowEnvironment;
  let workflowBundle: WorkflowBundleWithSourceMap;

  before(async () => {
    env = await createTimeSkippingEnv();
    workflowBundle = await bundleWorkflowCode({ workflowsPath: require.resolve('./support/watchdog.workflow'), logger: new DefaultLogger('WARN') });
  });

  after(async () => {
    await env?.teardown();
  });

  async function withWorker(scenario: (taskQueue: string) => Promise<void>): Promise<void> {
    const taskQueue = unique('watchdog');
    // isolateExecutionTimeout (5 s by default) is read by the SDK but left out of its public options type
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle, isolateExecutionTimeout: TIMEOUT_MS } as WorkerOptions);
    await worker.runUntil(scenario(taskQueue));
  }

  it('when a workflow never yields in its first activation then its workflow task fails with the timeout, and other workflows still run', () =>
    withWorker(async (taskQueue) => {
      const spinning = await env.client.workflow.start(neverYields, { taskQueue, workflowId: unique('never-yields') });
      const failures = await eventually(async () => (await failedTasks(spinning)).at(0), 'a failed workflow task of the spinning workflow');
      expect(failures).to.contain(`timed out after ${TIMEOUT_MS}ms`);

      const other = await env.client.workflow.start(yieldsEachStep, { taskQueue, workflowId: unique('yields') });
      await other.signal(stepSignal);
      await other.signal(stepSignal);
      expect(await other.result()).to.equal('done after 2 signals');
      await spinning.terminate('test over');
    }));

  it('when a workflow stops yielding in a later activation (after a signal) then that task fails with the timeout', () =>
    withWorker(async (taskQueue) => {
      const handle = await env.client.workflow.start(spinsAfterSignal, { taskQueue, workflowId: unique('spins-after-signal') });
      await eventually(
        async () => ((await handle.fetchHistory()).events ?? []).some((e) => e.workflowTaskCompletedEventAttributes),
        'its first workflow task completed',
      );
      expect(await failedTasks(handle), 'nothing failed before the signal').to.deep.equal([]);
      await handle.signal(stepSignal);
      const failure = await eventually(async () => (await failedTasks(handle)).at(0), 'a failed workflow task after the signal');
      expect(failure).to.contain(`timed out after ${TIMEOUT_MS}ms`);
      await handle.terminate('test over');
    }));
});
