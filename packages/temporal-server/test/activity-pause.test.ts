// Issue 25 point 2: PauseActivity, UnpauseActivity and ResetActivity on a workflow's activities,
// with the cancellation details the SDK reports to the activity (the SDK's own tests: a paused or
// reset activity learns it from its heartbeat response), and the states Describe reports.
import { expect } from 'chai';
import Long from 'long';
import { temporal } from '@temporalio/proto';
import type { PauseResetPlan } from './activities';
import { CACHE_MODES, uid, useEnv, waitFor } from './harness';

const State = temporal.api.enums.v1.PendingActivityState;
const details = (d: Partial<Record<'paused' | 'reset', boolean>>) => ({
  cancelRequested: false,
  notFound: false,
  paused: false,
  timedOut: false,
  workerShutdown: false,
  reset: false,
  ...d,
});

for (const mode of CACHE_MODES) {
  describe(`devserver activity pause, unpause and reset (${mode.name})`, function () {
    this.timeout(60_000);
    const env = useEnv(mode);
    // The SDK's test workflow: start-to-close 5 s, two attempts, heartbeat timeout 1 s.
    const run = (tq: string, plan: PauseResetPlan) =>
      env.client.workflow.execute('runActivity', {
        taskQueue: tq,
        workflowId: uid('wf'),
        args: ['heartbeatCancellationDetails', [plan], { startToCloseTimeout: '5s', retry: { maximumAttempts: 2 }, heartbeatTimeout: '1s' }],
      });

    it('when paused, the running activity is cancelled with details saying so', async () => {
      const tq = uid('tq');
      expect(await env.withWorker(tq, () => run(tq, { steps: ['pause'] }))).to.deep.equal(details({ paused: true }));
    });

    it('when paused and unpaused, the rethrown cancellation is retried as attempt 2', async () => {
      const tq = uid('tq');
      // Attempt 2 starts afresh: no cancellation, so no details.
      expect(await env.withWorker(tq, () => run(tq, { steps: ['pause'], unpause: true, shouldRetry: true }))).to.equal(undefined);
    });

    it('when reset, the running activity is cancelled with details saying so', async () => {
      const tq = uid('tq');
      expect(await env.withWorker(tq, () => run(tq, { steps: ['reset'] }))).to.deep.equal(details({ reset: true }));
    });

    it('when reset and retried, the next attempt is attempt 2', async () => {
      const tq = uid('tq');
      expect(await env.withWorker(tq, () => run(tq, { steps: ['reset'], shouldRetry: true }))).to.equal(undefined);
    });

    it('when reset and then paused, the details say both', async () => {
      const tq = uid('tq');
      expect(await env.withWorker(tq, () => run(tq, { steps: ['reset', 'pause'] }))).to.deep.equal(details({ paused: true, reset: true }));
    });
  });
}

