// Point 3: activity dispatch, server-side retries, the four timeouts, heartbeats, cancellation,
// and a worker that dies in the middle of an activity.
import { expect } from 'chai';
import { fork } from 'node:child_process';
import * as path from 'node:path';
import { ActivityCompletionError, Client, NamespaceNotFoundError, WorkflowFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { asyncTokens, attemptLog } from './activities';
import { CACHE_MODES, uid, useEnv, waitFor } from './harness';

for (const mode of CACHE_MODES) {
  describe(`devserver activities (${mode.name})`, function () {
    const env = useEnv(mode);

    const run = (tq: string, name: string, args: unknown[], options: object) =>
      env.client.workflow.execute('runActivity', { taskQueue: tq, workflowId: uid('wf'), args: [name, args, options] });
    const failureOf = async (p: Promise<unknown>) => {
      const err = await p.then(
        () => undefined,
        (e) => e,
      );
      expect(err).to.be.instanceOf(WorkflowFailedError);
      expect(err.cause).to.be.instanceOf(ActivityFailure);
      return err.cause as ActivityFailure;
    };

    it('dispatches by task queue', async () => {
      const tq = uid('tq');
      const other = uid('acts');
      // The workflow's worker does not serve `other`; a second worker does.
      const r = await env.withWorker(
        tq,
        () => env.withWorker(other, () => run(tq, 'echo', ['via other queue'], { startToCloseTimeout: '5s', taskQueue: other })),
        { activities: {} },
      );
      expect(r).to.equal('via other queue');
    });

    it('retries with initial interval and backoff coefficient until success', async () => {
      const tq = uid('tq');
      const key = uid('k');
      const attempt = await env.withWorker(tq, () =>
        run(tq, 'failTimes', [key, 2], {
          startToCloseTimeout: '5s',
          retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '10s' },
        }),
      );
      expect(attempt).to.equal(3);
      const log = attemptLog.get(key)!;
      expect(log.map((l) => l.attempt)).to.deep.equal([1, 2, 3]);
      expect(log[1].at - log[0].at).to.be.within(180, 400);
      expect(log[2].at - log[1].at).to.be.within(380, 650);
    });

    it('caps the delay at the maximum interval', async () => {
      const tq = uid('tq');
      const key = uid('k');
      await env.withWorker(tq, () =>
        run(tq, 'failTimes', [key, 2], {
          startToCloseTimeout: '5s',
          retry: { initialInterval: '200ms', backoffCoefficient: 10, maximumInterval: '300ms' },
        }),
      );
      const log = attemptLog.get(key)!;
      expect(log[2].at - log[1].at).to.be.within(280, 500);
    });

    it('stops at maximum attempts and reports the last failure', async () => {
      const tq = uid('tq');
      const key = uid('k');
      const failure = await env.withWorker(tq, () =>
        failureOf(
          run(tq, 'failTimes', [key, 10], {
            startToCloseTimeout: '5s',
            retry: { initialInterval: '10ms', maximumAttempts: 3 },
          }),
        ),
      );
      expect(attemptLog.get(key)!.length).to.equal(3);
      expect(failure.retryState).to.equal('MAXIMUM_ATTEMPTS_REACHED');
      expect(failure.cause).to.be.instanceOf(ApplicationFailure);
      expect(failure.cause!.message).to.equal('attempt 3 failed');
    });

    it('does not retry non-retryable error types', async () => {
      const tq = uid('tq');
      const key = uid('k');
      const failure = await env.withWorker(tq, () =>
        failureOf(
          run(tq, 'failTimes', [key, 10, 'Fatal'], {
            startToCloseTimeout: '5s',
            retry: { initialInterval: '10ms', nonRetryableErrorTypes: ['Fatal'] },
          }),
        ),
      );
      expect(attemptLog.get(key)!.length).to.equal(1);
      expect(failure.retryState).to.equal('NON_RETRYABLE_FAILURE');
    });

    it('fills the SDK default retry policy (1s, x2, 100x, unlimited)', async () => {
      const tq = uid('tq');
      const h = await env.client.workflow.start('runActivity', { taskQueue: tq, workflowId: uid('wf'), args: ['echo', ['x'], { startToCloseTimeout: '5s' }] });
      await env.withWorker(tq, () => h.result());
      const scheduled = (await h.fetchHistory()).events!.find((e) => e.activityTaskScheduledEventAttributes)!.activityTaskScheduledEventAttributes!;
      const rp = scheduled.retryPolicy!;
      expect(Number(rp.initialInterval!.seconds)).to.equal(1);
      expect(rp.backoffCoefficient).to.equal(2);
      expect(Number(rp.maximumInterval!.seconds)).to.equal(100);
      expect(rp.maximumAttempts ?? 0).to.equal(0);
    });

    it('schedule-to-start timeout when no worker polls the queue', async () => {
      const tq = uid('tq');
      const failure = await env.withWorker(tq, () =>
        failureOf(
          run(tq, 'echo', ['x'], {
            startToCloseTimeout: '5s',
            scheduleToStartTimeout: '300ms',
            taskQueue: uid('nobody'),
          }),
        ),
      );
      expect(failure.cause).to.be.instanceOf(TimeoutFailure);
      expect((failure.cause as TimeoutFailure).timeoutType).to.equal('SCHEDULE_TO_START');
    });

    it('start-to-close timeout is retried', async () => {
      const tq = uid('tq');
      const key = uid('k');
      expect(
        await env.withWorker(tq, () =>
          run(tq, 'slowFirstAttempt', [key, 3000], {
            startToCloseTimeout: '400ms',
            retry: { initialInterval: '10ms' },
          }),
        ),
      ).to.equal(2);
    });

    it('schedule-to-close timeout ends all attempts', async () => {
      const tq = uid('tq');
      const key = uid('k');
      const started = Date.now();
      // The second attempt is still running when the schedule-to-close deadline passes (an attempt
      // ending within 10 ms of it would instead close START_TO_CLOSE: no time left for a retry).
      const failure = await env.withWorker(tq, () =>
        failureOf(
          run(tq, 'alwaysSlow', [key, 3000], {
            startToCloseTimeout: '600ms',
            scheduleToCloseTimeout: '1s',
            retry: { initialInterval: '10ms' },
          }),
        ),
      );
      expect(Date.now() - started).to.be.lessThan(4000);
      expect(failure.cause).to.be.instanceOf(TimeoutFailure);
      expect((failure.cause as TimeoutFailure).timeoutType).to.equal('SCHEDULE_TO_CLOSE');
      expect(attemptLog.get(key)!.length).to.be.at.least(2);
    });

    it('heartbeat timeout retries and the next attempt sees the heartbeat details', async () => {
      const tq = uid('tq');
      const key = uid('k');
      const details = await env.withWorker(tq, () =>
        run(tq, 'heartbeatThenHang', [key], {
          startToCloseTimeout: '10s',
          heartbeatTimeout: '400ms',
          retry: { initialInterval: '10ms' },
        }),
      );
      expect(details).to.deep.equal({ progress: 'first attempt got this far' });
    });

    it("puts the activity's summary (user metadata) on ActivityTaskScheduled", async () => {
      const tq = uid('tq');
      const h = await env.client.workflow.start('runActivity', {
        taskQueue: tq,
        workflowId: uid('wf'),
        args: ['echo', ['x'], { startToCloseTimeout: '5s', summary: 'charge the deposit' }],
      });
      await env.withWorker(tq, () => h.result());
      const scheduled = (await h.fetchHistory()).events!.find((e) => e.activityTaskScheduledEventAttributes)!;
      const summary = scheduled.userMetadata?.summary;
      expect(summary?.data && JSON.parse(Buffer.from(summary.data).toString())).to.equal('charge the deposit');
    });

    it('refuses an activity task token used in another namespace', async () => {
      const tq = uid('tq');
      const key = uid('k');
      await env.connection.workflowService.registerNamespace({ namespace: 'elsewhere' }).catch(() => undefined);
      await env.withWorker(tq, async () => {
        const h = await env.client.workflow.start('runActivity', {
          taskQueue: tq,
          workflowId: uid('wf'),
          args: ['completeLater', [key], { startToCloseTimeout: '10s' }],
        });
        const token = await waitFor(async () => asyncTokens.get(key));
        const err = await new Client({ connection: env.connection, namespace: 'elsewhere' }).activity.complete(token, 'wrong').catch((e: unknown) => e);
        expect(err).to.be.instanceOf(ActivityCompletionError);
        expect((err as Error).message).to.equal('token does not match namespace');
        // A namespace that does not exist is named as such before the token is looked at.
        const unknown = await new Client({ connection: env.connection, namespace: 'no-such-namespace' }).activity.complete(token, 'x').catch((e: unknown) => e);
        expect(unknown).to.be.instanceOf(NamespaceNotFoundError);
        await env.client.activity.complete(token, 'right');
        expect(await h.result()).to.equal('right');
      });
    });

    it('delivers cancellation through the heartbeat response', async () => {
      const tq = uid('tq');
      const key = uid('k');
      expect(
        await env.withWorker(tq, () => env.client.workflow.execute('cancelActivityAfter', { taskQueue: tq, workflowId: uid('wf'), args: [key, 300] })),
      ).to.equal('cancelled');
      expect(
        attemptLog.get(key)!.some((l) => l.attempt === -1),
        'activity saw the cancellation',
      ).to.equal(true);
    });
  });
}

