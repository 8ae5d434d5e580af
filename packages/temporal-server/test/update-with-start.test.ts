// Issue 16 point 2: update-with-start through ExecuteMultiOperation, with the real client.
import { expect } from 'chai';
import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { CACHE_MODES, eventTypes, uid, useEnv } from './harness';

for (const mode of CACHE_MODES) {
  describe(`devserver update-with-start (${mode.name})`, function () {
    const env = useEnv(mode);

    it('when no run exists then it starts one whose first task carries the update; later calls attach or refuse per policy', async () => {
      const tq = uid('tq');
      const workflowId = uid('wf');
      const startOp = (policy: 'USE_EXISTING' | 'FAIL') =>
        new WithStartWorkflowOperation('updatable', { taskQueue: tq, workflowId, workflowIdConflictPolicy: policy });
      await env.withWorker(tq, async () => {
        const first = startOp('USE_EXISTING');
        expect(await env.client.workflow.executeUpdateWithStart('setValue', { args: [21], startWorkflowOperation: first })).to.equal(42);
        const h = await first.workflowHandle();

        const second = startOp('USE_EXISTING');
        expect(await env.client.workflow.executeUpdateWithStart('setValue', { args: [5], startWorkflowOperation: second })).to.equal(10);
        expect((await (await second.workflowHandle()).describe()).runId).to.equal((await h.describe()).runId);

        await expect(env.client.workflow.executeUpdateWithStart('setValue', { args: [1], startWorkflowOperation: startOp('FAIL') })).to.be.rejectedWith(
          WorkflowExecutionAlreadyStartedError,
        );
        await h.signal('done');
        expect(await h.result()).to.equal(5);
      });
      const types = await eventTypes(env.client, workflowId);
      expect(types.slice(0, 5)).to.deep.equal([
        'WORKFLOW_EXECUTION_STARTED',
        'WORKFLOW_TASK_SCHEDULED',
        'WORKFLOW_TASK_STARTED',
        'WORKFLOW_TASK_COMPLETED',
        'WORKFLOW_EXECUTION_UPDATE_ACCEPTED',
      ]);
    });

    it('when the update is rejected then the workflow still started and the error is the update failure', async () => {
      const tq = uid('tq');
      const workflowId = uid('wf');
      await env.withWorker(tq, async () => {
        const op = new WithStartWorkflowOperation('updatable', { taskQueue: tq, workflowId, workflowIdConflictPolicy: 'FAIL' });
        await expect(env.client.workflow.executeUpdateWithStart('setValue', { args: [13], startWorkflowOperation: op })).to.be.rejectedWith(
          /Workflow Update failed/,
        );
        const h = await op.workflowHandle();
        await h.signal('done');
        expect(await h.result()).to.equal(0);
      });
    });
  });
}
