// Point 4: signals (incl. signal-with-start and signals racing a workflow task) and queries.
import { expect } from 'chai';
import { Client, QueryNotRegisteredError, QueryRejectedError, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { CACHE_MODES, eventTypes, uid, useEnv, waitFor } from './harness';

const { CommandType, TaskQueueKind, WorkflowTaskFailedCause } = temporal.api.enums.v1;

for (const mode of CACHE_MODES) {
  describe(`devserver signals and queries (${mode.name})`, function () {
    const env = useEnv(mode);

    it('delivers signals, including a burst that races workflow tasks', async () => {
      const tq = uid('tq');
      const h = await env.client.workflow.start('accumulator', { taskQueue: tq, workflowId: uid('wf') });
      const total = await env.withWorker(tq, async () => {
        await Promise.all(Array.from({ length: 20 }, (_, i) => h.signal('add', i + 1)));
        await waitFor(async () => (await h.query<number>('total')) === 210);
        await h.signal('done');
        return h.result();
      });
      expect(total).to.equal(210);
    });

    it('signal-with-start starts a workflow, then signals the running one', async () => {
      const tq = uid('tq');
      const workflowId = uid('wf');
      await env.withWorker(tq, async () => {
        const first = await env.client.workflow.signalWithStart('accumulator', { taskQueue: tq, workflowId, signal: 'add', signalArgs: [2] });
        const second = await env.client.workflow.signalWithStart('accumulator', { taskQueue: tq, workflowId, signal: 'add', signalArgs: [3] });
        expect(second.signaledRunId).to.equal(first.signaledRunId);
        await waitFor(async () => (await first.query<number>('total')) === 5);
        await first.signal('done');
        expect(await first.result()).to.equal(5);
      });
      const types = await eventTypes(env.client, workflowId);
      expect(types.slice(0, 3)).to.deep.equal(['WORKFLOW_EXECUTION_STARTED', 'WORKFLOW_EXECUTION_SIGNALED', 'WORKFLOW_TASK_SCHEDULED']);
    });

    it('signal-with-start follows the conflict and reuse policies for a running workflow', async () => {
      const tq = uid('tq');
      const workflowId = uid('wf');
      await env.withWorker(tq, async () => {
        const first = await env.client.workflow.signalWithStart('accumulator', { taskQueue: tq, workflowId, signal: 'add', signalArgs: [2] });
        // USE_EXISTING and a reuse policy (which only applies to closed runs): the running run is signalled.
        const second = await env.client.workflow.signalWithStart('accumulator', {
          taskQueue: tq,
          workflowId,
          signal: 'add',
          signalArgs: [3],
          workflowIdConflictPolicy: 'USE_EXISTING',
        });
        const third = await env.client.workflow.signalWithStart('accumulator', {
          taskQueue: tq,
          workflowId,
          signal: 'add',
          signalArgs: [4],
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
        });
        expect([second.signaledRunId, third.signaledRunId]).to.deep.equal([first.signaledRunId, first.signaledRunId]);
        await waitFor(async () => (await first.query<number>('total')) === 9);
        // FAIL: refused, and the running run is not signalled.
        await expect(
          env.client.workflow.signalWithStart('accumulator', { taskQueue: tq, workflowId, signal: 'add', signalArgs: [5], workflowIdConflictPolicy: 'FAIL' }),
        ).to.be.rejectedWith(WorkflowExecutionAlreadyStartedError);
        expect(await first.query<number>('total')).to.equal(9);
        // TERMINATE_IF_RUNNING: the running run is terminated and a new one starts with the signal.
        const fresh = await env.client.workflow.signalWithStart('accumulator', {
          taskQueue: tq,
          workflowId,
          signal: 'add',
          signalArgs: [6],
          workflowIdReusePolicy: 'TERMINATE_IF_RUNNING',
        });
        expect(fresh.signaledRunId).to.not.equal(first.signaledRunId);
        expect((await env.client.workflow.getHandle(workflowId, first.signaledRunId).describe()).status.name).to.equal('TERMINATED');
        await waitFor(async () => (await fresh.query<number>('total')) === 6);
        await fresh.signal('done');
        expect(await fresh.result()).to.equal(6);
      });
    });

    it('rejects a completion that would hide a signal received during the task (UnhandledCommand)', async () => {
      const tq = uid('tq');
      const h = await env.client.workflow.start('signalRace', { taskQueue: tq, workflowId: uid('wf') });
      const svc = env.connection.workflowService;
      // Play the worker by hand so the signal lands exactly while the task is started.
      const task = await svc.pollWorkflowTaskQueue({
        namespace: 'default',
        taskQueue: { name: tq, kind: TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
        identity: 'by-hand',
      });
      expect(Number(task.startedEventId)).to.equal(3);
      await h.signal('add', 7);
      expect(await eventTypes(env.client, h.workflowId)).to.deep.equal(['WORKFLOW_EXECUTION_STARTED', 'WORKFLOW_TASK_SCHEDULED', 'WORKFLOW_TASK_STARTED']);
      const err = await svc
        .respondWorkflowTaskCompleted({
          namespace: 'default',
          taskToken: task.taskToken,
          identity: 'by-hand',
          commands: [{ commandType: CommandType.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION, completeWorkflowExecutionCommandAttributes: {} }],
        })
        .catch((e) => e);
      expect(err.code).to.equal(3);
      expect(err.details).to.equal('UnhandledCommand');
      const events = (await h.fetchHistory()).events!;
      expect(events[3].workflowTaskFailedEventAttributes?.cause).to.equal(WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND);
      expect(events[4].workflowExecutionSignaledEventAttributes?.signalName).to.equal('add');
      expect(events[5].workflowTaskScheduledEventAttributes).to.exist;
      // The real worker now sees the signal and completes with it.
      expect(await env.withWorker(tq, () => h.result())).to.deep.equal([7]);
    });

    it('buffers a signal behind a non-closing completion and schedules a new task for it', async () => {
      const tq = uid('tq');
      const h = await env.client.workflow.start('signalRace', { taskQueue: tq, workflowId: uid('wf') });
      const svc = env.connection.workflowService;
      const task = await svc.pollWorkflowTaskQueue({
        namespace: 'default',
        taskQueue: { name: tq, kind: TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
        identity: 'by-hand',
      });
      await h.signal('add', 9);
      await svc.respondWorkflowTaskCompleted({ namespace: 'default', taskToken: task.taskToken, identity: 'by-hand', commands: [] });
      expect(await eventTypes(env.client, h.workflowId)).to.deep.equal([
        'WORKFLOW_EXECUTION_STARTED',
        'WORKFLOW_TASK_SCHEDULED',
        'WORKFLOW_TASK_STARTED',
        'WORKFLOW_TASK_COMPLETED',
        'WORKFLOW_EXECUTION_SIGNALED',
        'WORKFLOW_TASK_SCHEDULED',
      ]);
      // A stale token is NOT_FOUND.
      const stale = await svc.respondWorkflowTaskCompleted({ namespace: 'default', taskToken: task.taskToken, commands: [] }).catch((e) => e);
      expect(stale.code).to.equal(5);
      expect(await env.withWorker(tq, () => h.result())).to.deep.equal([9]);
    });

    it('answers queries on running and closed workflows, rejects and fails them as asked', async () => {
      const tq = uid('tq');
      const h = await env.client.workflow.start('accumulator', { taskQueue: tq, workflowId: uid('wf') });
      await env.withWorker(tq, async () => {
        await h.signal('add', 4);
        await waitFor(async () => (await h.query<number>('total')) === 4);
        const err = (await h.query('failing').catch((e: unknown) => e)) as Error;
        expect(err).to.be.instanceOf(QueryNotRegisteredError);
        expect(err.message).to.match(/query handler exploded/);
        expect(await h.query('nope').catch((e) => e)).to.be.instanceOf(QueryNotRegisteredError);
        await h.signal('done');
        await h.result();
        // Closed workflow: replayed from full history by the worker.
        expect(await h.query<number>('total')).to.equal(4);
        const strict = new Client({ connection: env.connection, workflow: { queryRejectCondition: 'NOT_OPEN' } });
        expect(
          await strict.workflow
            .getHandle(h.workflowId)
            .query('total')
            .catch((e) => e),
        ).to.be.instanceOf(QueryRejectedError);
      });
    });

    it('attaches a query to a scheduled workflow task, and re-routes one that arrives during a started task', async () => {
      const tq = uid('tq');
      const h = await env.client.workflow.start('accumulator', { taskQueue: tq, workflowId: uid('wf') });
      const svc = env.connection.workflowService;
      // Started task (played by hand): the query waits, then goes out as a query task.
      const task = await svc.pollWorkflowTaskQueue({
        namespace: 'default',
        taskQueue: { name: tq, kind: TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
        identity: 'by-hand',
      });
      const duringTask = h.query<number>('total');
      await new Promise((r) => setTimeout(r, 100));
      await svc.respondWorkflowTaskCompleted({ namespace: 'default', taskToken: task.taskToken, identity: 'by-hand', commands: [] });
      expect(await env.withWorker(tq, () => duringTask)).to.equal(0);
      // Scheduled task: a signal schedules a task nobody polls yet; the query rides on it.
      await h.signal('add', 5);
      const onScheduled = h.query<number>('total');
      expect(await env.withWorker(tq, () => onScheduled)).to.equal(5);
      await h.terminate();
    });

    it('fails a query clearly when no worker serves the task queue', async () => {
      const tq = uid('tq');
      const h = await env.client.workflow.start('accumulator', { taskQueue: tq, workflowId: uid('wf') });
      await env.withWorker(tq, () => waitFor(async () => (await h.query<number>('total')) === 0));
      await new Promise((r) => setTimeout(r, 1600)); // the worker is gone
      const started = Date.now();
      const err = (await h.query('total').catch((e: unknown) => e)) as Error & { cause?: { details?: unknown } };
      expect(Date.now() - started).to.be.lessThan(3000);
      expect(err.message).to.equal('Failed to query Workflow');
      expect(String(err.cause?.details)).to.match(/no worker is polling task queue/);
      await h.terminate();
    });
  });
}
