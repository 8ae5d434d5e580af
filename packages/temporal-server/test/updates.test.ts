// Workflow Update through the real client and worker (accepted/completed events replay cleanly).
import { expect } from 'chai';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { CACHE_MODES, eventTypes, uid, useEnv, waitFor } from './harness';

for (const mode of CACHE_MODES) {
  describe(`devserver workflow update (${mode.name})`, function () {
    const env = useEnv(mode);

    it('executes, rejects and fails updates; history records accepted and completed ones', async () => {
      const tq = uid('tq');
      const h = await env.client.workflow.start('updatable', { taskQueue: tq, workflowId: uid('wf') });
      await env.withWorker(tq, async () => {
        expect(await h.executeUpdate('setValue', { args: [21] })).to.equal(42);
        const rejected = (await h.executeUpdate('setValue', { args: [13] }).catch((e: unknown) => e)) as WorkflowUpdateFailedError;
        expect(rejected).to.be.instanceOf(WorkflowUpdateFailedError);
        expect(String(rejected.cause?.message)).to.match(/unlucky/);
        const failed = (await h.executeUpdate('setValue', { args: [-1] }).catch((e: unknown) => e)) as WorkflowUpdateFailedError;
        expect(failed).to.be.instanceOf(WorkflowUpdateFailedError);
        const started = await h.startUpdate('setValue', { args: [5], waitForStage: 'ACCEPTED' });
        expect(await started.result()).to.equal(10);
        expect(await h.query('total')).to.equal(5);
        await h.signal('done');
        expect(await h.result()).to.equal(5);
      });
      const types = await eventTypes(env.client, h.workflowId);
      expect(types.filter((t) => t === 'WORKFLOW_EXECUTION_UPDATE_ACCEPTED')).to.have.length(3);
      expect(types.filter((t) => t === 'WORKFLOW_EXECUTION_UPDATE_COMPLETED')).to.have.length(3);
    });
  });
}

describe('devserver update polls', function () {
  const env = useEnv({});

  it('answers a poll without a wait stage at once with the stage reached (the SDK tests\' "admitted" check)', async () => {
    const h = await env.client.workflow.start('updatable', { taskQueue: uid('nobody'), workflowId: uid('wf'), startDelay: '1h' });
    const poll = (updateId: string) =>
      env.connection.workflowService.pollWorkflowExecutionUpdate({
        namespace: 'default',
        updateRef: { workflowExecution: { workflowId: h.workflowId }, updateId },
      });
    await poll('not-sent').then(
      () => expect.fail('an unknown update is NOT_FOUND'),
      (e: { code?: number }) => expect(e.code).to.equal(5),
    );
    h.executeUpdate('setValue', { args: [1], updateId: 'sent' }).catch(() => undefined);
    const admitted = await waitFor(
      () =>
        poll('sent').then(
          (r) => r,
          () => undefined,
        ),
      5_000,
    );
    expect(admitted.stage).to.equal(temporal.api.enums.v1.UpdateWorkflowExecutionLifecycleStage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED);
    await h.terminate();
  });
});
