// The shared entity inbox (workflows/shared/entity-inbox.ts) on its own, with an in-memory "database"
// standing in for the committed rows: each test has its own task queue, workflow id and entity.
import { expect } from 'chai';
import { ApplicationFailure } from '@temporalio/activity';
import { DefaultLogger, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTimeSkippingEnv } from '../support/temporal';
import { unique } from '../support/factories';
import { entityInboxProbe, probeContract, probeSignal, seenQuery, type ProbeActivities, type ProbeSnapshot } from './support/entity-inbox-probe.workflow';

describe('entity inbox: signals become committed state (time skipping)', function () {
  this.timeout(60_000);
  let env: TestWorkflowEnvironment;
  let workflowBundle: WorkflowBundleWithSourceMap;
  /** the committed rows, by entity id */
  const committed = new Map<string, ProbeSnapshot>();
  /** entities whose "database" cannot be reached just now */
  const unreachable = new Set<string>();

  const activities: ProbeActivities = {
    async readProbe({ entityId, minVersion }) {
      if (unreachable.has(entityId)) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      const row = committed.get(entityId);
      if (!row || row.version < minVersion) throw ApplicationFailure.retryable(`${entityId} not yet at version ${minVersion}`, probeContract.versionNotVisible);
      return { ...row };
    },
  };

  before(async () => {
    env = await createTimeSkippingEnv();
    workflowBundle = await bundleWorkflowCode({ workflowsPath: require.resolve('./support/entity-inbox-probe.workflow'), logger: new DefaultLogger('WARN') });
  });

  after(async () => {
    await env?.teardown();
  });

  /** A fresh entity, its workflow id, and a worker on a task queue of its own while `scenario` runs. */
  async function withProbe(
    scenario: (probe: { entityId: string; taskQueue: string; workflowId: string; commit(version: number, state: string): void }) => Promise<void>,
  ) {
    const entityId = unique('entity');
    const taskQueue = unique('inbox');
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle, activities });
    await worker.runUntil(
      scenario({ entityId, taskQueue, workflowId: `probe:${entityId}`, commit: (version, state) => committed.set(entityId, { version, state }) }),
    );
  }

  it('when events arrive in order then each committed change is shown once, with the state before it', () =>
    withProbe(async ({ entityId, taskQueue, workflowId, commit }) => {
      commit(1, 'OPEN');
      const handle = await env.client.workflow.start(entityInboxProbe, { taskQueue, workflowId, args: [{ entityId }] });
      await handle.signal(probeSignal, { type: 'Changed', entityVersion: 1 });
      await env.sleep(1000);
      commit(2, 'DONE');
      await handle.signal(probeSignal, { type: 'Changed', entityVersion: 2 });
      expect(await handle.result()).to.deep.equal({
        outcome: 'DONE',
        seen: [
          { eventVersion: 1, previousVersion: null, version: 1, state: 'OPEN' },
          { eventVersion: 2, previousVersion: 1, version: 2, state: 'DONE' },
        ],
      });
    }));

  it('when the first change never commits then the workflow learns that nothing happened', () =>
    withProbe(async ({ entityId, taskQueue, workflowId }) => {
      const handle = await env.client.workflow.start(entityInboxProbe, { taskQueue, workflowId, args: [{ entityId }] });
      await handle.signal(probeSignal, { type: 'Changed', entityVersion: 1 });
      expect(await handle.result()).to.deep.equal({ outcome: 'NEVER_COMMITTED', seen: [] });
    }));

  it('when an event announces a version that never commits then it is dropped and later changes still arrive', () =>
    withProbe(async ({ entityId, taskQueue, workflowId, commit }) => {
      commit(1, 'OPEN');
      const handle = await env.client.workflow.start(entityInboxProbe, { taskQueue, workflowId, args: [{ entityId }] });
      await handle.signal(probeSignal, { type: 'Changed', entityVersion: 1 });
      await handle.signal(probeSignal, { type: 'Changed', entityVersion: 2 }); // rolled back: never visible
      await env.sleep(60_000); // the read gives up
      expect(await handle.query(seenQuery)).to.have.length(1);

      commit(2, 'DONE'); // another change, which did commit, got version 2
      await handle.signal(probeSignal, { type: 'Changed', entityVersion: 2 });
      const { outcome, seen } = await handle.result();
      expect(outcome).to.equal('DONE');
      expect(seen.map((s) => [s.version, s.state])).to.deep.equal([
        [1, 'OPEN'],
        [2, 'DONE'],
      ]);
    }));

  it('when the database is unreachable for longer than the read retries then the event is read again once it is back, not dropped', () =>
    withProbe(async ({ entityId, taskQueue, workflowId, commit }) => {
      commit(1, 'OPEN');
      unreachable.add(entityId);
      const handle = await env.client.workflow.signalWithStart(entityInboxProbe, {
        taskQueue,
        workflowId,
        args: [{ entityId }],
        signal: probeSignal,
        signalArgs: [{ type: 'Changed', entityVersion: 1 }],
      });
      await env.sleep(10 * 60_000); // the read activity gave up long ago; the inbox keeps reading
      expect(await handle.query(seenQuery)).to.deep.equal([]);
      unreachable.delete(entityId);
      await env.sleep(2 * 60_000);
      expect((await handle.query(seenQuery)).map((s) => [s.version, s.state])).to.deep.equal([[1, 'OPEN']]);
      commit(2, 'DONE');
      await handle.signal(probeSignal, { type: 'Changed', entityVersion: 2 });
      expect((await handle.result()).outcome).to.equal('DONE');
    }));

  it('when events arrive out of order before the workflow reads them then they are taken lowest version first', async () => {
    const entityId = unique('entity');
    const taskQueue = unique('inbox');
    const workflowId = `probe:${entityId}`;
    committed.set(entityId, { version: 2, state: 'PAID' }); // versions 1 and 2 are committed, 3 is not yet
    // all three signals wait before any worker reads them, the newest first
    const handle = await env.client.workflow.signalWithStart(entityInboxProbe, {
      taskQueue,
      workflowId,
      args: [{ entityId }],
      signal: probeSignal,
      signalArgs: [{ type: 'Changed', entityVersion: 3 }],
    });
    await handle.signal(probeSignal, { type: 'Changed', entityVersion: 1 });
    await handle.signal(probeSignal, { type: 'Changed', entityVersion: 2 });

    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle, activities });
    const { seen } = await worker.runUntil(async () => {
      // version 1 is read first and shows the committed state (version 2); the event for 2 adds nothing
      while ((await handle.query(seenQuery)).length === 0) await env.sleep(10);
      committed.set(entityId, { version: 3, state: 'DONE' });
      return handle.result();
    });
    expect(seen.map((s) => [s.eventVersion, s.previousVersion, s.version, s.state])).to.deep.equal([
      [1, null, 2, 'PAID'],
      [3, 2, 3, 'DONE'],
    ]);
  });

  it('when an older event arrives after a newer one was applied then it is ignored (its state is already known)', () =>
    withProbe(async ({ entityId, taskQueue, workflowId, commit }) => {
      commit(1, 'OPEN');
      const handle = await env.client.workflow.signalWithStart(entityInboxProbe, {
        taskQueue,
        workflowId,
        args: [{ entityId }],
        signal: probeSignal,
        signalArgs: [{ type: 'Changed', entityVersion: 1 }],
      });
      await env.sleep(1000);
      commit(3, 'PAID'); // versions 2 and 3 committed; the signal for 3 overtakes the one for 2
      await handle.signal(probeSignal, { type: 'Changed', entityVersion: 3 });
      await env.sleep(1000);
      await handle.signal(probeSignal, { type: 'Changed', entityVersion: 2 });
      await handle.signal(probeSignal, { type: 'Changed', entityVersion: 3 }); // and a duplicate
      await env.sleep(1000);
      commit(4, 'DONE');
      await handle.signal(probeSignal, { type: 'Changed', entityVersion: 4 });
      const { seen } = await handle.result();
      expect(seen.map((s) => [s.eventVersion, s.previousVersion, s.version])).to.deep.equal([
        [1, null, 1],
        [3, 1, 3],
        [4, 3, 4],
      ]);
    }));

  it('when the awaited state does not come before the deadline then the wait ends with false', () =>
    withProbe(async ({ entityId, taskQueue, workflowId, commit }) => {
      commit(1, 'OPEN');
      const handle = await env.client.workflow.signalWithStart(entityInboxProbe, {
        taskQueue,
        workflowId,
        args: [{ entityId, deadlineMs: 24 * 60 * 60 * 1000 }],
        signal: probeSignal,
        signalArgs: [{ type: 'Changed', entityVersion: 1 }],
      });
      expect((await handle.result()).outcome).to.equal('DEADLINE');
    }));
});