describe('devserver activities: worker killed mid-activity', function () {
  const env = useEnv({});

  it('times the attempt out and runs it again on another worker', async function () {
    this.timeout(40_000);
    const tq = uid('tq');
    const actsTq = uid('acts');
    await env.withWorker(
      tq,
      async () => {
        const h = await env.client.workflow.start('runActivity', {
          taskQueue: tq,
          workflowId: uid('wf'),
          args: ['sleepMs', [60_000], { taskQueue: actsTq, startToCloseTimeout: '2s', retry: { initialInterval: '10ms' } }],
        });
        // A separate process serves the activity queue; it is SIGKILLed once the activity started.
        const child = fork(path.join(__dirname, 'support/kill-me-worker.ts'), [env.server.address, actsTq], {
          execArgv: ['--import', 'tsx'],
          stdio: 'inherit',
        });
        try {
          await waitFor(async () => {
            const d = await env.connection.workflowService.describeWorkflowExecution({ namespace: 'default', execution: { workflowId: h.workflowId } });
            return d.pendingActivities?.some((a) => a.state === temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED);
          }, 20_000);
        } finally {
          child.kill('SIGKILL');
        }
        const killedAt = Date.now();
        // The replacement worker answers quickly, so the result proves the attempt was re-dispatched.
        const r = await env.withWorker(actsTq, () => h.result(), { activities: { sleepMs: async () => 'second attempt' } });
        expect(r).to.equal('second attempt');
        expect(Date.now() - killedAt).to.be.lessThan(6000);
      },
      { activities: {} },
    );
  });
});
