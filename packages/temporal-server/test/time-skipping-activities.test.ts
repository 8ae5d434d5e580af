// Issue 16 point 4: time skipping around running activities, counted like Temporal's Java test
// server (client locks + one lock per outstanding workflow task or activity attempt; time jumps
// when the total is zero or less).
import { expect } from 'chai';
import { Worker } from '@temporalio/worker';
import { Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTimeSkippingEnv } from './support/launcher';
import { bundle, uid } from './harness';
import * as activities from './activities';

const HOUR = 3_600_000;

describe('devserver time skipping around activities', function () {
  let env: TestWorkflowEnvironment;
  before(async function () {
    this.timeout(60_000);
    await bundle();
    env = await createTimeSkippingEnv();
  });
  after(async () => {
    await env?.teardown();
  });

  const worker = async (tq: string, extra: Record<string, (...a: never[]) => Promise<unknown>> = {}) =>
    Worker.create({ connection: env.nativeConnection, taskQueue: tq, workflowBundle: await bundle(), activities: { ...activities, ...extra } });

  // The SDK sends heartbeats in the background: skip time only once the server holds the details,
  // or the timeout can fire before they arrive and the retry sees none.
  const heartbeatRecorded = async (workflowId: string) => {
    for (let i = 0; i < 200; i++) {
      const { raw } = await env.client.workflow.getHandle(workflowId).describe();
      if (raw.pendingActivities?.[0]?.heartbeatDetails?.payloads?.length) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the heartbeat never reached the server');
  };

  it('env.sleep(1 hour) while an activity runs and result() is pending returns at once, an hour later', async () => {
    const tq = uid('tq');
    let started!: () => void;
    const isStarted = new Promise<void>((r) => (started = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const w = await worker(tq, {
      blocks: async () => {
        started();
        await released;
        return 'released';
      },
    });
    await w.runUntil(async () => {
      const h = await env.client.workflow.start('runActivity', {
        taskQueue: tq,
        workflowId: uid('wf'),
        args: ['blocks', [], { startToCloseTimeout: '2 hours', retry: { maximumAttempts: 1 } }],
      });
      const result = h.result(); // unlocks time skipping while it waits
      await isStarted;
      const t0 = await env.currentTimeMs();
      const wall = Date.now();
      await env.sleep('1 hour');
      const t1 = await env.currentTimeMs();
      expect(Date.now() - wall).to.be.lessThan(5000);
      expect(t1 - t0).to.be.within(HOUR, HOUR + 5000);
      release();
      expect(await result).to.equal('released'); // the 2 h start-to-close timeout did not fire
    });
  });

  it('env.sleep inside an activity (result() pending) skips over the activity it runs in', async () => {
    const tq = uid('tq');
    const w = await worker(tq, {
      sleepsInVirtualTime: async () => {
        const t0 = await env.currentTimeMs();
        await env.sleep('1 day');
        return (await env.currentTimeMs()) - t0;
      },
    });
    const wall = Date.now();
    const skipped = await w.runUntil(
      env.client.workflow.execute('runActivity', {
        taskQueue: tq,
        workflowId: uid('wf'),
        args: ['sleepsInVirtualTime', [], { startToCloseTimeout: '2 days', retry: { maximumAttempts: 1 } }],
      }),
    );
    expect(Date.now() - wall).to.be.lessThan(5000);
    expect(skipped).to.be.within(24 * HOUR, 24 * HOUR + 5000);
  });

  it('an attempt whose start-to-close timeout passes in skipped time times out and is retried', async () => {
    const tq = uid('tq');
    const w = await worker(tq, {
      firstAttemptOverruns: async () => {
        const { attempt } = Context.current().info;
        // The clock passes the 1 minute timeout. (The sleep's extra unlock lasts until it ends: a
        // longer one would let time jump past attempt 2's timeout too, as on Java's test server.)
        if (attempt === 1) await env.sleep('90 seconds');
        return `attempt ${attempt}`;
      },
    });
    const workflowId = uid('wf');
    const r = await w.runUntil(
      env.client.workflow.execute('runActivity', {
        taskQueue: tq,
        workflowId,
        args: ['firstAttemptOverruns', [], { startToCloseTimeout: '1 minute', retry: { initialInterval: '1s', maximumAttempts: 3 } }],
      }),
    );
    expect(r).to.equal('attempt 2');
    const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
    const startedEvent = history.events?.find((e) => e.activityTaskStartedEventAttributes);
    expect(startedEvent?.activityTaskStartedEventAttributes?.attempt).to.equal(2);
    expect(startedEvent?.activityTaskStartedEventAttributes?.lastFailure?.timeoutFailureInfo).to.not.equal(undefined);
  });

  it('heartbeat and schedule-to-close timeouts fire when skipped time passes them', async () => {
    const tq = uid('tq');
    const w = await worker(tq, {
      heartbeatsThenSleeps: async () => {
        const { attempt, heartbeatDetails } = Context.current().info;
        if (attempt > 1) return heartbeatDetails;
        Context.current().heartbeat('first attempt');
        await heartbeatRecorded(Context.current().info.workflowExecution!.workflowId);
        await env.sleep('90 seconds'); // past the 30 s heartbeat timeout
        return 'attempt 1 should have timed out';
      },
      alwaysSleeps: async () => {
        await env.sleep('90 seconds'); // past the 1 minute schedule-to-close timeout
        return 'should have timed out';
      },
    });
    await w.runUntil(async () => {
      expect(
        await env.client.workflow.execute('runActivity', {
          taskQueue: tq,
          workflowId: uid('wf'),
          args: ['heartbeatsThenSleeps', [], { startToCloseTimeout: '10 minutes', heartbeatTimeout: '30s', retry: { initialInterval: '1s' } }],
        }),
      ).to.equal('first attempt');
      const err: unknown = await env.client.workflow
        .execute('runActivity', {
          taskQueue: tq,
          workflowId: uid('wf'),
          args: ['alwaysSleeps', [], { scheduleToCloseTimeout: '1 minute', retry: { initialInterval: '1s' } }],
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(String((err as Error & { cause?: { cause?: Error } })?.cause?.cause?.message)).to.contain('SCHEDULE_TO_CLOSE');
    });
  });

  it('a workflow with a timer and a slow activity completes; the activity keeps its real time', async () => {
    const tq = uid('tq');
    const w = await worker(tq);
    const t0 = await env.currentTimeMs();
    const wall = Date.now();
    // The activity takes 1 s of real time under a 10 s start-to-close timeout, with no retries: time
    // must not jump past its timeout to the 1-day timer while it runs.
    expect(await w.runUntil(env.client.workflow.execute('timerAndSlowActivity', { taskQueue: tq, workflowId: uid('wf'), args: [1000] }))).to.equal('done');
    expect(Date.now() - wall).to.be.lessThan(9000);
    expect((await env.currentTimeMs()) - t0).to.be.at.least(24 * HOUR);
  });

  it('env.sleep without a pending result waits for a running activity, then skips', async () => {
    const tq = uid('tq');
    const w = await worker(tq);
    await w.runUntil(async () => {
      const h = await env.client.workflow.start('runActivity', {
        taskQueue: tq,
        workflowId: uid('wf'),
        args: ['sleepMs', [800], { startToCloseTimeout: '10s', retry: { maximumAttempts: 1 } }],
      });
      await new Promise((r) => setTimeout(r, 200));
      const t0 = await env.currentTimeMs();
      await env.sleep('1 hour'); // the activity holds a lock until it finishes
      expect((await env.currentTimeMs()) - t0).to.be.within(HOUR, HOUR + 5000);
      expect(await h.result()).to.equal(800);
    });
  });
});
