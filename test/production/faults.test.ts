// The production topology under faults: bin/migrate, two bin/api processes and
// bin/worker as separate processes (NODE_ENV=production, configured by environment only), a Temporal
// server (test/support/temporal.ts: ours, the official CLI's or the Go-built one) as its own process
// behind a TCP proxy, a Postgres of this suite's own (so it can be stopped), an SMTP sink that counts
// what arrives, and the payment sandbox counting captures. One topology start serves the four cases,
// in order:
//   8. kill -9 the worker with 50 confirmations and 10 deposit captures in flight, then a new worker:
//      every confirmation arrives exactly once, every capture runs exactly once, nothing is left stuck;
//   9. kill -9 an api process during a burst of bookings: every 201 exists with its workflow, and no
//      booking exists without one;
//  10. Postgres stopped for 20 s and started: 503 while it is down, api and worker carry on without a
//      restart, and the booking whose workflow was reading it when it stopped gets its confirmation;
//  11. the Temporal frontend unreachable for 30 s: bookings are 503 with nothing written, and
//      everything resumes by itself.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { Client, Connection } from '@temporalio/client';
import { run, type Proc } from '../support/processes';
import { startTemporalFrontend } from '../support/temporal';
import { suitePostgres } from '../support/postgres';
import { eventually } from '../support/eventually';
import { completedActivities } from '../support/workflow-history';

