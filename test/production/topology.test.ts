// The production topology without Docker (docs/design.md#testing): Postgres, a Temporal frontend
// at TEMPORAL_ADDRESS (the engine's dev server as its own process: ours, the official CLI's, or the
// Go-built server on Postgres; test/support/temporal.ts), bin/migrate, two bin/api
// processes and one bin/worker process, all configured by environment only with NODE_ENV=production,
// an SMTP server and a Sveve stand-in (speaking Sveve's HTTP format) in this test.
import { execFile } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { SMTPServer } from 'smtp-server';
import { Connection, Client } from '@temporalio/client';
import { suitePostgres } from '../support/postgres';
import { startDevIdentityProvider, type DevIdentityProvider } from '../../devstack/oidc/dev-identity-provider';
import { run, type Proc } from '../support/processes';
import { startTemporalFrontend } from '../support/temporal';
import { answers200, eventually } from '../support/eventually';
import { startSveveStandIn, type SveveStandIn } from '../support/sveve-stand-in';
import { freePort } from '../../devstack/postgres';
import { seedDemoSalon, DEMO_OWNER_EMAIL, DEMO_PASSWORD, DEMO_SLUG } from '../../domain/demo/demo-salon';
import { startEmbeddedS3, type EmbeddedS3 } from '../../devstack/s3-for-dev';
import sharp from 'sharp';
import { devSignIn } from '../../devstack/oidc/dev-sign-in';
import { workflowIdle } from '../support/workflow-history';
import { closeDesks, dayDrawn, openDesk, signIn } from '../browser/desk/support';
import { at, localDay } from '../support/booking-fixtures';

interface Mail {
  to: string[];
  raw: string;
  at: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function get(base: string, p: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Json }> {
  const res = await fetch(base + p, { headers });
  return { status: res.status, headers: res.headers, body: (res.headers.get('content-type') ?? '').includes('json') ? await res.json() : await res.text() };
}

async function post(base: string, p: string, body: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(base + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** The calendar part of a raw e-mail, decoded (base64 or quoted-printable), lines unfolded. */
function calendarOf(raw: string): string[] {
  const part = raw.split(/\r?\n--/).find((p) => /^Content-Type: text\/calendar/im.test(p));
  expect(part, 'a calendar part').to.be.a('string');
  const [head, ...rest] = part!.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  const text = /Content-Transfer-Encoding: base64/i.test(head)
    ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    : body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return text.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
}

const icsLine = (lines: string[], name: string) => lines.find((l) => l.startsWith(name));

/** The text part of a raw e-mail, decoded (base64 or quoted-printable). */
function textOf(raw: string): string {
  const part = raw.split(/\r?\n--/).find((p) => /^Content-Type: text\/plain/im.test(p)) ?? raw;
  const [head, ...rest] = part.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/Content-Transfer-Encoding: base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return Buffer.from(
    body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

describe('production topology: api x2 and worker as separate processes, configured by environment only', function () {
  this.timeout(90_000);

  const mails: Mail[] = [];
  let smtp: SMTPServer;
  let sveve: SveveStandIn | undefined;
  let temporal: Proc;
  let api1: Proc;
  let api2: Proc;
  let worker: Proc;
  let api1Base: string;
  let api2Base: string;
  let env: NodeJS.ProcessEnv;
  let db: Knex;
  let adminDb: Knex;
  let dbName: string;
  let temporalAddress: string;
  let s3: EmbeddedS3 | undefined;
  /** the OpenID Connect provider customers sign in with (the api's OIDC_ISSUER) */
  let idp: DevIdentityProvider | undefined;

  before(async function () {
    this.timeout(120_000);
    // Postgres: a database of its own on the suite's embedded Postgres.
    const { url: base, dir } = await suitePostgres();
    idp = await startDevIdentityProvider();
    const started = Date.now();
    dbName = `topology_${process.pid}_${Date.now()}`;
    adminDb = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
    await adminDb.raw(`CREATE DATABASE "${dbName}"`);
    const databaseUrl = base.replace(/\/[^/]+$/, `/${dbName}`);

    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (d: Buffer) => (raw += d.toString()));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, at: Date.now() });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (smtp.server.address() as AddressInfo).port;

    sveve = await startSveveStandIn({ user: 'salon', password: 'sveve-secret' });
    s3 = await startEmbeddedS3({ dataDir: `${dir}/topology-${process.pid}`, bucket: 'salon-topology' });

    const temporalPort = await freePort();
    temporalAddress = `127.0.0.1:${temporalPort}`;
    temporal = await startTemporalFrontend({ port: temporalPort, postgresUrl: base });
    const [p1, p2] = [await freePort(), await freePort()];
    api1Base = `http://127.0.0.1:${p1}/api`;
    api2Base = `http://127.0.0.1:${p2}/api`;
    env = {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_TASK_QUEUE: 'salon-topology',
      JWT_SECRET: 'topology-test-jwt-secret-0123456789abcdef',
      ADMIN_EMAIL: 'admin@topology.test',
      ADMIN_PASSWORD: 'topology-admin-password',
      CREDENTIAL_KEYS: `1:${Buffer.alloc(32, 7).toString('base64')}`,
      PASSWORD_HASH_ROUNDS: '10',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'Salong Nordlys <booking@salong-nordlys.test>',
      SVEVE_URL: sveve.url,
      SVEVE_USER: 'salon',
      SVEVE_PASSWORD: 'sveve-secret',
      TRUST_PROXY: '1',
      RATE_LIMIT_GLOBAL: '20',
      METRICS_TOKEN: 'topology-metrics-token-0123456789',
      SMS_REPLY_SECRET: 'topology-sms-reply-secret-0123456789',
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_MS: '10000',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: 'salon-topology',
      IMAGE_PROXY_SECRET: 'topology-image-proxy-secret-0123456789',
      // the suite's OpenID Connect provider stands in for Google, Apple or Vipps
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      // links in messages point at the public address, not at a process
      PUBLIC_BASE_URL: 'https://booking.topology.test',
    };
    const migrate = run('bin/migrate.js', env);
    expect(await migrate.exited, migrate.output).to.equal(0);
    expect(migrate.output).to.match(/applied \d+ migrations now/);

    db = knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 2 }, ...knexSnakeCaseMappers() });
    await seedDemoSalon(db, { passwordHashRounds: 4 });

    api1 = run('bin/api.js', { ...env, PORT: String(p1) });
    api2 = run('bin/api.js', { ...env, PORT: String(p2) });
    const workerHealth = await freePort();
    worker = run('bin/worker.js', { ...env, WORKER_HEALTH_PORT: String(workerHealth) });
    for (const [base, proc] of [
      [api1Base, api1],
      [api2Base, api2],
    ] as const) {
      await eventually(
        () => answers200(`${base}/health`),
        () => `the api at ${base} (${proc.output})`,
        45_000,
      );
    }
    await eventually(
      () => answers200(`http://127.0.0.1:${workerHealth}/`),
      () => `the worker (${worker.output})`,
      45_000,
    );
    if (process.env.SHOW_TIMING) console.log(`      migrate, seed, temporal, 2 api and worker up in ${Date.now() - started} ms`);
  });

