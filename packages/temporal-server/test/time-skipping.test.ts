// Point 6: TestWorkflowEnvironment.createTimeSkipping() spawning our launcher.
import { expect } from 'chai';
import Long from 'long';
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTimeSkippingEnv } from './support/launcher';
import { bundle, uid } from './harness';
import * as activities from './activities';

describe('devserver time skipping (TestWorkflowEnvironment.createTimeSkipping)', function () {
  let env: TestWorkflowEnvironment;
  before(async function () {
    this.timeout(60_000);
    await bundle();
    env = await createTimeSkippingEnv();
  });
  after(async () => {
    await env?.teardown();
  });

  const worker = async (tq: string) => Worker.create({ connection: env.nativeConnection, taskQueue: tq, workflowBundle: await bundle(), activities });

  it('runs a workflow that sleeps 14 days in seconds, not days', async () => {
    const tq = uid('tq');
    const w = await worker(tq);
    const wall = Date.now();
    const r = await w.runUntil(env.client.workflow.execute('fortnight', { taskQueue: tq, workflowId: uid('wf') }));
    // Proof of skipping, not a speed check (bench:temporal measures speed): a real wait is 14 days.
    expect(Date.now() - wall).to.be.lessThan(10_000);
    expect(r.activity).to.equal('after two weeks');
    expect(r.slept).to.be.at.least(14 * 24 * 3600 * 1000);
  });

  it('does not skip time while an activity is running (its start-to-close timeout holds)', async () => {
    const tq = uid('tq');
    const w = await worker(tq);
    expect(await w.runUntil(env.client.workflow.execute('slowActivityThenTimer', { taskQueue: tq, workflowId: uid('wf'), args: [300] }))).to.equal('done');
  });

  it('env.sleep and currentTimeMs move virtual time; it stands still while locked', async () => {
    const t0 = await env.currentTimeMs();
    await env.sleep('1 day');
    const t1 = await env.currentTimeMs();
    expect(t1 - t0).to.be.within(24 * 3600 * 1000, 24 * 3600 * 1000 + 5000);
    // Locked (no result() pending): a started workflow's timer does not fire by itself.
    const tq = uid('tq');
    const w = await worker(tq);
    await w.runUntil(async () => {
      const h = await env.client.workflow.start('sleeps', { taskQueue: tq, workflowId: uid('wf'), args: [3_600_000] });
      await new Promise((r) => setTimeout(r, 300));
      expect((await h.describe()).status.name).to.equal('RUNNING');
      expect(await h.result()).to.be.at.least(3_600_000);
    });
  });

  it('TestService: Sleep, SleepUntil and the lock counter', async () => {
    const ts = env.connection.testService!;
    const now = async () => await env.currentTimeMs();
    // Locked (the initial state): Sleep waits in real time, the clock does not jump.
    const t0 = await now();
    const wall0 = Date.now();
    await ts.sleep({ duration: { seconds: Long.fromNumber(0), nanos: 200_000_000 } });
    expect(Date.now() - wall0).to.be.at.least(190);
    // Unlocked: an hour-long Sleep returns at once with the clock an hour on.
    await ts.unlockTimeSkipping({});
    try {
      const wall1 = Date.now();
      await ts.sleep({ duration: { seconds: Long.fromNumber(3600) } });
      expect(Date.now() - wall1).to.be.lessThan(10_000); // an hour's Sleep, skipped
      expect((await now()) - t0).to.be.at.least(3600 * 1000);
      const target = (await now()) + 2 * 24 * 3600 * 1000;
      await ts.sleepUntil({ timestamp: { seconds: Long.fromNumber(Math.floor(target / 1000)), nanos: (target % 1000) * 1e6 } });
      expect(await now()).to.be.at.least(target);
    } finally {
      await ts.lockTimeSkipping({});
    }
  });
});