describe('devserver activity pause: states and dispatch', function () {
  this.timeout(60_000);
  const env = useEnv({});
  const ns = 'default';
  const pending = async (workflowId: string) =>
    (await env.connection.workflowService.describeWorkflowExecution({ namespace: ns, execution: { workflowId } })).pendingActivities ?? [];

  it('holds a paused activity no worker has taken (PAUSED), releases it on unpause, and describes the pause', async () => {
    const tq = uid('tq');
    const actsTq = uid('acts');
    const workflowId = uid('wf');
    await env.withWorker(
      tq,
      async () => {
        const h = await env.client.workflow.start('runActivity', {
          taskQueue: tq,
          workflowId,
          args: ['echo', ['after unpause'], { taskQueue: actsTq, startToCloseTimeout: '5s' }],
        });
        await waitFor(async () => (await pending(workflowId)).length === 1);
        const svc = env.connection.workflowService;
        await svc.pauseActivity({ namespace: ns, execution: { workflowId }, id: 'x', identity: 'operator', reason: 'not now' }).then(
          () => expect.fail('an unknown activity id is NOT_FOUND'),
          (e: { code?: number }) => expect(e.code).to.equal(5),
        );
        const [scheduled] = await pending(workflowId);
        await svc.pauseActivity({ namespace: ns, execution: { workflowId }, type: 'echo', identity: 'operator', reason: 'not now' });
        const [paused] = await pending(workflowId);
        expect(paused.state).to.equal(State.PENDING_ACTIVITY_STATE_PAUSED);
        expect(paused.paused).to.equal(true);
        expect(paused.pauseInfo?.manual).to.deep.include({ identity: 'operator', reason: 'not now' });
        expect(paused.activityId).to.equal(scheduled.activityId);
        // A worker on the activity's queue gets nothing while it is paused.
        await env.withWorker(actsTq, async () => {
          await new Promise((r) => setTimeout(r, 300));
          expect((await pending(workflowId))[0].state).to.equal(State.PENDING_ACTIVITY_STATE_PAUSED);
          await svc.unpauseActivity({ namespace: ns, execution: { workflowId }, id: scheduled.activityId });
          expect(await h.result()).to.equal('after unpause');
        });
      },
      { activities: {} },
    );
  });

  it('moves a waiting activity to another task queue with UpdateActivityOptions, and restores its original options', async () => {
    const tq = uid('tq');
    const workflowId = uid('wf');
    const nobody = uid('nobody');
    await env.withWorker(tq, async () => {
      const h = await env.client.workflow.start('runActivity', {
        taskQueue: tq,
        workflowId,
        args: ['echo', ['moved'], { taskQueue: nobody, startToCloseTimeout: '5s' }],
      });
      await waitFor(async () => (await pending(workflowId)).length === 1);
      type Req = temporal.api.workflowservice.v1.IUpdateActivityOptionsRequest;
      const update = (req: Omit<Req, 'namespace' | 'execution'>) =>
        env.connection.workflowService.updateActivityOptions({
          namespace: ns,
          execution: { workflowId },
          ...req,
        }) as unknown as Promise<temporal.api.workflowservice.v1.IUpdateActivityOptionsResponse>;
      const first = await update({
        type: 'echo',
        activityOptions: { heartbeatTimeout: { seconds: Long.fromNumber(2) } },
        updateMask: { paths: ['heartbeat_timeout'] },
      });
      expect(Number(first.activityOptions?.heartbeatTimeout?.seconds)).to.equal(2);
      expect(first.activityOptions?.taskQueue?.name).to.equal(nobody);
      const restored = await update({ type: 'echo', restoreOriginal: true });
      expect(Number(restored.activityOptions?.heartbeatTimeout?.seconds ?? 0)).to.equal(0);
      const moved = await update({ type: 'echo', activityOptions: { taskQueue: { name: tq } }, updateMask: { paths: ['task_queue.name'] } });
      expect(moved.activityOptions?.taskQueue?.name).to.equal(tq);
      expect(await h.result()).to.equal('moved');
    });
  });

  it('reports PAUSE_REQUESTED while a worker still runs a paused activity; ResetActivity by type starts over at attempt 1', async () => {
    const tq = uid('tq');
    const workflowId = uid('wf');
    const key = uid('k');
    await env.withWorker(tq, async () => {
      const h = await env.client.workflow.start('runActivity', {
        taskQueue: tq,
        workflowId,
        args: ['waitForCancel', [key], { startToCloseTimeout: '30s', heartbeatTimeout: '5s' }],
      });
      await waitFor(async () => (await pending(workflowId))[0]?.state === State.PENDING_ACTIVITY_STATE_STARTED);
      const svc = env.connection.workflowService;
      await svc.pauseActivity({ namespace: ns, execution: { workflowId }, id: (await pending(workflowId))[0].activityId!, requestId: 'pause-1' });
      expect((await pending(workflowId))[0].state).to.equal(State.PENDING_ACTIVITY_STATE_PAUSE_REQUESTED);
      // The same request again is fine; another pause is refused.
      await svc.pauseActivity({ namespace: ns, execution: { workflowId }, type: 'waitForCancel', requestId: 'pause-1' });
      await svc.pauseActivity({ namespace: ns, execution: { workflowId }, type: 'waitForCancel', requestId: 'pause-2' }).then(
        () => expect.fail('a second pause is FAILED_PRECONDITION'),
        (e: { code?: number }) => expect(e.code).to.equal(9),
      );
      await svc.resetActivity({ namespace: ns, execution: { workflowId }, type: 'waitForCancel', keepPaused: true });
      const [reset] = await pending(workflowId);
      expect(reset.attempt).to.equal(1);
      expect(reset.paused).to.equal(true);
      await h.terminate();
    });
  });
});