  after(async function () {
    this.timeout(30_000);
    for (const p of [api1, api2, worker, temporal]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    sveve?.close();
    await s3?.stop();
    await idp?.stop();
    await db?.destroy();
    await adminDb?.raw(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    await adminDb?.destroy();
  });

  it('when NODE_ENV=production and a variable is missing or a dev default then api and worker refuse with one line naming it', async () => {
    const checks: [string, NodeJS.ProcessEnv, RegExp][] = [
      ['bin/api.js', { ...env, TEMPORAL_ADDRESS: undefined }, /TEMPORAL_ADDRESS/],
      ['bin/worker.js', { ...env, DATABASE_URL: undefined }, /DATABASE_URL/],
      ['bin/api.js', { ...env, JWT_SECRET: undefined }, /JWT_SECRET/],
      ['bin/worker.js', { ...env, ADMIN_PASSWORD: 'admin-dev-password' }, /ADMIN_PASSWORD/],
      ['bin/worker.js', { ...env, S3_ENDPOINT: undefined }, /S3_ENDPOINT/],
      ['bin/api.js', { ...env, IMAGE_PROXY_SECRET: undefined }, /IMAGE_PROXY_SECRET/],
      ['bin/api.js', { ...env, PASSWORD_HASH_ROUNDS: '9' }, /PASSWORD_HASH_ROUNDS/],
      ['bin/worker.js', { ...env, JWT_SECRET: 'x'.repeat(31) }, /JWT_SECRET/],
    ];
    const results = await Promise.all(
      checks.map(async ([file, e]) => {
        const p = run(file, e);
        return { code: await p.exited, output: p.output.trim() };
      }),
    );
    results.forEach(({ code, output }, i) => {
      expect(code, output).to.equal(1);
      expect(output.split('\n'), output).to.have.length(1);
      expect(output).to.match(checks[i][2]);
    });
  });

  it('when a guest books with an e-mail address then booking:<id> runs on the Temporal frontend and the message arrives over SMTP and the SMS gateway within seconds', async () => {
    const services = await get(api1Base, `/public/tenants/${DEMO_SLUG}/services`);
    const serviceId: string = services.body.data[0].services[0].id;
    const today = new Date().toISOString().slice(0, 10);
    const next = await post(api1Base, `/public/tenants/${DEMO_SLUG}/availability/next-available-date`, { items: [{ serviceId }], fromDate: today });
    const date: string = next.body.data.date;
    const slots = await get(api2Base, `/public/tenants/${DEMO_SLUG}/availability?serviceId=${serviceId}&date=${date}`);
    const slot = slots.body.data.slots[0];
    const email = `topology-${Date.now()}@example.no`;
    const sent = Date.now();
    const created = await post(api1Base, `/public/tenants/${DEMO_SLUG}/bookings`, {
      startTime: slot.start,
      items: [{ serviceId }],
      customer: { name: 'Topo Testesen', phone: '+47 955 12 345', email },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const bookingId: string = created.body.data.id;

    const connection = await Connection.connect({ address: temporalAddress });
    try {
      const description = await new Client({ connection }).workflow.getHandle(`booking:${bookingId}`).describe();
      expect(description.type).to.equal('bookingWorkflow');
      expect(description.taskQueue).to.equal('salon-topology');
    } finally {
      await connection.close();
    }

    const mail = await eventually(async () => mails.find((m) => m.to.includes(email)), 'the booking e-mail over SMTP', 15_000);
    const deliveryMs = mail.at - sent;
    expect(mail.raw).to.match(/^From: Salong Nordlys <booking@salong-nordlys\.test>/m);
    expect(mail.raw).to.match(new RegExp(`^X-Salon-BookingId: ${bookingId}`, 'im'));
    expect(deliveryMs).to.be.lessThan(10_000);
    // the message links to the customer's manage page at PUBLIC_BASE_URL and carries the booking as a calendar invitation
    const unwrapped = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(unwrapped).to.contain(`https://booking.topology.test/${DEMO_SLUG}/bookings/${bookingId}?token=`);
    expect(mail.raw).to.match(/^Content-Type: text\/calendar; charset=utf-8; method=REQUEST/im);
    const sms = await eventually(async () => sveve!.posts.find((f) => f.get('to') === '4795512345'), 'the booking SMS at the gateway', 10_000);
    expect(sms.get('msg')).to.be.a('string').and.not.equal('');
    if (process.env.SHOW_TIMING) console.log(`      booking -> SMTP delivery: ${deliveryMs} ms`);

    const metrics = await get(api1Base, '/metrics', { authorization: `Bearer ${env.METRICS_TOKEN}` });
    expect(metrics.status).to.equal(200);
    expect(metrics.body).to.match(/bookings_created_total\{channel="PUBLIC"\} 1/);
    expect(metrics.body).to.match(/http_request_duration_seconds_count\{method="POST",route="\/api\/public\/tenants\/:slug\/bookings",status="201"\} 1/);
    expect(metrics.body).to.include('db_pool_connections{state="max"}');
    expect((await get(api1Base, '/metrics')).status).to.equal(401);
  });

  it("when a booked time is cancelled then waitlist-offer:<id> runs on the worker process and the waitlister's offer arrives over SMTP within seconds", async () => {
    // a client address of its own (TRUST_PROXY 1): this case stays out of the other cases' budget
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' };
    const call = async (method: string, p: string, body?: unknown, token?: string) => {
      const res = await fetch(api2Base + p, {
        method,
        headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Json };
    };
    const serviceId: string = (await call('GET', `/public/tenants/${DEMO_SLUG}/services`)).body.data[0].services[0].id;
    const today = new Date().toISOString().slice(0, 10);
    const date: string = (await call('POST', `/public/tenants/${DEMO_SLUG}/availability/next-available-date`, { items: [{ serviceId }], fromDate: today })).body
      .data.date;
    const slot = (await call('GET', `/public/tenants/${DEMO_SLUG}/availability?serviceId=${serviceId}&date=${date}`)).body.data.slots[0];
    const booked = await call('POST', `/public/tenants/${DEMO_SLUG}/bookings`, {
      startTime: slot.start,
      items: [{ serviceId, resourceId: slot.items[0].resourceId }],
      customer: { name: 'Avbestiller', phone: '+47 955 00 001' },
    });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    const email = `waitlist-${Date.now()}@example.no`;
    // from the booked day: the salon's own date (today in UTC is yesterday there from 23:00 UTC on, and a waitlist may not start in the past)
    const joined = await call('POST', `/public/tenants/${DEMO_SLUG}/waitlist`, {
      serviceIds: [serviceId],
      fromDate: date,
      toDate: date,
      customer: { name: 'Vera Venter', phone: '+47 955 00 002', email },
    });
    expect(joined.status, JSON.stringify(joined.body)).to.equal(201);
    const login = await call('POST', '/auth/login', { email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD });
    const cancelledAt = Date.now();
    const cancelled = await call('POST', `/bookings/${booked.body.data.id}/cancel`, { bySalon: true }, login.body.data.accessToken);
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);

    // the waitlister also got the message that they joined (with the link to their entry): the offer is the one naming the free time
    const offer = await eventually(
      async () => mails.find((m) => m.to.includes(email) && /Ledig time/.test(m.raw)),
      'the waitlist offer e-mail over SMTP',
      15_000,
    );
    const delayMs = offer.at - cancelledAt;
    const round = await db('waitlist_rounds').whereNotNull('firstOfferSentAt').orderBy('createdAt', 'desc').first();
    const connection = await Connection.connect({ address: temporalAddress });
    try {
      expect((await new Client({ connection }).workflow.getHandle(`waitlist-offer:${round.id}`).describe()).type).to.equal('waitlistOfferWorkflow');
    } finally {
      await connection.close();
    }
    if (process.env.SHOW_TIMING) console.log(`      cancellation -> waitlist offer over SMTP: ${delayMs} ms`);
    expect(delayMs).to.be.lessThan(10_000);
  });

  it('when an owner asks for a password reset at one api process then the worker mails the link over SMTP with no secret in any header, and the link resets the password at the other', async () => {
    // a client address of its own (TRUST_PROXY 1): this case stays out of the other cases' budget
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.41' };
    const send = async (base: string, p: string, body: unknown) => {
      const res = await fetch(base + p, { method: 'POST', headers, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Json };
    };
    const email = `reset-${Date.now()}@topology.test`;
    const registered = await send(api1Base, '/auth/register', {
      salonName: 'Topo Reset',
      slug: `topo-reset-${Date.now()}`,
      email,
      password: 'first-password-1',
    });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(201);
    const asked = await send(api1Base, '/auth/forgot-password', { email });
    expect(asked.body).to.deep.equal({ success: true, data: { message: 'If an account with this e-mail exists, a reset link has been sent' } });
    const mail = await eventually(async () => mails.find((m) => m.to.includes(email) && /Tilbakestill/.test(m.raw)), 'the reset mail over SMTP', 15_000);
    const unwrapped = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const token = /https:\/\/booking\.topology\.test\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(unwrapped)![1];
    const head = mail.raw.slice(0, mail.raw.search(/\r?\n\r?\n/));
    expect(head).to.not.contain(token);
    expect(head).to.match(/^X-Salon-kind: PASSWORD_RESET/im);
    expect(head).to.not.match(/X-Salon-(resetToken|userId|expiresAt)/i);
    expect((await send(api2Base, '/auth/reset-password', { token, password: 'second-password-2' })).status).to.equal(200);
    expect((await send(api2Base, '/auth/login', { email, password: 'second-password-2' })).status).to.equal(200);
  });

  it('when a reminded customer replies JA through the gateway at one api then the booking is confirmed by SMS, the answer goes out through the Sveve adapter, and the owner and the metrics see it', async () => {
    // a client address of its own (TRUST_PROXY 1): this case stays out of the other cases' budget
    const headers = { 'x-forwarded-for': '203.0.113.36' };
    const call = async (base: string, method: string, p: string, body?: unknown, token?: string) => {
      const res = await fetch(base + p, {
        method,
        headers: { ...headers, 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Json };
    };
    const serviceId: string = (await call(api1Base, 'GET', `/public/tenants/${DEMO_SLUG}/services`)).body.data[0].services[0].id;
    const today = new Date().toISOString().slice(0, 10);
    const date: string = (
      await call(api1Base, 'POST', `/public/tenants/${DEMO_SLUG}/availability/next-available-date`, { items: [{ serviceId }], fromDate: today })
    ).body.data.date;
    const slot = (await call(api1Base, 'GET', `/public/tenants/${DEMO_SLUG}/availability?serviceId=${serviceId}&date=${date}`)).body.data.slots.at(-1);
    const booked = await call(api1Base, 'POST', `/public/tenants/${DEMO_SLUG}/bookings`, {
      startTime: slot.start,
      items: [{ serviceId }],
      customer: { name: 'Svar Svarsen', phone: '+47 955 03 636' },
    });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    const bookingId: string = booked.body.data.id;
    // the reminder SMS as the workflow records it once out (its own time is the workflow tests')
    await db('booking_notifications').insert({
      bookingId,
      tenantId: (await db('bookings').where({ id: bookingId }).first()).tenantId,
      kind: 'REMINDER',
      channel: 'SMS',
      dedupeKey: 'REMINDER:topology',
      sentAt: new Date(),
    });

    // Sveve posts the reply as a form to the URL set in its account, the shared secret in it
    const form = new URLSearchParams({ number: '4795503636', msg: 'JA', id: 'sveve-topology-1', prefix: '', shortnumber: '2229' });
    const replied = await fetch(`${api2Base}/webhooks/sms/sveve?key=${env.SMS_REPLY_SECRET}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(replied.status).to.equal(200);
    expect(((await replied.json()) as Json).data).to.deep.equal({ result: 'PROMISED', outcome: 'CONFIRMED', bookingId, duplicate: false });
    const answer = sveve!.posts.find((f) => f.get('to') === '4795503636' && /lovet å komme/.test(f.get('msg') ?? ''));
    expect(answer, 'the answer at the Sveve gateway').to.not.equal(undefined);

    const login = await call(api1Base, 'POST', '/auth/login', { email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD });
    const seen = await call(api1Base, 'GET', `/bookings/${bookingId}`, undefined, login.body.data.accessToken);
    expect(seen.body.data).to.include({ promisedVia: 'SMS' });
    const wrongKey = await fetch(`${api1Base}/webhooks/sms/sveve?key=not-the-secret`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(wrongKey.status).to.equal(401);
    const metrics = await get(api1Base, '/metrics', { authorization: `Bearer ${env.METRICS_TOKEN}` });
    expect(metrics.body).to.contain(`booking_confirmations{salon="${DEMO_SLUG}",via="SMS"} 1`);
  });

  it('when a guest moves the booking with its token on the other api then the worker process tells the customer once over SMTP and the SMS gateway, with the same calendar UID and SEQUENCE + 1, offers the freed time to the waitlist, and the metrics count the move', async () => {
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.37' };
    const call = async (base: string, method: string, p: string, body?: unknown) => {
      const res = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Json };
    };
    const serviceId: string = (await call(api1Base, 'GET', `/public/tenants/${DEMO_SLUG}/services`)).body.data[0].services[0].id;
    // three days ahead and later: well before the demo salon's 24 cancellation hours
    const ahead = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const date: string = (
      await call(api1Base, 'POST', `/public/tenants/${DEMO_SLUG}/availability/next-available-date`, { items: [{ serviceId }], fromDate: ahead })
    ).body.data.date;
    const slot = (await call(api1Base, 'GET', `/public/tenants/${DEMO_SLUG}/availability?serviceId=${serviceId}&date=${date}`)).body.data.slots[0];
    const resourceId: string = slot.items[0].resourceId;
    const email = `move-${Date.now()}@example.no`;
    const booked = await call(api1Base, 'POST', `/public/tenants/${DEMO_SLUG}/bookings`, {
      startTime: slot.start,
      items: [{ serviceId, resourceId }],
      customer: { name: 'Flytte Fredriksen', phone: '+47 955 36 036', email },
    });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    const { id, manageToken } = booked.body.data;
    const received = await eventually(async () => mails.find((m) => m.to.includes(email)), 'the booking e-mail over SMTP', 15_000);
    const waiter = `move-waiter-${Date.now()}@example.no`;
    expect(
      (
        await call(api2Base, 'POST', `/public/tenants/${DEMO_SLUG}/waitlist`, {
          serviceIds: [serviceId],
          fromDate: date,
          toDate: date,
          customer: { name: 'Vera Venter', phone: '+47 955 36 037', email: waiter },
        })
      ).status,
    ).to.equal(201);

    const later = (
      await call(api2Base, 'GET', `/public/tenants/${DEMO_SLUG}/availability?serviceId=${serviceId}&date=${date}&resourceId=${resourceId}`)
    ).body.data.slots.at(-1);
    const moved = await call(api2Base, 'POST', `/public/tenants/${DEMO_SLUG}/bookings/${id}/move`, { startTime: later.start, token: manageToken });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect(moved.body.data.startTime).to.equal(later.start);

    const rescheduled = await eventually(async () => mails.find((m) => m.to.includes(email) && m !== received), 'the e-mail about the move over SMTP', 15_000);
    const before = calendarOf(received.raw);
    const after = calendarOf(rescheduled.raw);
    expect(icsLine(after, 'UID:')).to.equal(icsLine(before, 'UID:'));
    expect(Number(icsLine(after, 'SEQUENCE:')!.slice(9))).to.equal(Number(icsLine(before, 'SEQUENCE:')!.slice(9)) + 1);
    await eventually(async () => sveve!.posts.filter((f) => f.get('to') === '4795536036').length >= 2, 'the SMS about the move at the gateway', 10_000);
    await eventually(async () => mails.find((m) => m.to.includes(waiter) && /Ledig time/.test(m.raw)), 'the waitlist offer of the freed time', 15_000);
    const tenant = await db('tenants').where({ slug: DEMO_SLUG }).first();
    const metrics = await get(api1Base, '/metrics', { authorization: `Bearer ${env.METRICS_TOKEN}` });
    expect(metrics.body).to.include(`bookings_moved{tenant_id="${tenant.id}",by="CUSTOMER"} 1`);
    // the customer hears of the move once: no second e-mail about it
    const connection = await Connection.connect({ address: temporalAddress });
    try {
      const temporalClient = new Client({ connection });
      await eventually(() => workflowIdle(temporalClient, `booking:${id}`), 'the booking workflow to be idle', 15_000);
    } finally {
      await connection.close();
    }
    expect(mails.filter((m) => m.to.includes(email))).to.have.length(2);
  });

  it("when a guest books the demo salon's colour on one api then every part is held (the stylist's phases and buffer, the colour station), and the other api offers the stylist inside its processing but not over its work", async () => {
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.35' };
    const call = async (base: string, method: string, p: string, body?: unknown) => {
      const res = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Json };
    };
    const services = (await call(api1Base, 'GET', `/public/tenants/${DEMO_SLUG}/services`)).body.data.flatMap((g: Json) => g.services);
    const colour = services.find((x: Json) => x.name === 'Farge og striper');
    const cut = services.find((x: Json) => x.name === 'Herreklipp');
    expect(colour.duration).to.equal(120);
    const stylist = (await call(api1Base, 'GET', `/public/tenants/${DEMO_SLUG}/resources?serviceId=${colour.id}`)).body.data.find(
      (r: Json) => r.name === 'Ingrid Hansen',
    );
    const today = new Date().toISOString().slice(0, 10);
    const date: string = (
      await call(api1Base, 'POST', `/public/tenants/${DEMO_SLUG}/availability/next-available-date`, {
        items: [{ serviceId: colour.id, resourceId: stylist.id }],
        fromDate: today,
      })
    ).body.data.date;
    const slots = (await call(api1Base, 'GET', `/public/tenants/${DEMO_SLUG}/availability?serviceId=${colour.id}&resourceId=${stylist.id}&date=${date}`)).body
      .data.slots;
    // a colour late enough that its processing phase (45 minutes in) is inside the stylist's day
    const slot = slots[slots.length - 1];
    const booked = await call(api2Base, 'POST', `/public/tenants/${DEMO_SLUG}/bookings`, {
      startTime: slot.start,
      items: [{ serviceId: colour.id, resourceId: stylist.id }],
      customer: { name: 'Farge Kunde', phone: '+47 955 00 035' },
    });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    const start = Date.parse(slot.start);
    expect(Date.parse(booked.body.data.endTime) - start).to.equal(120 * 60_000);
    const segments = await db('booking_segments as g')
      .join('resources as r', 'r.id', 'g.resourceId')
      .where('g.bookingId', booked.body.data.id)
      .orderBy(['g.startTime', 'g.resourceType']);
    expect(segments.map((g: Json) => `${g.name} ${g.kind} +${(Date.parse(g.startTime) - start) / 60_000}`)).to.deep.equal([
      'Ingrid Hansen WORK +0',
      'Fargestasjon PROCESSING +45',
      'Ingrid Hansen PROCESSING +45',
      'Ingrid Hansen WORK +80',
      'Ingrid Hansen BUFFER_AFTER +120',
    ]);
    const local = (ms: number) => new Date(ms).toLocaleTimeString('en-GB', { timeZone: 'Europe/Oslo', hour: '2-digit', minute: '2-digit' });
    const cuts = (
      await call(api1Base, 'GET', `/public/tenants/${DEMO_SLUG}/availability?serviceId=${cut.id}&resourceId=${stylist.id}&date=${date}`)
    ).body.data.slots.map((x: Json) => x.localTime);
    expect(cuts, 'inside the processing phase').to.include(local(start + 45 * 60_000));
    expect(cuts, 'over the application')
      .to.not.include(local(start))
      .and.not.include(local(start + 15 * 60_000));
    const rival = await call(api1Base, 'POST', `/public/tenants/${DEMO_SLUG}/bookings`, {
      startTime: slot.start,
      items: [{ serviceId: colour.id }],
      customer: { name: 'Rival', phone: '+47 955 00 036' },
    });
    expect([rival.status, rival.body.error.code], 'the one stylist who colours and the only colour station are taken').to.deep.equal([409, 'BOOKING_CONFLICT']);
  });

  it('when the booking page is asked for at /{slug} then the api answers it from dist, with hashed assets it serves immutable and compressed', async () => {
    const client = { 'x-forwarded-for': `198.51.100.${1 + Math.floor(Math.random() * 250)}` };
    const root = api1Base.replace(/\/api$/, '');
    const page = await fetch(`${root}/${DEMO_SLUG}`, { headers: client });
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).to.contain('<h1>Salong Nordlys</h1>').and.to.contain('Velg tjenester');
    const assets = [...html.matchAll(/(?:href|src)="(\/assets\/[\w.-]+)"/g)].map((m) => m[1]);
    expect(assets.map((a) => a.replace(/-[\w-]{8}\./, '-HASH.'))).to.include('/assets/booking-HASH.js');
    for (const asset of assets) {
      const res = await fetch(root + asset, { headers: { ...client, 'accept-encoding': 'br' } });
      expect(res.status, asset).to.equal(200);
      expect(res.headers.get('content-encoding'), asset).to.equal('br');
      expect(res.headers.get('cache-control'), asset).to.equal('public, max-age=31536000, immutable');
    }
    // the other api process serves the same build
    expect((await fetch(api2Base.replace(/\/api$/, '') + assets[0], { headers: client })).status).to.equal(200);
  });

  it("when the owner runs the front desk on one api process then it is served from dist, a customer's booking through the other api shows within 5 seconds, and approving it reaches the customer while the owner was told by e-mail", async function () {
    this.timeout(120_000);
    const root = api1Base.replace(/\/api$/, '');
    const client = { 'x-forwarded-for': `198.51.100.${1 + Math.floor(Math.random() * 250)}` };
    const services = await get(api2Base, `/public/tenants/${DEMO_SLUG}/services`, client);
    const serviceId: string = services.body.data[0].services[0].id;
    const next = await fetch(`${api2Base}/public/tenants/${DEMO_SLUG}/availability/next-available-date`, {
      method: 'POST',
      headers: { ...client, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ serviceId }], fromDate: new Date().toISOString().slice(0, 10) }),
    });
    const date: string = ((await next.json()) as Json).data.date;
    const desk = await openDesk(this, { baseUrl: root, headers: client });
    try {
      const { page, shot } = desk;
      await signIn(desk, { email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD }, `/desk?date=${date}`);
      await dayDrawn(page, date);
      await shot('topology-day');
      const slots = await get(api2Base, `/public/tenants/${DEMO_SLUG}/availability?serviceId=${serviceId}&date=${date}`, client);
      const slot = slots.body.data.slots.at(-1);
      const phone = `+479${String(Date.now()).slice(-7)}`;
      const booked = await fetch(`${api2Base}/public/tenants/${DEMO_SLUG}/bookings`, {
        method: 'POST',
        headers: { ...client, 'content-type': 'application/json' },
        body: JSON.stringify({
          startTime: slot.start,
          items: [{ serviceId, resourceId: slot.items[0].resourceId }],
          customer: { name: 'Skrivebord Kunde', phone },
        }),
      });
      expect(booked.status).to.equal(201);
      // the other process's commit reaches this process's open day (Postgres NOTIFY to its listening connection)
      await page.getByRole('button', { name: /Skrivebord Kunde .*venter på godkjenning/ }).waitFor({ timeout: 5000 });
      await shot('topology-booked');
      // the earlier journeys booked the demo salon too: the owner's e-mail of this booking is the one naming its customer
      await eventually(
        async () =>
          mails.find(
            (m) => m.to.includes(DEMO_OWNER_EMAIL) && /^X-Salon-Kind: SALON:APPROVAL_NEEDED/im.test(m.raw) && textOf(m.raw).includes('Skrivebord Kunde'),
          ),
        "the owner's e-mail of this booking over SMTP",
        15_000,
      );
      // the rest from another address: the test's budget is 20 requests a minute per client (RATE_LIMIT_GLOBAL)
      await page.setExtraHTTPHeaders({ 'x-forwarded-for': `198.51.100.${1 + Math.floor(Math.random() * 250)}` });
      await page.getByRole('button', { name: /Skrivebord Kunde/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Godkjenn' }).click();
      await page
        .getByRole('dialog')
        .getByText(/^Bekreftet/)
        .waitFor();
      await shot('topology-approved');
      await eventually(
        async () => sveve!.posts.filter((f) => f.get('to') === phone.slice(1)).length >= 2,
        'the confirmation SMS after the received one',
        15_000,
      );
      expect(desk.foreignRequests()).to.deep.equal([]);
    } finally {
      await closeDesks();
    }
  });

  it("when the receptionist and a stylist run the demo salon's day from the desk on the production processes then the stylist sees only their column and marks their customer arrived, a phone booking is made, a drag onto a taken time is refused in words, and a visit goes to COMPLETED with its loyalty stamp", async function () {
    this.timeout(150_000);
    const root = api1Base.replace(/\/api$/, '');
    // the test's budget is 20 requests a minute per client (RATE_LIMIT_GLOBAL): each step comes from an address of its own
    let address = 0;
    const client = () => ({ 'x-forwarded-for': `192.0.2.${++address}` });
    const login = await fetch(`${api1Base}/auth/login`, {
      method: 'POST',
      headers: { ...client(), 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD }),
    });
    const owner = { authorization: `Bearer ${((await login.json()) as Json).data.accessToken}` };
    const send = async (p: string, body: unknown) => {
      const res = await fetch(api1Base + p, {
        method: 'POST',
        headers: { ...client(), ...owner, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as Json;
      expect(res.status, JSON.stringify(answer)).to.equal(201);
      return answer.data;
    };
    const tenant = await db('tenants').where({ slug: DEMO_SLUG }).first();
    const staffId = async (name: string): Promise<string> => (await db('resources').where({ tenantId: tenant.id, name }).first()).id;
    const [ingrid, lars] = [await staffId('Ingrid Hansen'), await staffId('Lars Johansen')];
    const cut = await db('services').where({ tenantId: tenant.id, name: 'Herreklipp' }).first();
    const weekday = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay();
    // a Tuesday to Friday three weeks ahead (both stylists work, no earlier journey booked it) and the last weekday before today (Ingrid works)
    let ahead = 21;
    while (![2, 3, 4, 5].includes(weekday(localDay(ahead)))) ahead++;
    let back = -1;
    while (![1, 2, 3, 4, 5].includes(weekday(localDay(back)))) back--;
    const [day, past] = [localDay(ahead), localDay(back)];
    const phoneBooking = (date: string, time: string, resourceId: string, name: string) =>
      send('/bookings', {
        startTime: at(date, time),
        items: [{ serviceId: cut.id, resourceId }],
        source: 'PHONE',
        customer: { name, phone: `+479${String(Date.now() + address).slice(-7)}` },
      });
    const mover = await phoneBooking(day, '10:00', ingrid, 'Flytte Kunde');
    await phoneBooking(day, '11:00', ingrid, 'Fast Kunde');
    await phoneBooking(day, '10:00', lars, 'Kollega Kunde');
    const visit = await phoneBooking(past, '10:00', ingrid, 'Stempel Kunde');
    const arrival = await phoneBooking(past, '11:00', ingrid, 'Ankomst Kunde');
    await send('/loyalty-cards', { name: 'Stempelkort', type: 'VISIT_BASED', requiredStamps: 5, rewardType: 'DISCOUNT_AMOUNT', rewardValue: 10000 });

    try {
      // the stylist: their own column, not a colleague's
      const stylist = await openDesk(this, { baseUrl: root, headers: client(), name: 'stylist' });
      await signIn(stylist, { email: 'ingrid@salong-nordlys.no', password: DEMO_PASSWORD }, `/desk?date=${day}`);
      await dayDrawn(stylist.page, day);
      await stylist.page.getByRole('button', { name: /^10:00 Flytte Kunde/ }).waitFor();
      expect(await stylist.page.getByRole('heading', { level: 3, name: 'Lars Johansen' }).count()).to.equal(0);
      expect(await stylist.page.getByRole('button', { name: /Kollega Kunde/ }).count()).to.equal(0);
      await stylist.shot('topology-stylist');
      // and marks their own customer arrived
      await stylist.page.setExtraHTTPHeaders(client());
      await stylist.page.goto(`${root}/desk?date=${past}`);
      await dayDrawn(stylist.page, past);
      await stylist.page.getByRole('button', { name: /^11:00 Ankomst Kunde/ }).click();
      await stylist.page.getByRole('dialog').getByRole('button', { name: 'Ankommet' }).click();
      await stylist.page.getByRole('dialog').getByRole('button', { name: 'Ankommet' }).waitFor({ state: 'detached' });
      expect((await db('bookings').where({ id: arrival.id }).first()).status).to.equal('ARRIVED');
      await closeDesks();

      const desk = await openDesk(this, { baseUrl: root, headers: client(), name: 'receptionist' });
      const { page, shot } = desk;
      const fresh = () => page.setExtraHTTPHeaders(client());
      await signIn(desk, { email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD }, `/desk?date=${day}`);
      await dayDrawn(page, day);

      // a phone booking for a new customer
      await fresh();
      await page.getByRole('button', { name: 'Ny time' }).click();
      const dialog = page.getByRole('dialog', { name: 'Ny time på telefon' });
      await dialog.getByLabel('Ny kunde').check();
      const phone = `+479${String(Date.now()).slice(-7)}`;
      await dialog.getByLabel('Navn', { exact: true }).fill('Telefon Kunde');
      await dialog.getByLabel('Mobilnummer').fill(phone);
      await dialog.getByLabel(/^Herreklipp/).check();
      await dialog.getByLabel('Behandler').selectOption({ label: 'Lars Johansen' });
      await dialog.getByRole('radio', { name: '13:00' }).check();
      await dialog.getByRole('button', { name: 'Bestill' }).click();
      await page.getByRole('button', { name: /^13:00 Telefon Kunde/ }).waitFor();
      const made = await db('bookings').where({ tenantId: tenant.id, contactPhone: phone }).first();
      expect(made).to.include({ status: 'CONFIRMED', source: 'PHONE', resourceId: lars });
      expect(new Date(made.startTime).toISOString()).to.equal(at(day, '13:00'));
      await shot('topology-phone-booking');

      // a drag onto a taken time, refused in words; then to a free one
      await fresh();
      const box = async (name: RegExp) => (await page.getByRole('button', { name }).first().boundingBox())!;
      const from = await box(/^10:00 Flytte Kunde/);
      const drag = async (y: number) => {
        await page.mouse.move(from.x + from.width / 2, from.y + 10);
        await page.mouse.down();
        await page.mouse.move(from.x + from.width / 2 + 5, from.y + 20, { steps: 3 });
        await page.mouse.move(from.x + from.width / 2, y, { steps: 8 });
        await page.mouse.up();
      };
      await drag((await box(/^11:00 Fast Kunde/)).y + 10);
      await page.getByRole('alert').filter({ hasText: 'Timen ble ikke flyttet: tiden er opptatt' }).waitFor();
      expect(new Date((await db('bookings').where({ id: mover.id }).first()).startTime).toISOString()).to.equal(at(day, '10:00'));
      await shot('topology-move-refused');
      await fresh();
      // 14:00 is four hours below 10:00 (1.4 px a minute)
      await drag(from.y + 10 + 4 * 60 * 1.4);
      await page.getByRole('status').filter({ hasText: 'Timen er flyttet til 14:00 hos Ingrid Hansen' }).waitFor();
      expect(new Date((await db('bookings').where({ id: mover.id }).first()).startTime).toISOString()).to.equal(at(day, '14:00'));

      // the visit to COMPLETED from its card, and the stamp the worker process gives for it
      await fresh();
      await page.goto(`${root}/desk?date=${past}`);
      await dayDrawn(page, past);
      await page.getByRole('button', { name: /Stempel Kunde/ }).click();
      const card = page.getByRole('dialog');
      for (const step of ['Ankommet', 'Start', 'Fullført']) {
        await fresh();
        await card.getByRole('button', { name: step }).click();
        await card.getByRole('button', { name: step }).waitFor({ state: 'detached' });
      }
      expect((await db('bookings').where({ id: visit.id }).first()).status).to.equal('COMPLETED');
      await card.getByRole('button', { name: 'Lukk' }).click();
      await fresh();
      await page.getByRole('link', { name: 'Kunder' }).click();
      await page.getByLabel('Søk etter kunde').fill('Stempel Kunde');
      await page.getByRole('button', { name: /^Stempel Kunde/ }).click();
      await eventually(
        async () => {
          if (await page.getByText('Stempelkort: 1 av 5 stempler').isVisible()) return true;
          await fresh();
          await page.getByRole('button', { name: /^Stempel Kunde/ }).click();
          return false;
        },
        'the stamp on the customer card',
        15_000,
      );
      await shot('topology-stamp');
      expect(desk.foreignRequests()).to.deep.equal([]);
    } finally {
      await closeDesks();
    }
  });

  it('when a customer signs in with an ID token of the configured OpenID Connect provider then the api verifies it against the published keys, and a replay at the other api process is refused', async () => {
    const { idToken, nonce } = await devSignIn(idp!, { email: `topology-${Date.now()}@example.test`, name: 'Topo' });
    const first = await post(api1Base, '/auth/customer/oauth', { idToken, nonce });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    const me = await get(api2Base, '/auth/customer/me', { authorization: `Bearer ${first.body.data.accessToken}` });
    expect(me.status).to.equal(200);
    expect((await post(api2Base, '/auth/customer/oauth', { idToken, nonce })).status).to.equal(401);
  });

  it('when one client IP alternates between the two api processes then they count one budget (X-Forwarded-For behind one proxy)', async () => {
    const headers = { 'x-forwarded-for': `198.51.100.${1 + Math.floor(Math.random() * 250)}` };
    const remaining: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await get(i % 2 ? api2Base : api1Base, '/health', headers);
      expect(res.status, `request ${i + 1}`).to.equal(200);
      remaining.push(res.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).to.deep.equal(Array.from({ length: 20 }, (_, i) => String(19 - i)));
    const refused = await get(api2Base, '/health', headers);
    expect(refused.status).to.equal(429);
    expect(refused.body.error.code).to.equal('RATE_LIMIT_EXCEEDED');
    // another client behind the same proxy has its own budget
    expect((await get(api1Base, '/health', { 'x-forwarded-for': '198.51.100.251' })).status).to.equal(200);
  });

  it('when the owner uploads a logo on one api and it is signed and rendered on both then the S3_ENDPOINT storage serves every process (the variant rendered once)', async () => {
    const client = { 'x-forwarded-for': `203.0.113.${1 + Math.floor(Math.random() * 250)}` };
    const login = await fetch(`${api1Base}/auth/login`, {
      method: 'POST',
      headers: { ...client, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'eier@salong-nordlys.no', password: 'nordlys-demo' }),
    });
    const auth = { ...client, authorization: `Bearer ${((await login.json()) as Json).data.accessToken}` };
    const form = new FormData();
    form.append('purpose', 'TENANT_LOGO');
    form.append(
      'file',
      new Blob(
        [
          await sharp({ create: { width: 400, height: 400, channels: 3, background: '#8040c0' } })
            .png()
            .toBuffer(),
        ],
        { type: 'image/png' },
      ),
      'logo.png',
    );
    const uploaded = (await (await fetch(`${api1Base}/upload`, { method: 'POST', headers: auth, body: form })).json()) as Json;
    expect(uploaded.data.key, JSON.stringify(uploaded)).to.match(/\.png$/);
    const tenant = (await get(api2Base, '/tenants/me', auth)).body.data;
    const patched = await fetch(`${api2Base}/tenants/${tenant.id}`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ branding: { logoKey: uploaded.data.key } }),
    });
    expect(patched.status).to.equal(200);
    const signed = (await get(api2Base, `/image-proxy/sign?key=${uploaded.data.key}`, auth)).body.data;
    const path = new URL(signed.url).pathname.replace(/^\/api/, '') + new URL(signed.url).search;
    const first = await fetch(api1Base + path, { headers: { ...client, accept: 'image/webp' } });
    const second = await fetch(api2Base + path, { headers: { ...client, accept: 'image/webp' } });
    expect([first.status, first.headers.get('x-image-cache'), second.status, second.headers.get('x-image-cache')]).to.deep.equal([200, 'MISS', 200, 'HIT']);
    expect((await sharp(Buffer.from(await second.arrayBuffer())).metadata()).width).to.equal(200);
  });

  it('when a URL is over 16 KB or the request is not HTTP then the api answers in the envelope (431 / 400), not with a bare status line', async () => {
    const port = Number(new URL(api1Base).port);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    const long = await raw(`GET /api/public/tenants?search=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(long).to.match(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(long.slice(long.indexOf('\r\n\r\n') + 4))).to.deep.equal({
      success: false,
      error: { code: 'REQUEST_HEADERS_TOO_LARGE', message: 'The URL and headers together are over 16 KB' },
    });
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).to.match(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4)).error.code).to.equal('MALFORMED_REQUEST');
  });

  it('when api and worker get SIGTERM then a request in flight still gets its answer and both exit 0', async () => {
    const port = Number(new URL(api2Base).port);
    const body = JSON.stringify({ email: 'nobody@example.no', password: 'wrong-password' });
    const answer = new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/auth/login',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      // the request is in flight (headers and half the body sent) when SIGTERM arrives
      setTimeout(() => {
        api2.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 500);
      }, 300);
    });
    expect(await answer).to.equal(401);
    expect(await api2.exited, api2.output).to.equal(0);
    worker.child.kill('SIGTERM');
    api1.child.kill('SIGTERM');
    expect(await worker.exited, worker.output).to.equal(0);
    expect(await api1.exited, api1.output).to.equal(0);
    temporal.child.kill('SIGTERM');
  });
});
