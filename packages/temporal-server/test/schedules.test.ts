// Schedules through the real SDK's client.schedule API, on a time-skipping server: the schedule's
// timers ride on the server's clock, so skipping virtual time fires them.
import { expect } from 'chai';
import Long from 'long';
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';
import moment from 'moment-timezone';
import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import { Client, Connection } from '@temporalio/client';
import type { ScheduleHandle, ScheduleOptions } from '@temporalio/client';
import { startDevServer } from '../src';
import { ScheduleActions } from '../src/rpc/schedule/schedule-actions';
import { Schedules } from '../src/rpc/schedule/schedules';
import { compileSpec, nextNominalTime } from '../src/rpc/schedule/schedule-spec';
import { cronToCalendar } from '../src/rpc/schedule/cron';
import { testDatabaseUrl } from './support/postgres';
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTimeSkippingEnv } from './support/launcher';
import { bundle, uid, useEnv, waitFor } from './harness';
import * as activities from './activities';

describe('devserver schedules', function () {
  this.timeout(60_000);
  const env = useEnv({}, { timeSkipping: true });
  const tq = uid('sched-tq');

  /** Lets virtual time run for `ms` (what TestService's UnlockTimeSkippingWithSleep does). */
  async function skip(ms: number): Promise<void> {
    const clock = env.server.engine.clock;
    // Locks again inside the timer callback, before the clock can skip any further.
    const done = new Promise<void>((resolve) =>
      clock.after(ms, () => {
        clock.lock();
        resolve();
      }),
    );
    clock.unlock();
    await done;
  }

  async function create(options: Partial<ScheduleOptions> & Pick<ScheduleOptions, 'spec'>): Promise<ScheduleHandle> {
    const scheduleId = options.scheduleId ?? uid('sched');
    return env.client.schedule.create({
      scheduleId,
      action: { type: 'startWorkflow', workflowType: 'returnsInput', args: ['hi'], taskQueue: tq, workflowId: `${scheduleId}-wf` },
      ...options,
    } as ScheduleOptions);
  }

  async function actionsTaken(handle: ScheduleHandle, n: number): Promise<void> {
    await waitFor(async () => (await handle.describe()).info.numActionsTaken >= n, 10_000);
  }

  it('creates, describes, lists and deletes a schedule', async () => {
    const scheduleId = uid('crud');
    const handle = await create({
      scheduleId,
      spec: { intervals: [{ every: '1h', offset: '5m' }], jitter: '10s' },
      policies: { overlap: ScheduleOverlapPolicy.BUFFER_ALL, catchupWindow: '2m' },
      memo: { owner: 'salon' },
      state: { note: 'created by a test' },
    });
    await expect(create({ scheduleId, spec: { intervals: [{ every: '1h' }] } })).to.be.rejectedWith(ScheduleAlreadyRunning);

    const d = await handle.describe();
    expect(d.spec.intervals).to.deep.equal([{ every: 3_600_000, offset: 300_000 }]);
    expect(d.spec.jitter).to.equal(10_000);
    expect(d.action).to.include({ type: 'startWorkflow', workflowType: 'returnsInput', taskQueue: tq, workflowId: `${scheduleId}-wf` });
    expect(d.action.type === 'startWorkflow' && d.action.args).to.deep.equal(['hi']);
    expect(d.policies).to.deep.include({ overlap: ScheduleOverlapPolicy.BUFFER_ALL, catchupWindow: 120_000 });
    expect(d.memo).to.deep.equal({ owner: 'salon' });
    expect(d.state).to.deep.include({ paused: false, note: 'created by a test' });
    expect(d.info.numActionsTaken).to.equal(0);
    expect(d.info.nextActionTimes).to.have.length(10);
    for (const t of d.info.nextActionTimes) {
      // Five minutes past the hour, plus under ten seconds of jitter.
      const intoHour = t.getTime() % 3_600_000;
      expect(intoHour).to.be.within(300_000, 310_000);
    }

    const listed: string[] = [];
    for await (const s of env.client.schedule.list()) listed.push(s.scheduleId);
    expect(listed).to.include(scheduleId);

    await handle.delete();
    await expect(handle.describe()).to.be.rejectedWith(ScheduleNotFoundError);
    const after: string[] = [];
    for await (const s of env.client.schedule.list()) after.push(s.scheduleId);
    expect(after).not.to.include(scheduleId);
  });

  it('fires an interval schedule once per interval as virtual time passes', async () => {
    const scheduleId = uid('every-minute');
    await env.withWorker(tq, async () => {
      const handle = await create({ scheduleId, spec: { intervals: [{ every: '1m' }] } });
      await skip(5 * 60_000);
      await actionsTaken(handle, 5);
      const d = await handle.describe();
      expect(d.info.numActionsTaken).to.equal(5);
      expect(d.info.recentActions).to.have.length(5);
      const first = d.info.recentActions[0];
      const nominal = new Date(first.scheduledAt);
      expect(nominal.getTime() % 60_000).to.equal(0);
      const expectedId = `${scheduleId}-wf-${nominal.toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
      expect(first.action.workflow.workflowId).to.equal(expectedId);
      const wf = env.client.workflow.getHandle(expectedId);
      expect(await wf.result()).to.equal('hi');
      const desc = await wf.describe();
      expect(desc.searchAttributes.TemporalScheduledById).to.deep.equal([scheduleId]);
      expect((desc.searchAttributes.TemporalScheduledStartTime as Date[])[0].getTime()).to.equal(nominal.getTime());
      const listed = await env.client.workflow.list({ query: `TemporalScheduledById = '${scheduleId}'` });
      let count = 0;
      for await (const _ of listed) count++;
      expect(count).to.equal(5);
      await handle.delete();
    });
  });

  it('lists only the schedules a query names (by search attribute, id or paused state)', async () => {
    const group = uid('group');
    const ids = [0, 1, 2, 3].map((i) => `${group}-${i}`);
    for (const [i, scheduleId] of ids.entries()) {
      await create({
        scheduleId,
        spec: { calendars: [{ hour: { start: 2, end: 7, step: 1 } }] },
        searchAttributes: i < 2 ? { CustomKeywordField: [group] } : {},
        state: { paused: i === 3 },
      });
    }
    const listed = async (query: string) => {
      const out: string[] = [];
      for await (const s of env.client.schedule.list({ query })) out.push(s.scheduleId);
      return out.sort();
    };
    expect(await listed(`CustomKeywordField="${group}"`)).to.deep.equal(ids.slice(0, 2));
    expect(await listed(`ScheduleId STARTS_WITH "${group}" AND TemporalSchedulePaused = true`)).to.deep.equal([ids[3]]);
    expect(await listed(`ScheduleId = "${ids[2]}"`)).to.deep.equal([ids[2]]);
    const refused = await env.client.schedule
      .list({ query: 'CustomKeywordField =' })
      [Symbol.asyncIterator]()
      .next()
      .catch((e: unknown) => e);
    expect(String((refused as { cause?: unknown }).cause ?? refused)).to.match(/invalid query/);
    for (const id of ids) await env.client.schedule.getHandle(id).delete();
  });

  it('keeps the registered types of the search attributes of its start-workflow action', async () => {
    const handle = await create({
      spec: { calendars: [{ hour: { start: 2, end: 7, step: 1 } }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'returnsInput',
        args: ['hi'],
        taskQueue: tq,
        searchAttributes: { CustomKeywordField: ['test-value2'] },
        typedSearchAttributes: new TypedSearchAttributes([{ key: defineSearchAttributeKey('CustomIntField', SearchAttributeType.INT), value: 42 }]),
      },
    });
    const d = await handle.describe();
    expect(d.action.type).to.equal('startWorkflow');
    if (d.action.type !== 'startWorkflow') return;
    expect(d.action.searchAttributes).to.deep.equal({ CustomKeywordField: ['test-value2'], CustomIntField: [42] });
    expect(d.action.typedSearchAttributes).to.deep.equal(
      new TypedSearchAttributes([
        { key: defineSearchAttributeKey('CustomIntField', SearchAttributeType.INT), value: 42 },
        { key: defineSearchAttributeKey('CustomKeywordField', SearchAttributeType.KEYWORD), value: 'test-value2' },
      ]),
    );
    await handle.delete();
  });

  it('computes calendar specs and cron strings in the spec time zone', async () => {
    const tokyo = await create({ spec: { calendars: [{ hour: 9, minute: 30 }], timezone: 'Asia/Tokyo' } });
    const times = (await tokyo.describe()).info.nextActionTimes;
    expect(times).to.have.length(10);
    for (const t of times) {
      expect(moment.tz(t, 'Asia/Tokyo').format('HH:mm:ss')).to.equal('09:30:00');
      expect(t.getUTCHours()).to.equal(0);
    }
    expect(times[1].getTime() - times[0].getTime()).to.equal(24 * 3_600_000);

    // Oslo changes its UTC offset with daylight saving time; noon stays noon.
    const oslo = await create({ spec: { cronExpressions: ['0 12 * * MON'], timezone: 'Europe/Oslo' } });
    const d = await oslo.describe();
    expect(d.spec.calendars).to.have.length(1);
    expect(d.spec.calendars![0]).to.deep.include({ hour: [{ start: 12, end: 12, step: 1 }], dayOfWeek: [{ start: 'MONDAY', end: 'MONDAY', step: 1 }] });
    for (const t of d.info.nextActionTimes) {
      const local = moment.tz(t, 'Europe/Oslo');
      expect([local.day(), local.format('HH:mm')]).to.deep.equal([1, '12:00']);
    }
    const matching = await env.connection.workflowService.listScheduleMatchingTimes({
      namespace: 'default',
      scheduleId: oslo.scheduleId,
      startTime: { seconds: Long.fromNumber(Date.parse('2026-03-01T00:00:00Z') / 1000) },
      endTime: { seconds: Long.fromNumber(Date.parse('2026-04-30T00:00:00Z') / 1000) },
    });
    const hours = matching.startTime!.map((ts) => new Date(Number(ts.seconds) * 1000).getUTCHours());
    // Mondays in March and April 2026: 11:00 UTC in winter (CET), 10:00 UTC from 29 March (CEST).
    expect(hours).to.deep.equal([11, 11, 11, 11, 10, 10, 10, 10, 10]);
    await tokyo.delete();
    await oslo.delete();
  });

  it('pauses with a note and resumes on unpause', async () => {
    await env.withWorker(tq, async () => {
      const handle = await create({ spec: { intervals: [{ every: '1m' }] }, state: { paused: true, note: 'not yet' } });
      let d = await handle.describe();
      expect(d.state).to.deep.include({ paused: true, note: 'not yet' });
      expect(d.info.nextActionTimes).to.deep.equal([]);
      await skip(3 * 60_000);
      expect((await handle.describe()).info.numActionsTaken).to.equal(0);
      await handle.unpause('go');
      await skip(2 * 60_000);
      await actionsTaken(handle, 2);
      d = await handle.describe();
      expect(d.state).to.deep.include({ paused: false, note: 'go' });
      expect(d.info.numActionsTaken).to.equal(2);
      await handle.pause();
      expect((await handle.describe()).state.paused).to.equal(true);
      await handle.delete();
    });
  });

  it('triggers an action immediately', async () => {
    await env.withWorker(tq, async () => {
      const handle = await create({ spec: { intervals: [{ every: '365d' }] } });
      await handle.trigger();
      await actionsTaken(handle, 1);
      const [action] = (await handle.describe()).info.recentActions;
      expect(await env.client.workflow.getHandle(action.action.workflow.workflowId).result()).to.equal('hi');
      await handle.delete();
    });
  });

  it('backfills the nominal times of a past range', async () => {
    await env.withWorker(tq, async () => {
      const scheduleId = uid('backfill');
      const handle = await create({ scheduleId, spec: { intervals: [{ every: '1m' }] } });
      const base = Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;
      await handle.backfill({ start: new Date(base), end: new Date(base + 4 * 60_000), overlap: ScheduleOverlapPolicy.ALLOW_ALL });
      await actionsTaken(handle, 5);
      const ids = (await handle.describe()).info.recentActions.map((a) => a.action.workflow.workflowId).sort();
      const expected = [0, 1, 2, 3, 4].map((i) => `${scheduleId}-wf-${new Date(base + i * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z')}`);
      expect(ids).to.deep.equal(expected);
      await handle.delete();
    });
  });

  it('SKIP skips actions while the workflow runs, BUFFER_ONE keeps one for afterwards, BUFFER_ALL keeps all', async () => {
    await env.withWorker(tq, async () => {
      const action = (scheduleId: string) => ({ type: 'startWorkflow' as const, workflowType: 'waitsForever', taskQueue: tq, workflowId: `${scheduleId}-wf` });
      // Start 5 s after a minute, so the 3 min skipped below hold exactly three interval boundaries
      // whatever the wall clock said when the test began.
      await skip(60_000 - (env.server.engine.clock.now() % 60_000) + 5_000);
      const skipId = uid('skip');
      const bufferId = uid('buffer');
      const allId = uid('buffer-all');
      const skipping = await create({
        scheduleId: skipId,
        spec: { intervals: [{ every: '1m' }] },
        action: action(skipId),
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
      });
      const buffering = await create({
        scheduleId: bufferId,
        spec: { intervals: [{ every: '1m' }] },
        action: action(bufferId),
        policies: { overlap: ScheduleOverlapPolicy.BUFFER_ONE },
      });
      const bufferingAll = await create({
        scheduleId: allId,
        spec: { intervals: [{ every: '1m' }] },
        action: action(allId),
        policies: { overlap: ScheduleOverlapPolicy.BUFFER_ALL },
      });
      await skip(3 * 60_000 + 1000);
      await actionsTaken(skipping, 1);
      const all = await bufferingAll.describe();
      expect(all.info.numActionsTaken).to.equal(1);
      expect(Number(all.raw.info?.bufferSize)).to.equal(2);
      expect(all.info.numActionsSkippedOverlap).to.equal(0);
      const s = await skipping.describe();
      expect(s.info.numActionsTaken).to.equal(1);
      expect(s.info.numActionsSkippedOverlap).to.equal(2);
      expect(s.info.runningActions).to.have.length(1);

      const b = await buffering.describe();
      expect(b.info.numActionsTaken).to.equal(1);
      expect(Number(b.raw.info?.bufferSize)).to.equal(1);
      expect(b.info.numActionsSkippedOverlap).to.equal(1);
      // The running one ends: the buffered action starts.
      await env.client.workflow.getHandle(b.info.runningActions[0].workflow.workflowId).terminate('done');
      await actionsTaken(buffering, 2);
      const after = await buffering.describe();
      expect(Number(after.raw.info?.bufferSize ?? 0)).to.equal(0);
      expect(after.info.runningActions).to.have.length(1);
      expect(after.info.runningActions[0].workflow.workflowId).not.to.equal(b.info.runningActions[0].workflow.workflowId);
      for (const h of [skipping, buffering, bufferingAll]) {
        for (const r of (await h.describe()).info.runningActions) await env.client.workflow.getHandle(r.workflow.workflowId).terminate('cleanup');
        await h.delete();
      }
    });
  });

  it('TERMINATE_OTHER replaces the running workflow; limited actions run out', async () => {
    await env.withWorker(tq, async () => {
      const scheduleId = uid('terminate');
      const handle = await create({
        scheduleId,
        spec: { intervals: [{ every: '1m' }] },
        action: { type: 'startWorkflow', workflowType: 'waitsForever', taskQueue: tq, workflowId: `${scheduleId}-wf` },
        policies: { overlap: ScheduleOverlapPolicy.TERMINATE_OTHER },
        state: { remainingActions: 2 },
      });
      await skip(5 * 60_000);
      await actionsTaken(handle, 2);
      const d = await handle.describe();
      expect(d.info.numActionsTaken).to.equal(2);
      expect(d.state.remainingActions).to.equal(0);
      expect(d.info.nextActionTimes).to.deep.equal([]);
      const [first, second] = d.info.recentActions.map((a) => a.action.workflow.workflowId);
      expect((await env.client.workflow.getHandle(first).describe()).status.name).to.equal('TERMINATED');
      expect((await env.client.workflow.getHandle(second).describe()).status.name).to.equal('RUNNING');
      await env.client.workflow.getHandle(second).terminate('cleanup');
      await handle.delete();
    });
  });

  it('CANCEL_OTHER cancels the running workflow and starts the next action when it closes', async () => {
    await env.withWorker(tq, async () => {
      const scheduleId = uid('cancel');
      const handle = await create({
        scheduleId,
        spec: { intervals: [{ every: '1m' }] },
        action: { type: 'startWorkflow', workflowType: 'waitsForever', taskQueue: tq, workflowId: `${scheduleId}-wf` },
        policies: { overlap: ScheduleOverlapPolicy.CANCEL_OTHER },
      });
      await skip(2 * 60_000 + 1000);
      await actionsTaken(handle, 2);
      const [first, second] = (await handle.describe()).info.recentActions.map((a) => a.action.workflow.workflowId);
      await waitFor(async () => (await env.client.workflow.getHandle(first).describe()).status.name === 'CANCELLED');
      expect((await env.client.workflow.getHandle(second).describe()).status.name).to.equal('RUNNING');
      await env.client.workflow.getHandle(second).terminate('cleanup');
      await handle.delete();
    });
  });

  it('updates a schedule', async () => {
    const handle = await create({ spec: { intervals: [{ every: '1h' }] } });
    await handle.update((prev) => ({ ...prev, spec: { intervals: [{ every: '2h' }] }, state: { ...prev.state, note: 'slower' } }));
    const d = await handle.describe();
    expect(d.spec.intervals?.map((i) => i.every)).to.deep.equal([7_200_000]);
    expect(d.state.note).to.equal('slower');
    expect(d.info.lastUpdatedAt).to.be.instanceOf(Date);
    await handle.delete();
  });
});

describe('devserver schedules under TestWorkflowEnvironment.createTimeSkipping', function () {
  this.timeout(60_000);
  let env: TestWorkflowEnvironment;
  before(async function () {
    this.timeout(60_000);
    await bundle();
    env = await createTimeSkippingEnv();
  });
  after(async () => {
    await env?.teardown();
  });

  it('env.sleep() fires a daily calendar schedule once per virtual day', async () => {
    const tq = uid('tq');
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue: tq, workflowBundle: await bundle(), activities });
    await worker.runUntil(async () => {
      const scheduleId = uid('daily');
      const handle = await env.client.schedule.create({
        scheduleId,
        spec: { calendars: [{ hour: 6 }], timezone: 'Europe/Oslo' },
        action: { type: 'startWorkflow', workflowType: 'returnsInput', args: ['reconcile'], taskQueue: tq, workflowId: scheduleId },
      });
      await env.sleep('3 days');
      await waitFor(async () => (await handle.describe()).info.numActionsTaken >= 3);
      const d = await handle.describe();
      expect(d.info.numActionsTaken).to.equal(3);
      for (const a of d.info.recentActions) {
        expect(moment.tz(a.scheduledAt, 'Europe/Oslo').format('HH:mm')).to.equal('06:00');
        expect(await env.client.workflow.getHandle(a.action.workflow.workflowId).result()).to.equal('reconcile');
      }
      await handle.delete();
    });
  });
});

