// Standing appointments and rebooking nudges in the production topology (docs/rules/series.md):
// bin/migrate, bin/api and bin/worker as separate processes (NODE_ENV=production, configured by
// environment only), the production Temporal server (go.temporal.io/server) as its own process
// keeping its state in Postgres (so it can be killed and started again), SMS through a Sveve stand-in that records every message. One start
// serves the cases, in order:
//   1. series book their occurrences on the worker process as the booking window widens, while the
//      worker is killed -9 mid-way and started again: every occurrence booked exactly once, each
//      booking confirmed once (twice at most when the kill fell between the gateway taking its SMS
//      and the row's stamp);
//   2. the Temporal server killed -9 and started again: the series' workflows (waiting on their
//      timers) carry on from its database, book what the window lets in, exactly once;
//   3. a rebooking nudge due in seconds, with the worker killed and the Temporal server restarted
//      around its due time: exactly one nudge.
import crypto from 'node:crypto';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { Client, Connection } from '@temporalio/client';
import { suitePostgres } from '../support/postgres';
import { run, type Proc } from '../support/processes';
import { startTemporalFrontend } from '../support/temporal';
import { answers200, eventually } from '../support/eventually';
import { startSveveStandIn, type SveveStandIn } from '../support/sveve-stand-in';
import { freePort } from '../../devstack/postgres';
import { startEmbeddedS3, type EmbeddedS3 } from '../../devstack/s3-for-dev';
import { seedDemoSalon, DEMO_OWNER_EMAIL, DEMO_PASSWORD, DEMO_SLUG } from '../../domain/demo/demo-salon';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Processes here die and come back: a probe that fails (refused connection) is "not yet". */
function failuresAsNotYet<T>(probe: () => Promise<T | undefined>): () => Promise<T | undefined> {
  return () => probe().catch(() => undefined);
}

