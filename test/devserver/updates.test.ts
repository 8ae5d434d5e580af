// Workflow Update through the real client and worker (accepted/completed events replay cleanly).
import { expect } from 'chai';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { CACHE_MODES, eventTypes, uid, useEnv } from './harness';

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