describe('devserver schedule cron strings', () => {
  const times = (cron: string, from: string, n = 3) => {
    const spec = compileSpec({ cronString: [cron] });
    const out: string[] = [];
    let t = Date.parse(from);
    for (let i = 0; i < n; i++) {
      const next = nextNominalTime(spec, t);
      if (next === undefined) break;
      out.push(new Date(next).toISOString());
      t = next;
    }
    return out;
  };

  it('compiles fields, names, steps, shorthands, seconds, years and CRON_TZ', () => {
    expect(times('*/20 * * * *', '2026-03-07T00:00:00Z')).to.deep.equal(['2026-03-07T00:20:00.000Z', '2026-03-07T00:40:00.000Z', '2026-03-07T01:00:00.000Z']);
    // 2026-03-07 is a Saturday; 7 is Sunday too.
    expect(times('0 9 * * MON-FRI', '2026-03-07T00:00:00Z')).to.deep.equal([
      '2026-03-09T09:00:00.000Z',
      '2026-03-10T09:00:00.000Z',
      '2026-03-11T09:00:00.000Z',
    ]);
    expect(times('0 0 * * 5-7', '2026-03-07T00:00:00Z')).to.deep.equal(['2026-03-08T00:00:00.000Z', '2026-03-13T00:00:00.000Z', '2026-03-14T00:00:00.000Z']);
    expect(cronToCalendar('0 0 * * 7').calendar.dayOfWeek).to.deep.equal([{ start: 0, end: 0, step: 1 }]);
    expect(times('@daily', '2026-03-07T10:00:00Z', 1)).to.deep.equal(['2026-03-08T00:00:00.000Z']);
    expect(times('30 0 0 1 JAN * 2027', '2026-03-07T00:00:00Z', 2)).to.deep.equal(['2027-01-01T00:00:30.000Z']);
    expect(times('CRON_TZ=Asia/Tokyo 0 9 * * *', '2026-03-07T00:00:00Z', 1)).to.deep.equal(['2026-03-08T00:00:00.000Z']);
    expect(() => compileSpec({ cronString: ['61 * * * *'] })).to.throw(/Invalid schedule spec/);
  });
});