describe('production topology: standing appointments and nudges through a worker crash and a Temporal server restart', function () {
  this.timeout(180_000);

  let adminDb: Knex;
  let db: Knex;
  let dbName: string;
  let sveve: SveveStandIn;
  let s3: EmbeddedS3 | undefined;
  let temporal: Proc;
  let temporalPort: number;
  let postgresUrl: string;
  let api: Proc;
  let worker: Proc;
  let apiBase: string;
  let workerHealth: number;
  let env: NodeJS.ProcessEnv;
  let owner: Record<string, string>;
  let tenantId: string;

  // its databases are `<dbName>_temporal` and `<dbName>_temporal_visibility`: started again on them, it has its runs back
  const startTemporal = () => startTemporalFrontend({ port: temporalPort, postgresUrl, databasePrefix: `${dbName}_temporal` });
  const startWorker = () => run('bin/worker.js', { ...env, WORKER_HEALTH_PORT: String(workerHealth) });
  const workerUp = (p: Proc) =>
    eventually(
      failuresAsNotYet(async () => ((await fetch(`http://127.0.0.1:${workerHealth}/`)).status === 200 ? true : undefined)),
      () => `the worker (${p.output})`,
      60_000,
    );
  const killed = async (p: Proc) => {
    p.child.kill('SIGKILL');
    await p.exited;
  };
  const call = async (method: string, p: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await fetch(apiBase + p, {
      method,
      headers: { 'content-type': 'application/json', ...owner },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json().catch(() => ({})) };
  };
  const smsTo = (phone: string) => sveve.posts.filter((form) => form.get('to')?.replace(/\D/g, '').endsWith(phone.replace(/\D/g, '').slice(-8)));
  const withClient = async <T>(fn: (client: Client) => Promise<T>): Promise<T> => {
    const connection = await Connection.connect({ address: `127.0.0.1:${temporalPort}` });
    try {
      return await fn(new Client({ connection }));
    } finally {
      await connection.close();
    }
  };

  before(async function () {
    this.timeout(180_000);
    const { url: base, dir } = await suitePostgres();
    dbName = `series_faults_${process.pid}_${Date.now()}`;
    adminDb = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
    await adminDb.raw(`CREATE DATABASE "${dbName}"`);
    const databaseUrl = base.replace(/\/[^/]+$/, `/${dbName}`);
    postgresUrl = base;
    sveve = await startSveveStandIn({ user: 'salon', password: 'sveve-secret' });
    s3 = await startEmbeddedS3({ dataDir: `${dir}/series-faults-${process.pid}`, bucket: 'salon-series-faults' });
    temporalPort = await freePort();
    temporal = await startTemporal();
    const apiPort = await freePort();
    apiBase = `http://127.0.0.1:${apiPort}/api`;
    workerHealth = await freePort();
    env = {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
      TEMPORAL_TASK_QUEUE: 'salon-series-faults',
      JWT_SECRET: 'series-faults-jwt-secret-0123456789abcdef',
      ADMIN_EMAIL: 'admin@series-faults.test',
      ADMIN_PASSWORD: 'series-faults-admin-password',
      CREDENTIAL_KEYS: `1:${Buffer.alloc(32, 9).toString('base64')}`,
      PASSWORD_HASH_ROUNDS: '10',
      MAIL_OUTBOX_DIR: `${dir}/series-faults-mail-${process.pid}`,
      SVEVE_URL: sveve.url,
      SVEVE_USER: 'salon',
      SVEVE_PASSWORD: 'sveve-secret',
      RATE_LIMIT_GLOBAL: '1000',
      RATE_LIMIT_BOOKING_CREATE: '1000',
      LOG_LEVEL: 'warn',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: 'salon-series-faults',
      IMAGE_PROXY_SECRET: 'series-faults-image-proxy-secret-0123456789',
      PUBLIC_BASE_URL: 'https://booking.series-faults.test',
    };
    const migrate = run('bin/migrate.js', env);
    expect(await migrate.exited, migrate.output).to.equal(0);
    db = knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 2 }, ...knexSnakeCaseMappers() });
    await seedDemoSalon(db, { passwordHashRounds: 4 });
    tenantId = (await db('tenants').where({ slug: DEMO_SLUG }).first()).id;
    api = run('bin/api.js', { ...env, PORT: String(apiPort) });
    worker = startWorker();
    await eventually(
      () => answers200(`${apiBase}/health`),
      () => `the api (${api.output})`,
      60_000,
    );
    await workerUp(worker);
    const login = (await (
      await fetch(`${apiBase}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD }),
      })
    ).json()) as Json;
    owner = { authorization: `Bearer ${login.data.accessToken}` };
  });

  after(async function () {
    this.timeout(30_000);
    for (const p of [api, worker, temporal]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
    sveve?.close();
    await s3?.stop();
    await db?.destroy();
    for (const name of [dbName, `${dbName}_temporal`, `${dbName}_temporal_visibility`])
      await adminDb?.raw(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
    await adminDb?.destroy();
  });

  /** `count` staff bookings, each with a customer of its own, on the salon's next open weekday after tomorrow. */
  async function bookings(count: number): Promise<{ id: string; phone: string }[]> {
    const services = (await call('GET', `/public/tenants/${DEMO_SLUG}/services`)).body.data;
    const serviceId: string = services[0].services[0].id;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const made: { id: string; phone: string }[] = [];
    let date: string = (await call('POST', `/public/tenants/${DEMO_SLUG}/availability/next-available-date`, { items: [{ serviceId }], fromDate: tomorrow }))
      .body.data.date;
    while (made.length < count) {
      const slots = (await call('GET', `/public/tenants/${DEMO_SLUG}/availability?serviceId=${serviceId}&date=${date}`)).body.data.slots;
      if (!slots.length) {
        date = (await call('POST', `/public/tenants/${DEMO_SLUG}/availability/next-available-date`, { items: [{ serviceId }], fromDate: date })).body.data.date;
        continue;
      }
      const phone = `+479${crypto.randomInt(1000000, 9999999)}`;
      const res = await call('POST', '/bookings', {
        startTime: slots[0].start,
        items: [{ serviceId, resourceId: slots[0].items[0].resourceId }],
        customer: { name: `Fast ${made.length}`, phone },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      made.push({ id: res.body.data.id, phone });
    }
    return made;
  }

  const occurrenceRows = (seriesIds: string[]) => db('booking_series_occurrences').whereIn('seriesId', seriesIds);

  it('when the worker is killed -9 while series book their occurrences, and then the Temporal server, then every occurrence is booked exactly once and confirmed once', async () => {
    expect((await call('PATCH', `/tenants/${tenantId}`, { settings: { maxBookingDaysInAdvance: 5 } })).status).to.equal(200);
    const made = await bookings(6);
    const series: string[] = [];
    for (const b of made) {
      const res = await call('POST', '/series', { bookingId: b.id, intervalWeeks: 1, occurrenceCount: 8 });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      series.push(res.body.data.id);
    }
    // each series' workflow has run its first step: only the first booking is inside a 5-day window
    await withClient(async (client) => {
      for (const id of series)
        await eventually(
          async () => ((await client.workflow.getHandle(`series:${id}`).describe()).historyLength > 5 ? true : undefined),
          `series:${id} waiting on its timer`,
        );
    });
    expect(await occurrenceRows(series)).to.have.length(6);

    // the window widens to 30 days: 4 more occurrences each; the worker dies while it books them
    expect((await call('PATCH', `/tenants/${tenantId}`, { settings: { maxBookingDaysInAdvance: 30 } })).status).to.equal(200);
    await eventually(async () => ((await occurrenceRows(series)).length > 6 ? true : undefined), 'the first occurrences booked', 30_000);
    await killed(worker);
    const atCrash = (await occurrenceRows(series)).length;
    // the confirmations the killed worker had claimed and not stamped sent: the gateway may have taken
    // them before the kill, and the retry sends them (again) (docs/rules/messages.md#delivery-schedule)
    const unstampedAtCrash: string[] = (
      await db('booking_notifications as n')
        .join('bookings as b', 'b.id', 'n.bookingId')
        .join('customers as c', 'c.id', 'b.customerId')
        .where({ 'n.tenantId': tenantId, 'n.channel': 'SMS', 'n.kind': 'CONFIRMED' })
        .whereNull('n.sentAt')
        .select('c.phone')
    ).map((r: { phone: string }) => r.phone);
    worker = startWorker();
    await workerUp(worker);
    await eventually(
      async () => ((await occurrenceRows(series)).length === 6 * 5 ? true : undefined),
      () => `every occurrence inside the window booked (${worker.output})`,
      90_000,
    );

    // the Temporal server dies and comes back on its database; the window widens again
    await killed(temporal);
    temporal = await startTemporal();
    await eventually(
      failuresAsNotYet(() => withClient(async (c) => (await c.workflow.getHandle(`series:${series[0]}`).describe()).status.name)),
      'the Temporal server back with the series',
      60_000,
    );
    await workerUp(worker);
    await eventually(
      async () => ((await call('PATCH', `/tenants/${tenantId}`, { settings: { maxBookingDaysInAdvance: 60 } })).status === 200 ? true : undefined),
      'the window widened after the restart',
      30_000,
    );
    await eventually(
      async () => ((await occurrenceRows(series)).length === 6 * 8 ? true : undefined),
      () => `every occurrence booked after the restart (${worker.output})`,
      60_000,
    );
    await withClient(async (client) => {
      for (const id of series) await client.workflow.getHandle(`series:${id}`).result();
    });

    const rows = await occurrenceRows(series);
    expect(rows.filter((r) => r.status === 'BOOKED')).to.have.length(6 * 8);
    const booked = await db('bookings')
      .where({ tenantId })
      .whereIn(
        'id',
        rows.filter((r) => r.occurrenceIndex > 0).map((r) => r.bookingId),
      );
    expect(booked).to.have.length(6 * 7);
    // no two bookings of one customer at one time, and each confirmed by SMS once (see unstampedAtCrash)
    const keys = booked.map((b) => `${b.customerId}|${new Date(b.startTime).toISOString()}`);
    expect(new Set(keys).size).to.equal(keys.length);
    for (const b of made) {
      await eventually(
        async () => (smsTo(b.phone).filter((f) => /bekreftet/i.test(f.get('msg') ?? '')).length >= 8 ? true : undefined),
        `8 confirmations to ${b.phone}`,
        30_000,
      );
    }
    // the gateway takes the SMS before the activity stamps its row sent: wait on the rows, then count them
    const notifications = await eventually(
      async () => {
        const rows = await db('booking_notifications')
          .whereIn(
            'bookingId',
            booked.map((b) => b.id),
          )
          .where({ channel: 'SMS', kind: 'CONFIRMED' });
        return rows.length === 6 * 7 && rows.every((n) => n.sentAt) ? rows : undefined;
      },
      'every confirmation row stamped sent',
      30_000,
    );
    expect(notifications).to.have.length(6 * 7);
    for (const b of made) {
      const confirmations = smsTo(b.phone).filter((f) => /bekreftet/i.test(f.get('msg') ?? '')).length;
      const inFlight = unstampedAtCrash.filter((phone) => phone === b.phone).length;
      expect(confirmations, `${b.phone}: ${inFlight} confirmation(s) in flight at the kill`).to.be.within(8, 8 + inFlight);
    }
    expect(atCrash).to.be.below(6 * 8);
  });

  it('when a nudge falls due while the worker is down and the Temporal server restarts then exactly one nudge goes out', async () => {
    const [visit] = await bookings(1);
    const completed = await call('POST', `/bookings/${visit.id}/status/COMPLETED`, { force: true, reason: 'the visit took place' });
    expect(completed.status, JSON.stringify(completed.body)).to.equal(200);
    const booking = await db('bookings').where({ id: visit.id }).first();
    await db('customers').where({ id: booking.customerId }).update({ acceptsRebookingNudges: true });
    // The booking's workflow records the visit; the demo services have no typical interval, so the row waits for
    // nothing (NO_INTERVAL). Weeks cannot pass here: the row is set as a visit five weeks ago with a five-week
    // interval leaves it, due in seconds, and its workflow told the way the worker tells it.
    const nudge = await eventually(async () => db('rebooking_nudges').where({ customerId: booking.customerId }).first(), 'the nudge row of the visit');
    expect(nudge.status).to.equal('NO_INTERVAL');
    const due = new Date(Date.now() + 8_000);
    await db('rebooking_nudges')
      .where({ id: nudge.id })
      .update({ status: 'WAITING', visitedAt: new Date(due.getTime() - 5 * 7 * 86_400_000), dueAt: due, version: nudge.version + 1 });
    await withClient((client) =>
      client.workflow.signalWithStart('rebookingNudgeWorkflow', {
        workflowId: `rebooking-nudge:${nudge.id}`,
        taskQueue: 'salon-series-faults',
        args: [{ nudgeId: nudge.id, tenantId }],
        signal: 'rebookingNudgeEvent',
        signalArgs: [{ type: 'RebookingVisitRecorded', entityVersion: nudge.version + 1 }],
      }),
    );
    await withClient(async (client) =>
      eventually(
        async () => ((await client.workflow.getHandle(`rebooking-nudge:${nudge.id}`).describe()).historyLength > 5 ? true : undefined),
        'the nudge waiting on its timer',
      ),
    );
    await killed(worker);
    await killed(temporal);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due.getTime() - Date.now())));
    temporal = await startTemporal();
    await eventually(
      failuresAsNotYet(() => withClient(async (c) => (await c.workflow.getHandle(`rebooking-nudge:${nudge.id}`).describe()).status.name)),
      'the Temporal server back',
      60_000,
    );
    worker = startWorker();
    await workerUp(worker);
    await withClient((client) => client.workflow.getHandle(`rebooking-nudge:${nudge.id}`).result());
    expect((await db('rebooking_nudges').where({ id: nudge.id }).first()).status).to.equal('SENT');
    const sent = smsTo(visit.phone).filter((f) => /Tid for neste|uker siden/.test(f.get('msg') ?? ''));
    expect(sent).to.have.length(1);
    expect(sent[0].get('msg')).to.contain('Det er 5 uker siden').and.contain(`https://booking.series-faults.test/${DEMO_SLUG}?services=`);
    expect(await db('rebooking_nudge_notifications').where({ nudgeId: nudge.id })).to.have.length(2);
  });
});
