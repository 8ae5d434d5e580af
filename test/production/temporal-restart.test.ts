// The Temporal server itself killed (-9) in the middle of a burst of bookings and started again on
// its persistence (the production engine, the Go-built server, on its Postgres databases):
// bin/api and bin/worker as separate processes (NODE_ENV=production, configured by environment only),
// the confirmations going out over SMTP. Every booking a client got 201 for keeps its workflow,
// no booking exists without one, every confirmation goes out exactly once, and nothing is left stuck.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { Client, Connection } from '@temporalio/client';
import { suitePostgres } from '../support/postgres';
import { run, type Proc } from '../support/processes';
import { eventually } from '../support/eventually';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { startTemporalFrontend } from '../support/temporal';
import { freePort } from '../../devstack/postgres';
import { startEmbeddedS3, type EmbeddedS3 } from '../../devstack/s3-for-dev';
import { seedDemoSalon, DEMO_OWNER_EMAIL, DEMO_PASSWORD, DEMO_SLUG } from '../../domain/demo/demo-salon';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Processes here die and come back: a probe that fails (refused connection) is "not yet". */
function failuresAsNotYet<T>(probe: () => Promise<T | undefined>): () => Promise<T | undefined> {
  return () => probe().catch(() => undefined);
}

const BURST = 40;
/** the server is killed once this many bookings of the burst were answered */
const KILL_AFTER = 10;

