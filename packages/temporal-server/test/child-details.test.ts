// Issue 16 point 4 (child-workflow details): a child's execution timeout reaches the parent with
// retry state TIMEOUT, user metadata (summary, details) is kept on runs and events, every run
// knows its root, and WorkflowTaskCompleted events name the worker's build.
import { expect } from 'chai';
import { WorkflowFailedError } from '@temporalio/client';
import { CACHE_MODES, uid, useEnv } from './harness';

for (const mode of CACHE_MODES) {
  describe(`devserver child workflow details (${mode.name})`, function () {
    const env = useEnv(mode);

    it('when a child times out then the parent sees TIMEOUT, and summaries, details and the root are kept', async () => {
      const tq = uid('tq');
      const parentId = uid('parent');
      const childId = uid('child');
      const h = await env.client.workflow.start('childTimesOut', { taskQueue: tq, workflowId: parentId, args: [childId], staticSummary: 'parent summary' });
      expect(await env.withWorker(tq, () => h.result(), { buildId: 'salon-build-2' })).to.equal('TIMEOUT');

      const child = await env.client.workflow.getHandle(childId).describe();
      expect(await child.staticSummary()).to.equal('child summary');
      expect(await child.staticDetails()).to.equal('child details');
      expect(child.raw.workflowExecutionInfo?.rootExecution?.workflowId).to.equal(parentId);
      const parent = await h.describe();
      expect(await parent.staticSummary()).to.equal('parent summary');
      expect(parent.raw.workflowExecutionInfo?.rootExecution?.workflowId).to.equal(parentId);

      const events = (await h.fetchHistory()).events ?? [];
      expect(events[0].userMetadata?.summary).to.not.equal(undefined);
      expect(events.find((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)?.userMetadata?.summary).to.not.equal(undefined);
      expect(events.find((e) => e.workflowTaskCompletedEventAttributes)?.workflowTaskCompletedEventAttributes?.workerVersion?.buildId).to.equal(
        'salon-build-2',
      );
    });

    it('when a run times out then the retry state says whether the execution timeout ended it', async () => {
      const tq = uid('tq');
      await env.withWorker(tq, async () => {
        const exec = await env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: uid('wf'), workflowExecutionTimeout: '300ms' });
        expect(((await exec.result().catch((e: unknown) => e)) as WorkflowFailedError).retryState).to.equal('TIMEOUT');
        const run = await env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: uid('wf'), workflowRunTimeout: '300ms' });
        expect(((await run.result().catch((e: unknown) => e)) as WorkflowFailedError).retryState).to.equal('RETRY_POLICY_NOT_SET');
      });
    });
  });
}
