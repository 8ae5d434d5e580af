// An erasure in the production topology (docs/rules/personal-data.md#erasure): bin/api and bin/worker
// as separate processes configured by environment only, a Temporal frontend of their own, an SMTP
// server and a Sveve stand-in. The owner erases a customer with a booking still to come while no
// worker runs; a worker takes the request up and is killed (SIGKILL) once the moment of erasure has
// committed, and a new one takes over; the erasure completes, the
// customer got exactly one notice by e-mail and one by SMS and nothing after, no table, workflow
// history or process log holds their name, phone or e-mail, and the worker's retention loop gave the
// salon its timer, which swept once.
import crypto from 'node:crypto';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { Client, Connection } from '@temporalio/client';
import { stack } from '../support/stack';
import { run, type Proc } from '../support/processes';
import { startTemporalFrontend } from '../support/temporal';
import { answers200, eventually } from '../support/eventually';
import { startSveveStandIn, type SveveStandIn } from '../support/sveve-stand-in';
import { freePort } from '../../devstack/postgres';
import { seedDemoSalon, DEMO_OWNER_EMAIL, DEMO_PASSWORD, DEMO_SLUG } from '../../domain/demo/demo-salon';
import { startEmbeddedS3, type EmbeddedS3 } from '../../devstack/s3-for-dev';
import { historyText, mentioned, tablesHolding } from '../support/personal-data';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('production topology: an erasure with api and worker as separate processes, the worker killed during it', function () {
  this.timeout(180_000);
  let smtp: SmtpSink;
  let sveve: SveveStandIn;
  let temporal: Proc;
  let api: Proc;
  const workers: Proc[] = [];
  let apiBase: string;
  let env: NodeJS.ProcessEnv;
  let db: Knex;
  let adminDb: Knex;
  let dbName: string;
  let temporalAddress: string;
  let s3: EmbeddedS3 | undefined;

  async function startWorker(): Promise<Proc> {
    const health = await freePort();
    const worker = run('bin/worker.js', { ...env, WORKER_HEALTH_PORT: String(health) });
    workers.push(worker);
    await eventually(
      () => answers200(`http://127.0.0.1:${health}/`),
      () => `the worker (${worker.output})`,
      45_000,
    );
    return worker;
  }

  before(async function () {
    this.timeout(120_000);
    const base = (await stack()).config.databaseUrl!;
    dbName = `personal_data_topology_${process.pid}_${Date.now()}`;
    adminDb = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
    await adminDb.raw(`CREATE DATABASE "${dbName}"`);
    const databaseUrl = base.replace(/\/[^/]+$/, `/${dbName}`);
    smtp = await startSmtpSink();
    sveve = await startSveveStandIn({ user: 'salon', password: 'sveve-secret' });
    s3 = await startEmbeddedS3({ dataDir: `${(await stack()).config.dataDir}/personal-data-topology-${process.pid}`, bucket: 'salon-personal-data' });
    const temporalPort = await freePort();
    temporalAddress = `127.0.0.1:${temporalPort}`;
    temporal = await startTemporalFrontend({ port: temporalPort, postgresUrl: base });
    const port = await freePort();
    apiBase = `http://127.0.0.1:${port}/api`;
    env = {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_TASK_QUEUE: 'salon-personal-data-topology',
      JWT_SECRET: 'personal-data-topology-jwt-secret-0123456789',
      ADMIN_EMAIL: 'admin@personal-data-topology.test',
      ADMIN_PASSWORD: 'personal-data-topology-admin',
      CREDENTIAL_KEYS: `1:${Buffer.alloc(32, 5).toString('base64')}`,
      PASSWORD_HASH_ROUNDS: '10',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Salong Nordlys <booking@salong-nordlys.test>',
      SVEVE_URL: sveve.url,
      SVEVE_USER: 'salon',
      SVEVE_PASSWORD: 'sveve-secret',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: 'salon-personal-data',
      IMAGE_PROXY_SECRET: 'personal-data-topology-image-proxy-0123',
      PUBLIC_BASE_URL: 'https://booking.personal-data.test',
      // every request line and the worker's own lines: the logs the test reads
      LOG_LEVEL: 'info',
    };
    const migrate = run('bin/migrate.js', env);
    expect(await migrate.exited, migrate.output).to.equal(0);
    db = knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 2 }, ...knexSnakeCaseMappers() });
    await seedDemoSalon(db, { passwordHashRounds: 4 });
    api = run('bin/api.js', { ...env, PORT: String(port) });
    await eventually(
      () => answers200(`${apiBase}/health`),
      () => `the api (${api.output})`,
      45_000,
    );
    await startWorker();
  });

  after(async function () {
    this.timeout(30_000);
    for (const p of [api, ...workers, temporal]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
    await smtp?.close();
    sveve?.close();
    await s3?.stop();
    await db?.destroy();
    await adminDb?.raw(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    await adminDb?.destroy();
  });

  const json = async (res: Response): Promise<{ status: number; body: Json }> => ({ status: res.status, body: await res.json() });
  const send = (method: string, p: string, body?: unknown, token?: string) =>
    fetch(apiBase + p, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then(json);

  it('when the owner erases a customer and the worker dies during the erasure then the next worker completes it: one notice a channel, nothing after, and no table, history or log names them', async () => {
    const national = String(crypto.randomInt(40000000, 49999999));
    const person = { name: `Tora Topologi ${crypto.randomBytes(3).toString('hex')}`, phone: `+47${national}`, email: `tora-${Date.now()}@example.no` };
    const needles = [person.name, person.phone, `47${national}`, person.email];
    const services = await json(await fetch(`${apiBase}/public/tenants/${DEMO_SLUG}/services`));
    const serviceId: string = services.body.data[0].services[0].id;
    const next = await send('POST', `/public/tenants/${DEMO_SLUG}/availability/next-available-date`, {
      items: [{ serviceId }],
      fromDate: new Date().toISOString().slice(0, 10),
    });
    const slots = await json(await fetch(`${apiBase}/public/tenants/${DEMO_SLUG}/availability?serviceId=${serviceId}&date=${next.body.data.date}`));
    const created = await send('POST', `/public/tenants/${DEMO_SLUG}/bookings`, {
      startTime: slots.body.data.slots[0].start,
      items: [{ serviceId }],
      customer: person,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const bookingId: string = created.body.data.id;
    // its first messages are out over SMTP and Sveve
    await eventually(
      async () => smtp.received.some((m) => m.to.includes(person.email)) && sveve.posts.some((p) => p.get('to') === `47${national}`),
      'the booking’s messages',
      30_000,
    );
    const { customerId } = await db('bookings').where({ id: bookingId }).first();

    const login = await send('POST', '/auth/login', { email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD });
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    const token: string = login.body.data.accessToken;
    const exported = await send('GET', `/customers/${customerId}/personal-data`, undefined, token);
    expect(exported.body.data.salons[0].bookings.map((b: { id: string }) => b.id)).to.deep.equal([bookingId]);

    // no worker: the request is taken (its workflow exists on the frontend) and nothing happens yet
    workers[0].child.kill('SIGKILL');
    await workers[0].exited;
    const requestedAt = Date.now();
    const asked = await send('POST', `/customers/${customerId}/erasure`, undefined, token);
    expect(asked.status, JSON.stringify(asked.body)).to.equal(202);
    expect(await db('customers').where({ id: customerId }).first()).to.include({ erased: false });
    // a worker takes it up and is killed as soon as the moment of erasure committed; the next one goes on
    const first = await startWorker();
    await eventually(async () => (await db('customers').where({ id: customerId }).first()).erased, 'the moment of erasure', 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    await startWorker();
    const done = await eventually(
      async () => {
        const res = await send('GET', `/customers/${customerId}/erasure`, undefined, token);
        return res.body.data?.status === 'COMPLETED' ? res.body.data : undefined;
      },
      () => `the erasure to complete (${workers.at(-1)!.output.slice(-2000)})`,
      // a step lost with the killed worker is tried again once its start-to-close timeout (30 s) is up
      90_000,
    );
    expect(done.outcome).to.include({ bookingsCancelled: 1 });
    expect(done.outcome.noticeSentBy).to.deep.equal(['EMAIL', 'SMS']);

    // exactly one notice on each channel, and nothing to them after it
    const mailsAfter = smtp.received.filter((m) => m.to.includes(person.email) && m.at >= requestedAt);
    const smsAfter = sveve.posts.filter((p) => p.get('to') === `47${national}`).slice(-1);
    expect(mailsAfter, 'e-mails after the erasure').to.have.length(1);
    expect(mailsAfter[0].raw).to.match(/Subject: .*slettet/);
    expect(smsAfter[0].get('msg')).to.contain('er slettet');
    const notices = sveve.posts.filter((p) => p.get('to') === `47${national}` && (p.get('msg') ?? '').includes('er slettet'));
    expect(notices, 'SMS notices').to.have.length(1);
    expect(await db('bookings').where({ id: bookingId }).first()).to.include({ status: 'CANCELLED', cancelledBy: 'SALON', contactPhone: null });

    // no table, workflow history or process log holds them
    expect(await tablesHolding(db, needles)).to.deep.equal({});
    const connection = await Connection.connect({ address: temporalAddress });
    try {
      const client = new Client({ connection });
      for (const workflowId of [`booking:${bookingId}`, `personal-data-erasure:${asked.body.data.id}`])
        expect(mentioned(await historyText(client, workflowId), needles), workflowId).to.deep.equal([]);
    } finally {
      await connection.close();
    }
    for (const p of [api, ...workers]) expect(mentioned(p.output, needles), 'a process log').to.deep.equal([]);
    expect(api.output).to.contain('"msg":"request"');

    // the worker started the retention loop: the salon has its timer, which swept once
    const tenant = await db('tenants').where({ slug: DEMO_SLUG }).first();
    await eventually(
      async () => (await db('customer_retention_sweeps').where({ tenantId: tenant.id })).length > 0,
      'the demo salon’s first retention sweep',
      30_000,
    );
  });
});