describe('devserver schedule catch-up window', () => {
  it('acts on missed times inside the catch-up window and counts the older ones as missed', () => {
    let now = Date.UTC(2026, 0, 1);
    const timers: { due: number; fn: () => void }[] = [];
    const clock = {
      now: () => now,
      at: (due: number, fn: () => void) => {
        timers.push({ due, fn });
        return { cancel: () => undefined };
      },
    };
    const started: string[] = [];
    const actions = new ScheduleActions({
      clock,
      registry: { currentRun: () => undefined },
      starter: {
        start: (_ns, req) => {
          started.push(req.workflowId ?? '');
          return { runId: `run-${started.length}`, started: true };
        },
      },
      closer: { terminate: () => undefined },
      signals: { requestCancel: () => undefined },
      log: () => undefined,
    });
    const schedules = new Schedules({ clock, actions, searchAttributes: { typed: (sa) => sa } });
    schedules.create(
      'default',
      'late',
      {
        spec: { interval: [{ interval: { seconds: 60 } }] },
        action: { startWorkflow: { workflowId: 'w', workflowType: { name: 'x' }, taskQueue: { name: 'q' } } },
        policies: { catchupWindow: { seconds: 150 } },
      },
      undefined,
      undefined,
    );
    expect(new Date(timers[0].due).toISOString()).to.equal('2026-01-01T00:01:00.000Z');
    // The timer fires ten minutes late (the server was down).
    now += 10 * 60_000;
    timers[0].fn();
    expect(started).to.deep.equal(['w-2026-01-01T00:08:00Z', 'w-2026-01-01T00:09:00Z', 'w-2026-01-01T00:10:00Z']);
    const s = schedules.get('default', 'late');
    expect(s.missedCatchupWindow).to.equal(7);
    expect(new Date(timers[1].due).toISOString()).to.equal('2026-01-01T00:11:00.000Z');
  });
});