describe('the Temporal server killed (-9) mid-burst and restarted on its persistence', function () {
  this.timeout(240_000);
  const runId = crypto.randomBytes(3).toString('hex');
  let dir: string;
  let adminDb: Knex;
  let db: Knex;
  let dbNames: string[] = [];
  let smtp: SmtpSink;
  let s3: EmbeddedS3;
  let temporal: Proc;
  let startTemporal: () => Promise<Proc>;
  let temporalAddress: string;
  let api: Proc;
  let worker: Proc;
  let base: string;
  let owner: Record<string, string>;
  let slot: { start: string; serviceId: string; resourceId: string };

  const post = async (p: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + p, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Json };
  };
  const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));

  before(async function () {
    this.timeout(180_000);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-temporal-restart-'));
    const baseUrl = (await suitePostgres()).url;
    adminDb = knexFactory({ client: 'pg', connection: baseUrl, pool: { min: 0, max: 1 } });
    const appDb = `restart_${process.pid}_${runId}`;
    const temporalDb = `restart_temporal_${process.pid}_${runId}`;
    // the Go-built server's two databases are made by its schema tool
    dbNames = [appDb, temporalDb, `${temporalDb}_visibility`];
    await adminDb.raw(`CREATE DATABASE "${appDb}"`);
    const databaseUrl = baseUrl.replace(/\/[^/]+$/, `/${appDb}`);

    smtp = await startSmtpSink();
    s3 = await startEmbeddedS3({ dataDir: dir, bucket: 'salon-restart' });
    const temporalPort = await freePort();
    temporalAddress = `127.0.0.1:${temporalPort}`;
    // the server keeps its runs in its databases: started again on them, it has them back
    startTemporal = () => startTemporalFrontend({ port: temporalPort, postgresUrl: baseUrl, databasePrefix: temporalDb });
    temporal = await startTemporal();
    const env: NodeJS.ProcessEnv = {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_TASK_QUEUE: 'salon-restart',
      JWT_SECRET: 'restart-test-jwt-secret-0123456789abcdef',
      ADMIN_EMAIL: 'admin@restart.test',
      ADMIN_PASSWORD: 'restart-admin-password',
      CREDENTIAL_KEYS: `1:${Buffer.alloc(32, 3).toString('base64')}`,
      PASSWORD_HASH_ROUNDS: '10',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Salong Nordlys <booking@restart.test>',
      SMS_OUTBOX_DIR: path.join(dir, 'sms'),
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: 'salon-restart',
      IMAGE_PROXY_SECRET: 'restart-image-proxy-secret-0123456789',
      RATE_LIMIT_GLOBAL: '100000',
      RATE_LIMIT_AUTH: '100000',
      RATE_LIMIT_BOOKING_CREATE: '100000',
      LOG_LEVEL: 'fatal',
      SHUTDOWN_TIMEOUT_MS: '2000',
    };
    const migrate = run('bin/migrate.js', env);
    expect(await migrate.exited, migrate.output).to.equal(0);
    db = knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 2 }, ...knexSnakeCaseMappers() });
    await seedDemoSalon(db, { passwordHashRounds: 4 });
    // the demo salon double-books, so the whole burst shares one slot
    const tenant = await db('tenants').where({ slug: DEMO_SLUG }).first();
    await db('tenants')
      .where({ id: tenant.id })
      .update({ settings: JSON.stringify({ ...tenant.settings, allowDoubleBooking: true }) });
    // the ports are taken just before use: the Temporal server and the migrations run in between, and
    // a port found free at the start was once taken by another process by then
    const port = await freePort();
    base = `http://127.0.0.1:${port}/api`;
    const workerHealth = await freePort();
    api = run('bin/api.js', { ...env, PORT: String(port) });
    worker = run('bin/worker.js', { ...env, WORKER_HEALTH_PORT: String(workerHealth) });
    await eventually(
      failuresAsNotYet(async () => ((await fetch(`${base}/health`)).status === 200 ? true : undefined)),
      () => `the api (${api.output}) and Temporal (${temporal.output})`,
      90_000,
    );
    await eventually(
      failuresAsNotYet(async () => ((await fetch(`http://127.0.0.1:${workerHealth}/`)).status === 200 ? true : undefined)),
      () => `the worker (${worker.output})`,
      60_000,
    );

    const login = await post('/auth/login', { email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD });
    owner = { authorization: `Bearer ${login.body.data.accessToken}` };
    const services = (await (await fetch(`${base}/public/tenants/${DEMO_SLUG}/services`)).json()) as Json;
    const serviceId: string = services.data[0].services[0].id;
    const next = await post(`/public/tenants/${DEMO_SLUG}/availability/next-available-date`, {
      items: [{ serviceId }],
      fromDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
    });
    const slots = (await (await fetch(`${base}/public/tenants/${DEMO_SLUG}/availability?serviceId=${serviceId}&date=${next.body.data.date}`)).json()) as Json;
    slot = { start: slots.data.slots[0].start, serviceId, resourceId: slots.data.slots[0].items[0].resourceId };
  });

  after(async function () {
    this.timeout(60_000);
    for (const p of [api, worker, temporal]) if (p && p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await smtp?.close();
    await s3?.stop();
    await db?.destroy();
    for (const name of dbNames) await adminDb?.raw(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
    await adminDb?.destroy();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('when the server is killed (-9) during a burst of bookings and started again on its persistence then every 201 booking keeps its workflow, none exists without one, every confirmation goes out exactly once and nothing is stuck', async () => {
    const tags = Array.from({ length: BURST }, (_, i) => `restart-${runId}-${i}`);
    let answered = 0;
    let killed: Promise<number | null> | undefined;
    const results = await Promise.all(
      tags.map((tag) =>
        post(
          '/bookings',
          {
            startTime: slot.start,
            items: [{ serviceId: slot.serviceId, resourceId: slot.resourceId }],
            notes: tag,
            customer: { name: `Kunde ${tag}`, phone: `+479${crypto.randomInt(1000000, 9999999)}`, email: `${tag}@restart.example` },
          },
          owner,
        ).then((res) => {
          answered += 1;
          if (answered >= KILL_AFTER && !killed) {
            killed = temporal.exited;
            temporal.child.kill('SIGKILL');
          }
          return { tag, status: res.status, id: res.body?.data?.id as string | undefined, code: res.body?.error?.code as string | undefined };
        }),
      ),
    );
    expect(killed, 'the server was killed mid-burst').to.not.equal(undefined);
    expect(await killed).to.equal(null);
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(created.length).to.be.at.least(KILL_AFTER);
    expect(refused.length, 'some bookings met the dead server').to.be.greaterThan(0);
    expect([...new Set(refused.map((r) => `${r.status} ${r.code}`))], 'what the bookings that met the dead server got').to.deep.equal([
      '503 WORKFLOW_UNAVAILABLE',
    ]);

    temporal = await startTemporal();
    const restartedAt = Date.now();
    const connection = await eventually(
      failuresAsNotYet(() => Connection.connect({ address: temporalAddress, connectTimeout: 2000 })),
      () => `the restarted server (${temporal.output})`,
      60_000,
    );
    try {
      const client = new Client({ connection });
      // a booking whose workflow could not be signalled was rolled back: the rows are exactly the 201s
      const rows: { id: string; notes: string }[] = await db('bookings').whereIn('notes', tags).select('id', 'notes');
      expect(rows.map((r) => r.id).sort()).to.deep.equal(created.map((r) => r.id!).sort());
      for (const row of rows) {
        const description = await eventually(
          failuresAsNotYet(() => client.workflow.getHandle(`booking:${row.id}`).describe()),
          `booking:${row.id} after the restart`,
          30_000,
        );
        expect(description.type, row.notes).to.equal('bookingWorkflow');
      }
      // every confirmation exactly once, and no workflow left with work to do
      await eventually(
        failuresAsNotYet(async () => (rows.every((r) => mailsTo(`${r.notes}@restart.example`).length > 0) ? true : undefined)),
        () =>
          `every confirmation (${rows.filter((r) => mailsTo(`${r.notes}@restart.example`).length > 0).length} of ${rows.length}; worker: ${worker.output.slice(-1000)})`,
        120_000,
      );
      await eventually(
        failuresAsNotYet(async () => {
          for (const row of rows) if ((await client.workflow.getHandle(`booking:${row.id}`).describe()).raw.pendingActivities?.length) return undefined;
          return true;
        }),
        'every booking workflow settled',
        60_000,
      );
      for (const row of rows)
        expect(
          mailsTo(`${row.notes}@restart.example`).map((m) => m.salon.kind),
          row.notes,
        ).to.deep.equal(['CONFIRMED']);
      for (const r of refused) expect(mailsTo(`${r.tag}@restart.example`), r.tag).to.have.length(0);
      expect(worker.child.exitCode, worker.output).to.equal(null);
      expect(api.child.exitCode, api.output).to.equal(null);
      if (process.env.SHOW_TIMING)
        console.log(
          `      ${created.length} created before/around the kill, ${refused.length} refused; restart -> all confirmed: ${Date.now() - restartedAt} ms`,
        );
    } finally {
      await connection.close();
    }
  });
});