/** Processes here start, die and come back: a probe that fails (refused connection, database down) is "not yet". */
function failuresAsNotYet<T>(probe: () => Promise<T | undefined>): () => Promise<T | undefined> {
  return () => probe().catch(() => undefined);
}
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { freePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../devstack/postgres';
import { startEmbeddedS3, type EmbeddedS3 } from '../../devstack/s3-for-dev';
import { seedDemoSalon, DEMO_SLUG } from '../../domain/demo/demo-salon';
import { parseKeyring, sealCredentials } from '../../domain/crypto/credential-cipher';
import { paymentConfigBinding } from '../../domain/payments/payment-config.service';
import { startSandboxServer, type SandboxServer } from '../../devstack/payment-sandbox-server';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The sandbox behind a proxy that can hold the answers of captures: the capture is made, its answer waits. */
async function startCaptureGate(target: string): Promise<{ url: string; heldCount(): number; hold(): void; release(): void; close(): void }> {
  let holding = false;
  let held: (() => void)[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      ['authorization', 'idempotency-key', 'content-type', 'accept'].filter((h) => req.headers[h]).map((h) => [h, String(req.headers[h])]),
    );
    const upstream = await fetch(target + req.url, { method: req.method, headers, body: req.method === 'GET' ? undefined : Buffer.concat(chunks) });
    const body = Buffer.from(await upstream.arrayBuffer());
    const answer = () => {
      if (!res.destroyed) res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(body);
    };
    if (holding && /\/capture$/.test(req.url ?? '')) held.push(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    heldCount: () => held.length,
    hold: () => void (holding = true),
    release() {
      holding = false;
      for (const answer of held) answer();
      held = [];
    },
    close: () => server.close(),
  };
}

/** Longer than the booking workflow's read activity retries (~16 s): the outage outlasts an activity. */
const OUTAGE_MS = 20_000;

describe('production topology under faults: kill -9, a Postgres restart, Temporal unreachable', function () {
  this.timeout(120_000);

  const credentialKeys = `1:${Buffer.alloc(32, 5).toString('base64')}`;
  let dir: string;
  let pg: EmbeddedPostgresHandle;
  let pgPort: number;
  let db: Knex;
  let smtp: SmtpSink;
  let sandbox: SandboxServer;
  let captures: Awaited<ReturnType<typeof startCaptureGate>>;
  let s3: EmbeddedS3;
  let temporalServer: Proc;
  let temporal: TcpProxy;
  let temporalClient: Client;
  let temporalConnection: Connection;
  let env: NodeJS.ProcessEnv;
  let apiA: Proc;
  let apiB: Proc;
  let worker: Proc;
  let workerHealth: number;
  let baseA: string;
  let baseB: string;
  let owner: Record<string, string>;
  let serviceId: string;
  let resourceId: string;
  let slot: string;
  const runId = crypto.randomBytes(3).toString('hex');

  const json = async (res: Response): Promise<{ status: number; body: Json }> => ({ status: res.status, body: await res.json().catch(() => ({})) });
  const post = (base: string, p: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(base + p, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(json);
  // 50 confirmations and 10 captures must be in flight at once when the worker is killed: more than the default 20 activity
  // slots, and each confirmation's workflow task holds a workflow task slot while its local activities run
  const startWorker = () =>
    run('bin/worker.js', {
      ...env,
      WORKER_HEALTH_PORT: String(workerHealth),
      WORKER_MAX_CONCURRENT_ACTIVITIES: '100',
      WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: '100',
    });
  const workerUp = (p: Proc) =>
    eventually(
      failuresAsNotYet(async () => ((await fetch(`http://127.0.0.1:${workerHealth}/`)).status === 200 ? true : undefined)),
      () => `the worker (${p.output})`,
      60_000,
    );
  const describeWorkflow = (id: string) => temporalClient.workflow.getHandle(id).describe();

  /** A staff booking (CONFIRMED at once) whose confirmation goes to its own e-mail address. */
  const staffBooking = (base: string, tag: string) =>
    post(
      base,
      '/bookings',
      {
        startTime: slot,
        items: [{ serviceId, resourceId }],
        notes: tag,
        customer: { name: `Kunde ${tag}`, phone: `+479${crypto.randomInt(1000000, 9999999)}`, email: `${tag}@faults.example` },
      },
      owner,
    );
  const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));

  before(async function () {
    this.timeout(180_000);
    const started = Date.now();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-faults-'));
    pgPort = await freePort();
    const temporalPort = await freePort();
    temporalServer = await startTemporalFrontend({ port: temporalPort, postgresUrl: (await suitePostgres()).url });
    pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), port: pgPort, database: 'faults', persistent: true });
    smtp = await startSmtpSink();
    sandbox = await startSandboxServer();
    captures = await startCaptureGate(sandbox.url);
    s3 = await startEmbeddedS3({ dataDir: dir, bucket: 'salon-faults' });
    temporal = await startTcpProxy({ host: '127.0.0.1', port: temporalPort });
    const [portA, portB] = [await freePort(), await freePort()];
    baseA = `http://127.0.0.1:${portA}/api`;
    baseB = `http://127.0.0.1:${portB}/api`;
    workerHealth = await freePort();
    env = {
      NODE_ENV: 'production',
      DATABASE_URL: pg.url,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_TASK_QUEUE: 'salon-faults',
      JWT_SECRET: 'faults-test-jwt-secret-0123456789abcdef',
      ADMIN_EMAIL: 'admin@faults.test',
      ADMIN_PASSWORD: 'faults-admin-password',
      CREDENTIAL_KEYS: credentialKeys,
      PASSWORD_HASH_ROUNDS: '10',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Salong Nordlys <booking@faults.test>',
      SMS_OUTBOX_DIR: path.join(dir, 'sms'),
      PAYMENT_SANDBOX_URL: captures.url,
      PAYMENT_WEBHOOK_BASE_URL: baseB,
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: 'salon-faults',
      IMAGE_PROXY_SECRET: 'faults-image-proxy-secret-0123456789',
      RATE_LIMIT_GLOBAL: '100000',
      RATE_LIMIT_AUTH: '100000',
      RATE_LIMIT_BOOKING_CREATE: '100000',
      LOG_LEVEL: 'fatal',
      SHUTDOWN_TIMEOUT_MS: '2000',
    };
    const lap = (what: string) => process.env.SHOW_TIMING && console.log(`      ${what}: ${Date.now() - started} ms`);
    lap('postgres, smtp, sandbox, s3, temporal proxy');
    const migrate = run('bin/migrate.js', env);
    expect(await migrate.exited, migrate.output).to.equal(0);
    // quiet: this suite stops Postgres under it on purpose
    const quiet = () => undefined;
    db = knexFactory({
      client: 'pg',
      connection: pg.url,
      pool: { min: 0, max: 2 },
      log: { warn: quiet, error: quiet, debug: quiet, deprecate: quiet },
      ...knexSnakeCaseMappers(),
    });
    await seedDemoSalon(db, { passwordHashRounds: 4 });
    // the demo salon double-books (so sixty bookings share a slot) and holds 100 kr deposits on online bookings
    const tenant = await db('tenants').where({ slug: DEMO_SLUG }).first();
    await db('tenants')
      .where({ id: tenant.id })
      .update({
        settings: JSON.stringify({
          ...tenant.settings,
          allowDoubleBooking: true,
          depositEnabled: true,
          depositType: 'fixed',
          depositValue: 10000,
          autoConfirm: false,
        }),
      });
    const configId = crypto.randomUUID();
    const sealed = sealCredentials(parseKeyring(credentialKeys), { apiKey: 'sk_test_faults0001' }, paymentConfigBinding({ tenantId: tenant.id, id: configId }));
    await db('payment_configs').insert({
      id: configId,
      tenantId: tenant.id,
      provider: 'sandbox',
      displayName: 'Sandkasse',
      captureMode: 'MANUAL',
      isActive: true,
      credentialsSealed: sealed.sealed,
      keyVersion: sealed.keyVersion,
    });

    lap('migrated and seeded');
    apiA = run('bin/api.js', { ...env, PORT: String(portA) });
    apiB = run('bin/api.js', { ...env, PORT: String(portB) });
    worker = startWorker();
    for (const [base, proc] of [
      [baseA, apiA],
      [baseB, apiB],
    ] as const) {
      await eventually(
        failuresAsNotYet(async () => ((await fetch(`${base}/health`)).status === 200 ? true : undefined)),
        () => `the api at ${base} (${proc.output})`,
        60_000,
      );
    }
    lap('apis up');
    await workerUp(worker);
    lap('worker up');
    temporalConnection = await Connection.connect({ address: `127.0.0.1:${temporalPort}` });
    temporalClient = new Client({ connection: temporalConnection });

    const login = await post(baseB, '/auth/login', { email: 'eier@salong-nordlys.no', password: 'nordlys-demo' });
    owner = { authorization: `Bearer ${login.body.data.accessToken}` };
    const services = await json(await fetch(`${baseB}/public/tenants/${DEMO_SLUG}/services`));
    serviceId = services.body.data[0].services[0].id;
    const next = await post(baseB, `/public/tenants/${DEMO_SLUG}/availability/next-available-date`, {
      items: [{ serviceId }],
      fromDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
    });
    const slots = await json(await fetch(`${baseB}/public/tenants/${DEMO_SLUG}/availability?serviceId=${serviceId}&date=${next.body.data.date}`));
    slot = slots.body.data.slots[0].start;
    resourceId = slots.body.data.slots[0].items[0].resourceId;
    if (process.env.SHOW_TIMING) console.log(`      fault topology up in ${Date.now() - started} ms`);
  });

  after(async function () {
    this.timeout(60_000);
    for (const p of [apiA, apiB, worker, temporalServer]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
    await temporalConnection?.close().catch(() => undefined);
    await temporal?.close();
    await db?.destroy();
    await pg?.stop().catch(() => undefined);
    captures?.close();
    await sandbox?.close();
    await smtp?.close();
    await s3?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('8: when the worker is killed (-9) with 50 confirmations and 10 deposit captures in flight then a new worker sends every confirmation exactly once and captures every deposit exactly once, and no workflow is left stuck', async function () {
    this.timeout(240_000);
    // ten online bookings with a 100 kr deposit, authorised on the sandbox's checkout page
    const deposits = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const email = `deposit-${runId}-${i}@faults.example`;
        const created = await post(baseB, `/public/tenants/${DEMO_SLUG}/bookings`, {
          startTime: slot,
          items: [{ serviceId, resourceId }],
          customer: { name: `Depositum ${i}`, phone: `+4798${String(i).padStart(6, '0')}`, email },
        });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        const page = await eventually(
          failuresAsNotYet(async () => {
            const res = await json(
              await fetch(
                `${baseB}/public/tenants/${DEMO_SLUG}/bookings/${created.body.data.id}/payment?token=${encodeURIComponent(created.body.data.manageToken)}`,
              ),
            );
            return res.body.data?.redirectUrl ?? undefined;
          }),
          'the checkout session',
          30_000,
        );
        expect((await fetch(`${page}/pay`, { method: 'POST', redirect: 'manual' })).status).to.equal(303);
        return { id: created.body.data.id as string, email };
      }),
    );
    await eventually(
      failuresAsNotYet(async () =>
        (
          await db('bookings')
            .whereIn(
              'id',
              deposits.map((d) => d.id),
            )
            .where({ depositStatus: 'AUTHORIZED' })
        ).length === 10
          ? true
          : undefined,
      ),
      'the ten deposits authorised',
      60_000,
    );
    await eventually(
      failuresAsNotYet(async () => (deposits.every((d) => mailsTo(d.email).length === 2) ? true : undefined)),
      'their messages out',
      60_000,
    );

    // from now on the mail server and the sandbox's capture answers wait: everything below is in flight
    smtp.hold();
    captures.hold();
    const confirmations: { id: string; email: string }[] = [];
    for (let batch = 0; batch < 5; batch++) {
      const made = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          staffBooking(baseB, `confirm-${runId}-${batch * 10 + i}`).then((res) => ({ res, tag: `confirm-${runId}-${batch * 10 + i}` })),
        ),
      );
      for (const { res, tag } of made) {
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        confirmations.push({ id: res.body.data.id, email: `${tag}@faults.example` });
      }
    }
    const killAt = { t: 0 };
    for (const arrived of await Promise.all(
      deposits.map((d) => post(baseB, `/bookings/${d.id}/status/ARRIVED`, { force: true, reason: 'the customer came a day early' }, owner)),
    ))
      expect(arrived.status).to.equal(200);
    await eventually(
      failuresAsNotYet(async () => (smtp.heldCount() >= 50 && captures.heldCount() === 10 ? true : undefined)),
      () => `50 confirmations and 10 captures in flight (${smtp.heldCount()}, ${captures.heldCount()})`,
      90_000,
    );
    const sessions: string[] = (
      await db('payments').whereIn(
        'bookingId',
        deposits.map((d) => d.id),
      )
    ).map((p: { providerSessionId: string }) => p.providerSessionId);
    expect(
      sessions.map((id: string) => sandbox.session(id)!.captureCount),
      'captured at the sandbox, not yet recorded',
    ).to.deep.equal(Array(10).fill(1));

    worker.child.kill('SIGKILL');
    killAt.t = Date.now();
    expect(await worker.exited).to.equal(null);
    await eventually(
      failuresAsNotYet(async () => (smtp.heldOpen() === 0 ? true : undefined)),
      "the dead worker's mail connections closed",
      10_000,
    );
    const { accepted } = smtp.release();
    expect(accepted, 'no message was accepted from the dead worker').to.equal(0);
    captures.release();
    worker = startWorker();
    await workerUp(worker);

    // every confirmation exactly once, every deposit captured exactly once
    await eventually(
      failuresAsNotYet(async () => (confirmations.every((c) => mailsTo(c.email).length > 0) ? true : undefined)),
      () => `all 50 confirmations (${confirmations.filter((c) => mailsTo(c.email).length > 0).length} so far)`,
      120_000,
    );
    await eventually(
      failuresAsNotYet(async () =>
        (
          await db('payments')
            .whereIn(
              'bookingId',
              deposits.map((d) => d.id),
            )
            .where({ status: 'CAPTURED' })
        ).length === 10
          ? true
          : undefined,
      ),
      'the captures recorded',
      60_000,
    );
    // nothing stuck: every booking's workflow has no activity left to run, every payment's has ended
    await eventually(
      failuresAsNotYet(async () => {
        for (const b of [...confirmations, ...deposits]) if ((await describeWorkflow(`booking:${b.id}`)).raw.pendingActivities?.length) return undefined;
        for (const p of await db('payments').whereIn(
          'bookingId',
          deposits.map((d) => d.id),
        ))
          if ((await describeWorkflow(`payment:${p.id}`)).status.name !== 'COMPLETED') return undefined;
        return true;
      }),
      'every workflow settled',
      60_000,
    );
    for (const c of confirmations)
      expect(
        mailsTo(c.email).map((m) => m.salon.kind),
        c.email,
      ).to.deep.equal(['CONFIRMED']);
    for (const d of deposits)
      expect(
        mailsTo(d.email).map((m) => m.salon.kind),
        d.email,
      ).to.deep.equal(['RECEIVED', 'CONFIRMED']);
    // every payment's workflow has ended: each deposit moved once at the sandbox, asked for under one key
    // (the dead worker's request and the new worker's retry of it), none with a second
    const payments = await db('payments').whereIn(
      'bookingId',
      deposits.map((d) => d.id),
    );
    for (const p of payments as { id: string; providerSessionId: string }[]) {
      const session = sandbox.session(p.providerSessionId)!;
      expect({ captured: session.captureCount, keys: session.requests.capture.keys }, p.id).to.deep.equal({ captured: 1, keys: [`capture:${p.id}`] });
      expect(session.requests.capture.count, `capture requests for ${p.id}: the first and its retry`).to.be.at.least(2);
    }
    expect(
      (
        await db('bookings').whereIn(
          'id',
          deposits.map((d) => d.id),
        )
      ).map((b: { depositStatus: string }) => b.depositStatus),
    ).to.deep.equal(Array(10).fill('PAID'));
    if (process.env.SHOW_TIMING) console.log(`      kill -9 -> every message and capture done and settled: ${Date.now() - killAt.t} ms`);
  });

  it('9: when an api process is killed (-9) during a burst of bookings then every booking a client got 201 for exists with its workflow, and none exists without one', async () => {
    const tags = Array.from({ length: 40 }, (_, i) => `burst-${runId}-${i}`);
    let answered = 0;
    let killed = false;
    const results = await Promise.all(
      tags.map((tag) =>
        staffBooking(baseA, tag)
          .then((res) => {
            answered += 1;
            if (answered >= 5 && !killed) {
              killed = true;
              apiA.child.kill('SIGKILL');
            }
            return { tag, status: res.status, id: res.body?.data?.id as string | undefined };
          })
          .catch(() => ({ tag, status: 0, id: undefined })),
      ),
    );
    expect(killed, 'the api was killed mid-burst').to.equal(true);
    const created = results.filter((r) => r.status === 201);
    const lost = results.filter((r) => r.status === 0);
    expect(created.length).to.be.at.least(5);
    expect(lost.length, 'some requests were cut off').to.be.greaterThan(0);
    const rows: { id: string; notes: string }[] = await db('bookings').whereIn('notes', tags).select('id', 'notes');
    expect(created.map((r) => r.id)).to.satisfy((ids: string[]) => ids.every((id) => rows.some((row) => row.id === id)), 'every 201 booking exists');
    for (const row of rows) expect((await describeWorkflow(`booking:${row.id}`)).type, row.notes).to.equal('bookingWorkflow');
    if (process.env.SHOW_TIMING)
      console.log(`      burst: ${created.length} created, ${rows.length - created.length} committed without an answer, ${lost.length} cut off`);
  });

  it('10: when Postgres is down for longer than an activity retries then the api answers 503 meanwhile, and api and worker carry on without a restart: the booking made just before gets its confirmation', async function () {
    this.timeout(180_000);
    // the worker is paused while the booking is made and Postgres stops, so its workflow reads the
    // booking during the outage (not before it): the read activity gives up after ~16 s of retries
    worker.child.kill('SIGSTOP');
    let beforeId = '';
    try {
      const before = await staffBooking(baseB, `before-outage-${runId}`);
      expect(before.status).to.equal(201);
      beforeId = before.body.data.id;
      await pg.stop();
    } finally {
      worker.child.kill('SIGCONT');
    }
    const downAt = Date.now();
    const health = await json(await fetch(`${baseB}/health`));
    expect(health.status).to.equal(503);
    const refused = await staffBooking(baseB, `during-outage-${runId}`);
    expect([refused.status, refused.body.error?.code]).to.deep.equal([503, 'DATABASE_UNAVAILABLE']);
    await eventually(
      failuresAsNotYet(async () => ((await fetch(`http://127.0.0.1:${workerHealth}/`)).status === 503 ? true : undefined)),
      'the worker reports the database down',
      10_000,
    );
    await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - downAt))));
    expect(mailsTo(`before-outage-${runId}@faults.example`), 'nothing could be sent while Postgres was down').to.have.length(0);

    pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), port: pgPort, database: 'faults', persistent: true });
    const backAt = Date.now();
    const after = await eventually(
      failuresAsNotYet(async () => {
        const res = await staffBooking(baseB, `after-outage-${runId}`);
        return res.status === 201 ? res : undefined;
      }),
      'a booking once Postgres is back',
      30_000,
    );
    expect(after.status).to.equal(201);
    expect(apiB.child.exitCode, apiB.output).to.equal(null);
    expect(worker.child.exitCode, worker.output).to.equal(null);
    await eventually(
      failuresAsNotYet(async () => ((await fetch(`http://127.0.0.1:${workerHealth}/`)).status === 200 ? true : undefined)),
      'the worker healthy again',
      30_000,
    );
    // the booking made just before the outage and the one after it both get their confirmation, once
    await eventually(
      failuresAsNotYet(async () =>
        mailsTo(`before-outage-${runId}@faults.example`).length === 1 && mailsTo(`after-outage-${runId}@faults.example`).length === 1 ? true : undefined,
      ),
      'both confirmations',
      90_000,
    );
    if (process.env.SHOW_TIMING) console.log(`      Postgres down ${backAt - downAt} ms; back -> both confirmations: ${Date.now() - backAt} ms`);
    expect(await db('bookings').where({ notes: `during-outage-${runId}` })).to.have.length(0);
    // a redelivery comes only while the booking's workflow has not recorded its e-mail as delivered (the
    // next attempt is a timer 30 s on): once its history has the delivery done, the count is final
    await eventually(
      failuresAsNotYet(async () => ((await completedActivities(temporalClient, `booking:${beforeId}`)).includes('sendBookingEmail') ? true : undefined)),
      'the e-mail recorded as delivered',
      90_000,
    );
    expect(mailsTo(`before-outage-${runId}@faults.example`)).to.have.length(1);
  });

  it('11: when the Temporal frontend is unreachable for 30 s then bookings answer 503 with nothing written, and everything resumes by itself', async function () {
    this.timeout(180_000);
    await temporal.cut();
    const cutAt = Date.now();
    const refused = await staffBooking(baseB, `temporal-down-${runId}`);
    expect([refused.status, refused.body.error?.code]).to.deep.equal([503, 'WORKFLOW_UNAVAILABLE']);
    expect(await db('bookings').where({ notes: `temporal-down-${runId}` }), 'nothing written').to.have.length(0);
    await new Promise((r) => setTimeout(r, Math.max(0, 30_000 - (Date.now() - cutAt))));
    await temporal.restore();

    const restoredAt = Date.now();
    const resumed = await eventually(
      failuresAsNotYet(async () => {
        const res = await staffBooking(baseB, `temporal-back-${runId}`);
        return res.status === 201 ? res : undefined;
      }),
      'a booking once Temporal is reachable',
      60_000,
    );
    const bookedAt = Date.now();
    await eventually(
      failuresAsNotYet(async () => (mailsTo(`temporal-back-${runId}@faults.example`).length > 0 ? true : undefined)),
      'its confirmation, sent by the worker',
      60_000,
    );
    if (process.env.SHOW_TIMING)
      console.log(`      Temporal back -> a booking accepted: ${bookedAt - restoredAt} ms, -> its e-mail: ${Date.now() - restoredAt} ms`);
    expect((await describeWorkflow(`booking:${resumed.body.data.id}`)).status.name).to.equal('RUNNING');
    expect(worker.child.exitCode, worker.output).to.equal(null);
    expect(apiB.child.exitCode, apiB.output).to.equal(null);
    expect(mailsTo(`temporal-back-${runId}@faults.example`)).to.have.length(1);
  });
});