describe('devserver schedules with the Postgres store', function () {
  this.timeout(90_000);
  let databaseUrl: string;
  const storeId = uid('sched-store');

  before(async function () {
    this.timeout(120_000);
    databaseUrl = await testDatabaseUrl();
  });

  async function withServer<T>(fn: (client: Client) => Promise<T>): Promise<T> {
    const server = await startDevServer({ port: 0, databaseUrl, storeId });
    const connection = await Connection.connect({ address: server.address });
    try {
      return await fn(new Client({ connection }));
    } finally {
      await connection.close();
      await server.shutdown();
    }
  }

  it('keeps schedules, their counters and their timers across a restart, and deletions too', async () => {
    const firing = uid('firing');
    const paused = uid('paused');
    const action = (id: string) => ({
      type: 'startWorkflow' as const,
      workflowType: 'returnsInput',
      args: ['x'],
      taskQueue: uid('nobody'),
      workflowId: `${id}-wf`,
    });
    let before = 0;
    await withServer(async (client) => {
      const h = await client.schedule.create({
        scheduleId: firing,
        spec: { intervals: [{ every: '1s' }] },
        action: action(firing),
        policies: { overlap: ScheduleOverlapPolicy.ALLOW_ALL },
      });
      await client.schedule.create({
        scheduleId: paused,
        spec: { calendars: [{ hour: 6 }] },
        action: action(paused),
        state: { paused: true, note: 'kept' },
        memo: { a: 1 },
      });
      await waitFor(async () => (await h.describe()).info.numActionsTaken >= 1, 10_000);
      before = (await h.describe()).info.numActionsTaken;
    });
    await withServer(async (client) => {
      const h = client.schedule.getHandle(firing);
      const d = await h.describe();
      expect(d.info.numActionsTaken).to.be.at.least(before);
      expect(d.info.recentActions.length).to.be.at.least(before);
      await waitFor(async () => (await h.describe()).info.numActionsTaken > d.info.numActionsTaken, 10_000);
      const p = await client.schedule.getHandle(paused).describe();
      expect(p.state).to.deep.include({ paused: true, note: 'kept' });
      expect(p.memo).to.deep.equal({ a: 1 });
      expect(p.spec.calendars?.[0].hour).to.deep.equal([{ start: 6, end: 6, step: 1 }]);
      await h.delete();
    });
    await withServer(async (client) => {
      await expect(client.schedule.getHandle(firing).describe()).to.be.rejectedWith(ScheduleNotFoundError);
      await client.schedule.getHandle(paused).delete();
    });
  });
});
