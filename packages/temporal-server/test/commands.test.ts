// Point 2: every workflow command the TS SDK emits, checked through results and history.
import { expect } from 'chai';
import { WorkflowFailedError } from '@temporalio/client';
import { CACHE_MODES, eventTypes, uid, useEnv, waitFor } from './harness';

for (const mode of CACHE_MODES) {
  describe(`devserver commands (${mode.name})`, function () {
    const env = useEnv(mode);

    it('timers: StartTimer, TimerFired, CancelTimer (timer raced by a signal)', async () => {
      const tq = uid('tq');
      await env.withWorker(tq, async () => {
        expect(await env.client.workflow.execute('timerRace', { taskQueue: tq, workflowId: uid('wf'), args: [100] })).to.equal('timeout');
        const h = await env.client.workflow.start('timerRace', { taskQueue: tq, workflowId: uid('wf'), args: [60_000] });
        await waitFor(async () => (await eventTypes(env.client, h.workflowId)).includes('TIMER_STARTED'));
        await h.signal('done');
        expect(await h.result()).to.equal('signal');
        const types = await eventTypes(env.client, h.workflowId);
        expect(types).to.include('TIMER_CANCELED');
        expect(types).to.not.include('TIMER_FIRED');
      });
    });

    it('RecordMarker for patches, with the TemporalChangeVersion upsert', async () => {
      const tq = uid('tq');
      const h = await env.client.workflow.start('patchedWorkflow', { taskQueue: tq, workflowId: uid('wf') });
      expect(await env.withWorker(tq, () => h.result())).to.equal('patched');
      const types = await eventTypes(env.client, h.workflowId);
      expect(types).to.include('MARKER_RECORDED');
      expect(types).to.include('UPSERT_WORKFLOW_SEARCH_ATTRIBUTES');
      expect((await h.describe()).searchAttributes.TemporalChangeVersion).to.deep.equal(['my-patch']);
    });

    it('UpsertWorkflowSearchAttributes and ModifyWorkflowProperties', async () => {
      const tq = uid('tq');
      const h = await env.client.workflow.start('upserts', {
        taskQueue: tq,
        workflowId: uid('wf'),
        searchAttributes: { CustomKeywordField: ['before'] },
        memo: { note: 'initial', keep: 1 },
      });
      await env.withWorker(tq, () => h.result());
      const d = await h.describe();
      expect(d.searchAttributes.CustomKeywordField).to.deep.equal(['after']);
      expect(d.memo).to.deep.equal({ note: 'updated', keep: 1 });
      expect(await eventTypes(env.client, h.workflowId)).to.include('WORKFLOW_PROPERTIES_MODIFIED');
    });

    it('child workflows: start, result back to the parent, child events linked', async () => {
      const tq = uid('tq');
      const childId = uid('child');
      const h = await env.client.workflow.start('parent', { taskQueue: tq, workflowId: uid('wf'), args: [childId] });
      expect(await env.withWorker(tq, () => h.result())).to.equal('from child|hello child');
      const events = (await h.fetchHistory()).events!;
      const initiated = events.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes);
      const started = events.filter((e) => e.childWorkflowExecutionStartedEventAttributes);
      const completed = events.filter((e) => e.childWorkflowExecutionCompletedEventAttributes);
      expect(initiated).to.have.length(2);
      expect(Number(started[0].childWorkflowExecutionStartedEventAttributes!.initiatedEventId)).to.equal(Number(initiated[0].eventId));
      expect(Number(completed[0].childWorkflowExecutionCompletedEventAttributes!.startedEventId)).to.equal(Number(started[0].eventId));
      const child = await env.client.workflow.getHandle(childId).describe();
      expect(child.parentExecution?.workflowId).to.equal(h.workflowId);
    });

    it('parent close policy: TERMINATE terminates the child, ABANDON leaves it running', async () => {
      const tq = uid('tq');
      await env.withWorker(tq, async () => {
        const terminated = uid('child');
        await env.client.workflow.execute('parentAbandonsOrTerminates', { taskQueue: tq, workflowId: uid('wf'), args: [terminated, 'TERMINATE'] });
        await waitFor(async () => (await env.client.workflow.getHandle(terminated).describe()).status.name === 'TERMINATED');
        const abandoned = uid('child');
        await env.client.workflow.execute('parentAbandonsOrTerminates', { taskQueue: tq, workflowId: uid('wf'), args: [abandoned, 'ABANDON'] });
        expect((await env.client.workflow.getHandle(abandoned).describe()).status.name).to.equal('RUNNING');
        await env.client.workflow.getHandle(abandoned).terminate();
      });
    });

    it('a duplicate child workflow id fails the child start', async () => {
      const tq = uid('tq');
      const childId = uid('child');
      await env.withWorker(tq, async () => {
        const existing = await env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: childId });
        const err = await env.client.workflow.execute('parent', { taskQueue: tq, workflowId: uid('wf'), args: [childId] }).catch((e) => e);
        expect(err).to.be.instanceOf(WorkflowFailedError);
        expect(String(err.cause?.message ?? err.cause)).to.match(/already/i);
        await existing.terminate();
      });
    });

    it('cancelling a child goes through RequestCancelExternalWorkflowExecution', async () => {
      const tq = uid('tq');
      const childId = uid('child');
      const h = await env.client.workflow.start('cancelsChild', { taskQueue: tq, workflowId: uid('wf'), args: [childId] });
      expect(
        await env.withWorker(tq, async () => {
          const r = await h.result();
          await waitFor(async () => (await env.client.workflow.getHandle(childId).describe()).status.name === 'CANCELLED');
          return r;
        }),
      ).to.equal('cancelled');
      const types = await eventTypes(env.client, h.workflowId);
      expect(types).to.include('REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED');
      expect(types).to.include('EXTERNAL_WORKFLOW_EXECUTION_CANCEL_REQUESTED');
      expect(types).to.include('CHILD_WORKFLOW_EXECUTION_CANCELED');
    });

    it('SignalExternalWorkflowExecution and RequestCancelExternalWorkflowExecution', async () => {
      const tq = uid('tq');
      await env.withWorker(tq, async () => {
        const target = await env.client.workflow.start('accumulator', { taskQueue: tq, workflowId: uid('target') });
        const r = await env.client.workflow.execute('signalsExternal', { taskQueue: tq, workflowId: uid('wf'), args: [target.workflowId] });
        expect(r).to.match(/^missing target: /);
        expect(await target.result()).to.equal(5);
        const victim = await env.client.workflow.start('cancellable', { taskQueue: tq, workflowId: uid('victim') });
        await waitFor(async () => (await eventTypes(env.client, victim.workflowId)).includes('TIMER_STARTED'));
        await env.client.workflow.execute('cancelsExternal', { taskQueue: tq, workflowId: uid('wf'), args: [victim.workflowId] });
        expect(await victim.result().catch((e) => e)).to.be.instanceOf(WorkflowFailedError);
        expect((await victim.describe()).status.name).to.equal('CANCELLED');
      });
    });

    it('activity scheduling and RequestCancelActivityTask', async () => {
      const tq = uid('tq');
      const key = uid('k');
      const h = await env.client.workflow.start('cancelActivityAfter', { taskQueue: tq, workflowId: uid('wf'), args: [key, 300] });
      expect(await env.withWorker(tq, () => h.result())).to.equal('cancelled');
      const types = await eventTypes(env.client, h.workflowId);
      expect(types).to.include.members(['ACTIVITY_TASK_SCHEDULED', 'ACTIVITY_TASK_CANCEL_REQUESTED', 'ACTIVITY_TASK_STARTED', 'ACTIVITY_TASK_CANCELED']);
      expect(types.indexOf('ACTIVITY_TASK_CANCEL_REQUESTED')).to.be.lessThan(types.indexOf('ACTIVITY_TASK_CANCELED'));
    });
  });
}
