// Dev-server role: with a database, runs survive a server restart. Timers keep their due times,
// work handed to a worker before the restart counts as lost and is retried, history is kept.
import { expect } from 'chai';
import { fork } from 'node:child_process';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { Pool } from 'pg';
import { startDevServer, DevServer } from '../src';
import { encodeMessage, protoType } from '../src/proto';
import { jsonWithBytes, parseJsonWithBytes } from '../src/state/run-state';
import { testDatabaseUrl } from './support/postgres';
import { bundle, freePort, uid, waitFor } from './harness';
import { ensureLauncherBuilt } from './support/launcher';
import * as activities from './activities';

describe('devserver persistence (Postgres run, activity and schedule store)', function () {
  this.timeout(90_000);
  let databaseUrl: string;
  const storeId = uid('store');

  before(async function () {
    this.timeout(120_000);
    databaseUrl = await testDatabaseUrl();
    await bundle();
  });

  async function connect(server: DevServer) {
    const connection = await Connection.connect({ address: server.address });
    const nativeConnection = await NativeConnection.connect({ address: server.address });
    return { connection, nativeConnection, client: new Client({ connection }) };
  }

  it('resumes timers and lost activity attempts after a restart, and keeps closed runs', async () => {
    const tq = uid('tq');
    const actsTq = uid('acts');
    const timerWf = uid('timer');
    const activityWf = uid('activity');
    const doneWf = uid('done');

    // --- first server: start everything, then stop it mid-flight.
    const first = await startDevServer({ port: 0, databaseUrl, storeId });
    const a = await connect(first);
    const w1 = await Worker.create({ connection: a.nativeConnection, taskQueue: tq, workflowBundle: await bundle(), activities });
    await w1.runUntil(async () => {
      expect(await a.client.workflow.execute('returnsInput', { taskQueue: tq, workflowId: doneWf, args: ['kept'] })).to.equal('kept');
      await a.client.workflow.start('sleeps', { taskQueue: tq, workflowId: timerWf, args: [2000] });
      await a.client.workflow.start('runActivity', {
        taskQueue: tq,
        workflowId: activityWf,
        args: ['sleepMs', [60_000], { taskQueue: actsTq, startToCloseTimeout: '30s', retry: { initialInterval: '10ms' } }],
      });
      // The activity runs in another process, which dies with the server.
      const child = fork(path.join(__dirname, 'support/kill-me-worker.ts'), [first.address, actsTq], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
      try {
        await waitFor(async () => {
          const d = await a.connection.workflowService.describeWorkflowExecution({ namespace: 'default', execution: { workflowId: activityWf } });
          return d.pendingActivities?.some((p) => p.state === temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED);
        }, 20_000);
        const timerHistory = await a.client.workflow.getHandle(timerWf).fetchHistory();
        expect(timerHistory.events!.some((e) => e.timerStartedEventAttributes)).to.equal(true);
      } finally {
        child.kill('SIGKILL');
      }
    });
    await a.connection.close();
    await a.nativeConnection.close();
    const stoppedAt = Date.now();
    await first.shutdown();

    // --- second server on the same database: the runs continue.
    const second = await startDevServer({ port: 0, databaseUrl, storeId });
    const b = await connect(second);
    try {
      const w2 = await Worker.create({ connection: b.nativeConnection, taskQueue: tq, workflowBundle: await bundle(), activities });
      const w3 = await Worker.create({ connection: b.nativeConnection, taskQueue: actsTq, activities: { sleepMs: async () => 'second attempt' } });
      await Promise.all([
        w2.runUntil(async () => {
          const slept = await b.client.workflow.getHandle(timerWf).result();
          expect(slept).to.be.at.least(2000);
          expect(await b.client.workflow.getHandle(activityWf).result()).to.equal('second attempt');
          // The lost attempt was retried at once, not after its 30 s start-to-close timeout.
          expect(Date.now() - stoppedAt).to.be.lessThan(15_000);
        }),
        w3.runUntil(() => waitFor(async () => (await b.client.workflow.getHandle(activityWf).describe()).status.name === 'COMPLETED', 20_000)),
      ]);
      const done = await b.client.workflow.getHandle(doneWf).describe();
      expect(done.status.name).to.equal('COMPLETED');
      expect(await b.client.workflow.getHandle(doneWf).result()).to.equal('kept');
      const types = (await b.client.workflow.getHandle(timerWf).fetchHistory()).events!.map((e) => e.eventType);
      expect(types).to.include(temporal.api.enums.v1.EventType.EVENT_TYPE_TIMER_FIRED);
    } finally {
      await b.connection.close();
      await b.nativeConnection.close();
      await second.shutdown();
    }
  });

  it('keeps standalone activities across a restart: a waiting one runs afterwards, a paused one stays paused, outcomes stay readable', async () => {
    const tq = uid('tq');
    const waiting = uid('waiting');
    const paused = uid('paused');
    const done = uid('done');
    const own = uid('store');
    const first = await startDevServer({ port: 0, databaseUrl, storeId: own });
    const a = await connect(first);
    let doneRunId: string;
    try {
      const w = await Worker.create({ connection: a.nativeConnection, taskQueue: tq, activities });
      doneRunId = await w.runUntil(async () => {
        const h = await a.client.activity.start('echo', { id: done, taskQueue: tq, startToCloseTimeout: '10s', args: ['finished before'] });
        expect(await h.result()).to.equal('finished before');
        return h.runId!;
      });
      // No worker for these until after the restart.
      await a.client.activity.start('echo', { id: waiting, taskQueue: tq, scheduleToCloseTimeout: '1 minute', args: ['finished after'] });
      const p = await a.client.activity.start('echo', { id: paused, taskQueue: tq, scheduleToCloseTimeout: '1 minute', args: ['unpaused'] });
      await p.pause({ reason: 'hold over the restart' });
    } finally {
      await a.connection.close();
      await a.nativeConnection.close();
      await first.shutdown();
    }

    const second = await startDevServer({ port: 0, databaseUrl, storeId: own });
    const b = await connect(second);
    try {
      expect(await b.client.activity.getHandle(done, doneRunId).result()).to.equal('finished before');
      expect((await b.client.activity.getHandle(paused).describe()).status).to.equal('PAUSED');
      const w = await Worker.create({ connection: b.nativeConnection, taskQueue: tq, activities });
      await w.runUntil(async () => {
        expect(await b.client.activity.getHandle(waiting).result()).to.equal('finished after');
        expect((await b.client.activity.getHandle(paused).describe()).status).to.equal('PAUSED');
        await b.client.activity.getHandle(paused).unpause();
        expect(await b.client.activity.getHandle(paused).result()).to.equal('unpaused');
      });
      expect((await b.client.activity.count(`ActivityId='${waiting}' OR ActivityId='${paused}' OR ActivityId='${done}'`)).count).to.equal(3);
    } finally {
      await b.connection.close();
      await b.nativeConnection.close();
      await second.shutdown();
    }
  });

  /** Every event of a run as the wire bytes a client receives. */
  async function historyBytes(connection: Connection, workflowId: string): Promise<string[]> {
    const res = await connection.workflowService.getWorkflowExecutionHistory({ namespace: 'default', execution: { workflowId } });
    const type = protoType('temporal.api.history.v1.HistoryEvent');
    return res.history!.events!.map((e) =>
      encodeMessage(
        type,
        temporal.api.history.v1.HistoryEvent.toObject(temporal.api.history.v1.HistoryEvent.fromObject(e), { longs: Number, enums: Number }),
      ).toString('base64'),
    );
  }

  it('keeps every event byte for byte across a restart, and still loads rows that stored events as JSON', async () => {
    const tq = uid('tq');
    const workflowId = uid('bytes');
    const own = uid('store');
    const first = await startDevServer({ port: 0, databaseUrl, storeId: own });
    const a = await connect(first);
    let before: string[];
    try {
      const w = await Worker.create({ connection: a.nativeConnection, taskQueue: tq, workflowBundle: await bundle(), activities });
      await w.runUntil(async () => {
        const input = { text: 'æøå ✂', bytes: [0, 255, 128], n: 2 ** 40 };
        expect(
          await a.client.workflow.execute('returnsInput', { taskQueue: tq, workflowId, args: [input], memo: { note: 'kept' }, staticSummary: 'byte check' }),
        ).to.deep.equal(input);
      });
      before = await historyBytes(a.connection, workflowId);
    } finally {
      await a.connection.close();
      await a.nativeConnection.close();
      await first.shutdown();
    }

    const pool = new Pool({ connectionString: databaseUrl, max: 1 });
    try {
      const { rows } = await pool.query('SELECT run_id, namespace, workflow_id, seq, state FROM temporal_devserver_runs WHERE store_id = $1', [own]);
      expect(rows).to.have.length(1);
      // The row as the previous format wrote it: events as JSON objects with base64 byte fields.
      const stored = parseJsonWithBytes(rows[0].state) as { encodedHistory: string[] };
      const type = protoType('temporal.api.history.v1.HistoryEvent');
      const { encodedHistory, ...rest } = stored;
      const legacy = jsonWithBytes({
        ...rest,
        history: encodedHistory.map((b) => type.toObject(type.decode(Buffer.from(b, 'base64')), { longs: Number, enums: Number, defaults: false })),
      });
      const legacyStore = uid('store');
      await pool.query('INSERT INTO temporal_devserver_runs (store_id, run_id, namespace, workflow_id, seq, state) VALUES ($1, $2, $3, $4, $5, $6)', [
        legacyStore,
        rows[0].run_id,
        rows[0].namespace,
        rows[0].workflow_id,
        rows[0].seq,
        legacy,
      ]);

      for (const storeId of [own, legacyStore]) {
        const server = await startDevServer({ port: 0, databaseUrl, storeId });
        const b = await connect(server);
        try {
          expect(await historyBytes(b.connection, workflowId), storeId).to.deep.equal(before);
          expect(await b.client.workflow.getHandle(workflowId).result()).to.deep.equal({ text: 'æøå ✂', bytes: [0, 255, 128], n: 2 ** 40 });
        } finally {
          await b.connection.close();
          await b.nativeConnection.close();
          await server.shutdown();
        }
      }
    } finally {
      await pool.end();
    }
  });
});

describe('devserver persistence: an acknowledged start or signal is stored before the answer', function () {
  this.timeout(120_000);

  it('when the server is killed (-9) right after it acknowledged starts and signals-with-start then every one of them is there after the restart', async () => {
    const base = await testDatabaseUrl();
    const name = uid('acked')
      .replace(/[^a-z0-9_]/gi, '_')
      .toLowerCase();
    const admin = new Pool({ connectionString: base, max: 1 });
    await admin.query(`CREATE DATABASE "${name}"`);
    const databaseUrl = base.replace(/\/[^/]+$/, `/${name}`);
    const launcher = ensureLauncherBuilt();
    const port = await freePort();
    const start = () =>
      fork(launcher, ['server', 'start-dev', '--port', String(port), '--ip', '127.0.0.1', '--headless', '--database-url', databaseUrl], { stdio: 'ignore' });
    let server = start();
    const ids: string[] = [];
    try {
      const connection = await waitFor(() => Connection.connect({ address: `127.0.0.1:${port}` }).catch(() => undefined), 30_000);
      const client = new Client({ connection: connection! });
      // the kill follows the last answers at once: nothing may be acknowledged and then lost
      for (let i = 0; i < 20; i++) {
        const id = uid('acked-wf');
        if (i % 2) await client.workflow.start('sleeps', { taskQueue: 'nobody', workflowId: id, args: [60_000] });
        else await client.workflow.signalWithStart('sleeps', { taskQueue: 'nobody', workflowId: id, args: [60_000], signal: 'poke', signalArgs: [] });
        ids.push(id);
      }
      server.kill('SIGKILL');
      await connection!.close();
      server = start();
      const again = await waitFor(() => Connection.connect({ address: `127.0.0.1:${port}` }).catch(() => undefined), 30_000);
      const missing: string[] = [];
      for (const id of ids) {
        await again!.workflowService.describeWorkflowExecution({ namespace: 'default', execution: { workflowId: id } }).catch(() => missing.push(id));
      }
      await again!.close();
      expect(missing, 'acknowledged but lost').to.deep.equal([]);
    } finally {
      server.kill('SIGKILL');
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
  });
});
