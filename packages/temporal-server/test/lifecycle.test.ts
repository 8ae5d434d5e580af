// Point 1: workflow lifecycle against the real SDK.
import { expect } from 'chai';
import { Client, WorkflowExecutionAlreadyStartedError, WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure, TerminatedFailure, TimeoutFailure } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { CACHE_MODES, eventTypes, uid, useEnv, waitFor } from './harness';

const { WorkflowIdReusePolicy, WorkflowIdConflictPolicy } = temporal.api.enums.v1;

for (const mode of CACHE_MODES) {
  describe(`devserver lifecycle (${mode.name})`, function () {
    const env = useEnv(mode);

    it('starts, runs and describes a workflow with memo and search attributes; history ids link up', async () => {
      const tq = uid('tq');
      const handle = await env.client.workflow.start('greet', {
        taskQueue: tq,
        workflowId: uid('wf'),
        args: ['ann'],
        memo: { owner: 'salon' },
        searchAttributes: { CustomKeywordField: ['vip'] },
      });
      expect(await env.withWorker(tq, () => handle.result())).to.equal('hello ann');
      const d = await handle.describe();
      expect(d.status.name).to.equal('COMPLETED');
      expect(d.memo).to.deep.equal({ owner: 'salon' });
      expect(d.searchAttributes.CustomKeywordField).to.deep.equal(['vip']);
      expect(d.historyLength).to.be.greaterThan(5);
      const history = await handle.fetchHistory();
      const events = history.events!;
      events.forEach((e, i) => expect(Number(e.eventId)).to.equal(i + 1));
      const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes)!;
      const completed = events.find((e) => e.activityTaskCompletedEventAttributes)!;
      const started = events.find((e) => e.activityTaskStartedEventAttributes)!;
      expect(Number(completed.activityTaskCompletedEventAttributes!.scheduledEventId)).to.equal(Number(scheduled.eventId));
      expect(Number(completed.activityTaskCompletedEventAttributes!.startedEventId)).to.equal(Number(started.eventId));
      const timer = events.find((e) => e.timerStartedEventAttributes)!;
      const fired = events.find((e) => e.timerFiredEventAttributes)!;
      expect(Number(fired.timerFiredEventAttributes!.startedEventId)).to.equal(Number(timer.eventId));
      for (const e of events.filter((x) => x.workflowTaskCompletedEventAttributes)) {
        expect(e.workflowTaskCompletedEventAttributes!.sdkMetadata, 'sdk metadata persisted').to.exist;
      }
    });

    it('applies workflow id reuse and conflict policies', async () => {
      const tq = uid('tq');
      const workflowId = uid('wf');
      await env.withWorker(tq, async () => {
        await env.client.workflow.execute('returnsInput', { taskQueue: tq, workflowId, args: [1] });
        await expect(
          env.client.workflow.start('returnsInput', {
            taskQueue: tq,
            workflowId,
            args: [2],
            workflowIdReusePolicy: 'REJECT_DUPLICATE',
          }),
        ).to.be.rejectedWith(WorkflowExecutionAlreadyStartedError);
        await expect(
          env.client.workflow.start('returnsInput', {
            taskQueue: tq,
            workflowId,
            args: [2],
            workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
          }),
        ).to.be.rejectedWith(WorkflowExecutionAlreadyStartedError);
        // Default reuse policy allows a new run after completion.
        expect(await env.client.workflow.execute('returnsInput', { taskQueue: tq, workflowId, args: [3] })).to.equal(3);

        const running = await env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: `${workflowId}-r` });
        await expect(env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: `${workflowId}-r` })).to.be.rejectedWith(
          WorkflowExecutionAlreadyStartedError,
        );
        const same = await env.client.workflow.start('waitsForever', {
          taskQueue: tq,
          workflowId: `${workflowId}-r`,
          workflowIdConflictPolicy: 'USE_EXISTING',
        });
        expect(same.firstExecutionRunId).to.equal(running.firstExecutionRunId);
        const replaced = await env.client.workflow.start('waitsForever', {
          taskQueue: tq,
          workflowId: `${workflowId}-r`,
          workflowIdConflictPolicy: 'TERMINATE_EXISTING',
        });
        expect(replaced.firstExecutionRunId).to.not.equal(running.firstExecutionRunId);
        expect((await env.client.workflow.getHandle(`${workflowId}-r`, running.firstExecutionRunId).describe()).status.name).to.equal('TERMINATED');
        await replaced.terminate('cleanup');
      });
      // Raw policy enums reach the server as numbers; an invalid combination is INVALID_ARGUMENT.
      await expect(
        env.connection.workflowService.startWorkflowExecution({
          namespace: 'default',
          workflowId: uid('wf'),
          workflowType: { name: 'returnsInput' },
          taskQueue: { name: tq },
          requestId: uid('r'),
          workflowIdReusePolicy: WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING,
        }),
      ).to.be.rejectedWith(/REJECT_DUPLICATE/);
    });

    it('deduplicates starts by request id', async () => {
      const req = {
        namespace: 'default',
        workflowId: uid('wf'),
        workflowType: { name: 'returnsInput' },
        taskQueue: { name: uid('tq') },
        requestId: uid('req'),
      };
      const a = await env.connection.workflowService.startWorkflowExecution(req);
      const b = await env.connection.workflowService.startWorkflowExecution(req);
      expect(b.runId).to.equal(a.runId);
      await env.client.workflow.getHandle(req.workflowId).terminate();
    });

    it('honours a start delay', async () => {
      const tq = uid('tq');
      const started = Date.now();
      const handle = await env.client.workflow.start('returnsInput', { taskQueue: tq, workflowId: uid('wf'), args: ['late'], startDelay: '700ms' });
      const d = await handle.describe();
      expect(d.executionTime!.getTime() - d.startTime.getTime()).to.be.within(650, 800);
      expect(await env.withWorker(tq, () => handle.result())).to.equal('late');
      expect(Date.now() - started).to.be.greaterThan(650);
    });

    it('pages history and long-polls for new events', async () => {
      const tq = uid('tq');
      const handle = await env.client.workflow.start('greet', { taskQueue: tq, workflowId: uid('wf'), args: ['p'] });
      const svc = env.connection.workflowService;
      // Long poll: waits until the worker appends events beyond the first three.
      const waiting = svc.getWorkflowExecutionHistory({
        namespace: 'default',
        execution: { workflowId: handle.workflowId },
        waitNewEvent: true,
        nextPageToken: Buffer.from(JSON.stringify({ runId: handle.firstExecutionRunId, next: 2 })),
      });
      await env.withWorker(tq, () => handle.result());
      const polled = await waiting;
      expect(polled.history!.events!.length).to.be.greaterThan(0);
      expect(Number(polled.history!.events![0].eventId)).to.equal(3);
      const all: number[] = [];
      let token: Uint8Array | undefined;
      do {
        const page = await svc.getWorkflowExecutionHistory({
          namespace: 'default',
          execution: { workflowId: handle.workflowId },
          maximumPageSize: 3,
          nextPageToken: token,
        });
        expect(page.history!.events!.length).to.be.at.most(3);
        all.push(...page.history!.events!.map((e) => Number(e.eventId)));
        token = page.nextPageToken?.length ? page.nextPageToken : undefined;
      } while (token);
      expect(all).to.deep.equal(all.map((_, i) => i + 1));
      expect(all.length).to.equal((await handle.fetchHistory()).events!.length);
    });

    it('terminates and cancels workflows; results report it', async () => {
      const tq = uid('tq');
      await env.withWorker(tq, async () => {
        const t = await env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: uid('wf') });
        await t.terminate('enough');
        const err = await t.result().catch((e) => e);
        expect(err).to.be.instanceOf(WorkflowFailedError);
        expect(err.cause).to.be.instanceOf(TerminatedFailure);
        expect((await t.describe()).status.name).to.equal('TERMINATED');
        await expect(t.terminate()).to.be.rejectedWith(/not found|completed/i);

        const c = await env.client.workflow.start('cancellable', { taskQueue: tq, workflowId: uid('wf') });
        await waitFor(async () => (await c.describe()).historyLength >= 4);
        await c.cancel();
        const cerr = await c.result().catch((e) => e);
        expect(cerr).to.be.instanceOf(WorkflowFailedError);
        expect(cerr.cause).to.be.instanceOf(CancelledFailure);
        expect((await c.describe()).status.name).to.equal('CANCELLED');
        expect(await eventTypes(env.client, c.workflowId)).to.include.members([
          'WORKFLOW_EXECUTION_CANCEL_REQUESTED',
          'ACTIVITY_TASK_COMPLETED',
          'WORKFLOW_EXECUTION_CANCELED',
        ]);
      });
    });

    it('times out runs and executions', async () => {
      const tq = uid('tq');
      await env.withWorker(tq, async () => {
        const run = await env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: uid('wf'), workflowRunTimeout: '500ms' });
        const err = await run.result().catch((e) => e);
        expect(err).to.be.instanceOf(WorkflowFailedError);
        expect(err.cause).to.be.instanceOf(TimeoutFailure);
        expect((await run.describe()).status.name).to.equal('TIMED_OUT');
        const exec = await env.client.workflow.start('waitsForever', { taskQueue: tq, workflowId: uid('wf'), workflowExecutionTimeout: '500ms' });
        expect(await exec.result().catch((e) => e)).to.be.instanceOf(WorkflowFailedError);
      });
    });

    it('reports completion and failure results', async () => {
      const tq = uid('tq');
      await env.withWorker(tq, async () => {
        expect(await env.client.workflow.execute('returnsInput', { taskQueue: tq, workflowId: uid('wf'), args: [{ a: [1, 2] }] })).to.deep.equal({ a: [1, 2] });
        const err = await env.client.workflow.execute('failsWith', { taskQueue: tq, workflowId: uid('wf'), args: ['nope'] }).catch((e) => e);
        expect(err).to.be.instanceOf(WorkflowFailedError);
        expect(err.cause).to.be.instanceOf(ApplicationFailure);
        expect(err.cause.message).to.equal('nope');
        expect(err.cause.type).to.equal('TestFailure');
      });
    });

    it('tells the workflow its history size and whether to continue as new', async () => {
      const tq = uid('tq');
      const info = await env.withWorker(tq, () => env.client.workflow.execute('historyInfo', { taskQueue: tq, workflowId: uid('wf') }));
      expect(info.size).to.be.greaterThan(100);
      expect(info.length).to.equal(8);
      expect(info.suggested).to.equal(false);
    });

    it('tells the workflow its history size from its first task on', async () => {
      const tq = uid('tq');
      const size = await env.withWorker(tq, () => env.client.workflow.execute('firstTaskHistorySize', { taskQueue: tq, workflowId: uid('wf') }));
      // The start event and the first WorkflowTaskScheduled, encoded.
      expect(size).to.be.greaterThan(100);
    });

    it("starts a workflow eagerly when its client shares the worker's connection, and not with a start delay", async () => {
      const tq = uid('tq');
      const client = new Client({ connection: env.nativeConnection });
      await env.withWorker(tq, async () => {
        // A long task timeout: if the eager task were lost, the result would not come.
        const eager = await client.workflow.start('greet', {
          taskQueue: tq,
          workflowId: uid('wf'),
          args: ['eager'],
          requestEagerStart: true,
          workflowTaskTimeout: '1h',
        });
        expect(eager.eagerlyStarted).to.equal(true);
        expect(await eager.result()).to.equal('hello eager');
        const history = (await eager.fetchHistory()).events!;
        expect(history[2].workflowTaskStartedEventAttributes, 'the first task was started with the start').to.exist;
        expect(Number(history[2].workflowTaskStartedEventAttributes!.historySizeBytes)).to.be.greaterThan(0);
        const delayed = await client.workflow.start('greet', {
          taskQueue: tq,
          workflowId: uid('wf'),
          args: ['later'],
          requestEagerStart: true,
          startDelay: '10ms',
        });
        expect(delayed.eagerlyStarted).to.equal(false);
        expect(await delayed.result()).to.equal('hello later');
      });
    });

    it('follows continue-as-new chains in handle.result()', async () => {
      const tq = uid('tq');
      const handle = await env.client.workflow.start('countdown', { taskQueue: tq, workflowId: uid('wf'), args: [3] });
      expect(await env.withWorker(tq, () => handle.result())).to.deep.equal([3, 2, 1, 1]);
      const first = await env.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).describe();
      expect(first.status.name).to.equal('CONTINUED_AS_NEW');
      const latest = await env.client.workflow.getHandle(handle.workflowId).describe();
      expect(latest.runId).to.not.equal(handle.firstExecutionRunId);
      expect(latest.status.name).to.equal('COMPLETED');
    });

    it('retries a failed workflow per its retry policy; result() follows the retry chain', async () => {
      const tq = uid('tq');
      await env.withWorker(tq, async () => {
        const h = await env.client.workflow.start('failsUntilAttempt', {
          taskQueue: tq,
          workflowId: uid('wf'),
          args: [3],
          retry: { initialInterval: '50ms', maximumAttempts: 5 },
        });
        expect(await h.result()).to.equal(3);
        expect((await env.client.workflow.getHandle(h.workflowId, h.firstExecutionRunId).describe()).status.name).to.equal('FAILED');
        const err = await env.client.workflow
          .execute('failsUntilAttempt', { taskQueue: tq, workflowId: uid('wf'), args: [9], retry: { initialInterval: '10ms', maximumAttempts: 2 } })
          .catch((e) => e);
        expect(err).to.be.instanceOf(WorkflowFailedError);
        expect(err.cause.message).to.equal('attempt 2 fails');
      });
    });

    it('retries failed workflow tasks and times out stuck ones', async function () {
      this.timeout(30_000);
      const tq = uid('tq');
      const handle = await env.client.workflow.start('returnsInput', { taskQueue: tq, workflowId: uid('wf'), args: ['fixed'], workflowTaskTimeout: '1s' });
      // The broken worker fails attempt 1 (reported) and silently drops attempt 2 (sdk-core only
      // reports the first failure), which the server must time out.
      await env.withWorker(
        tq,
        () =>
          waitFor(async () => {
            const types = await eventTypes(env.client, handle.workflowId);
            return types.includes('WORKFLOW_TASK_FAILED') && types.filter((t) => t === 'WORKFLOW_TASK_STARTED').length >= 2;
          }),
        { workflowsFile: './workflows/broken' },
      );
      expect(await env.withWorker(tq, () => handle.result())).to.equal('fixed');
      const types = await eventTypes(env.client, handle.workflowId);
      expect(types).to.include('WORKFLOW_TASK_FAILED');
      expect(types).to.include('WORKFLOW_TASK_TIMED_OUT');
      const history = await handle.fetchHistory();
      const attempts = history.events!.filter((e) => e.workflowTaskScheduledEventAttributes).map((e) => e.workflowTaskScheduledEventAttributes!.attempt);
      expect(attempts[0]).to.equal(1);
      expect(Math.max(...attempts.map(Number))).to.be.greaterThan(1);
    });
  });
}
