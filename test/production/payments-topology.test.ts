// Payments in the production topology (docs/design.md#testing): bin/api and bin/worker as
// separate processes configured by environment only (PAYMENT_SANDBOX_URL, PAYMENT_WEBHOOK_BASE_URL),
// a Temporal frontend of its own, and the sandbox provider posting its signed webhook over real HTTP
// to the api; the worker's payment workflow then confirms the booking and marks the deposit paid.
// Vipps MobilePay the same way (VIPPS_API_URL): its sandbox signs its webhook to the address the
// config's check registered, and the worker captures the reservation at Vipps.
import crypto from 'node:crypto';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { suitePostgres } from '../support/postgres';
import { run, type Proc } from '../support/processes';
import { startTemporalFrontend } from '../support/temporal';
import { answers200, eventually } from '../support/eventually';
import { freePort } from '../../devstack/postgres';
import { seedDemoSalon, DEMO_SLUG } from '../../domain/demo/demo-salon';
import { parseKeyring, sealCredentials } from '../../domain/crypto/credential-cipher';
import { paymentConfigBinding } from '../../domain/payments/payment-config.service';
import { startSandboxServer, type SandboxServer } from '../../devstack/payment-sandbox-server';
import { startEmbeddedS3, type EmbeddedS3 } from '../../devstack/s3-for-dev';
import { startVippsSandbox, vippsSandboxSalesUnit, type VippsSandbox } from '../../devstack/vipps-sandbox-server';
import { healthCheckConfig } from '../../domain/payments/payment-config.service';
import { createPaymentProviders } from '../../integrations/payments/providers';
import { answerInVipps } from '../support/payments';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('production topology: a deposit paid through the sandbox provider with api and worker as separate processes', function () {
  this.timeout(120_000);
  let temporal: Proc;
  let api: Proc;
  let worker: Proc;
  let apiBase: string;
  let db: Knex;
  let adminDb: Knex;
  let dbName: string;
  let sandbox: SandboxServer;
  let vipps: VippsSandbox;
  let s3: EmbeddedS3 | undefined;
  const credentialKeys = `1:${Buffer.alloc(32, 9).toString('base64')}`;

  before(async function () {
    this.timeout(120_000);
    const { url: base, dir } = await suitePostgres();
    dbName = `payments_topology_${process.pid}_${Date.now()}`;
    adminDb = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
    await adminDb.raw(`CREATE DATABASE "${dbName}"`);
    const databaseUrl = base.replace(/\/[^/]+$/, `/${dbName}`);
    sandbox = await startSandboxServer();
    vipps = await startVippsSandbox();
    s3 = await startEmbeddedS3({ dataDir: `${dir}/payments-topology-${process.pid}`, bucket: 'salon-payments-topology' });
    const temporalPort = await freePort();
    const temporalAddress = `127.0.0.1:${temporalPort}`;
    temporal = await startTemporalFrontend({ port: temporalPort, postgresUrl: base });
    const port = await freePort();
    apiBase = `http://127.0.0.1:${port}/api`;
    const env: NodeJS.ProcessEnv = {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_TASK_QUEUE: 'salon-payments-topology',
      JWT_SECRET: 'payments-topology-jwt-secret-0123456789',
      ADMIN_EMAIL: 'admin@payments-topology.test',
      ADMIN_PASSWORD: 'payments-topology-admin',
      CREDENTIAL_KEYS: credentialKeys,
      PASSWORD_HASH_ROUNDS: '10',
      PAYMENT_SANDBOX_URL: sandbox.url,
      VIPPS_API_URL: vipps.url,
      PAYMENT_WEBHOOK_BASE_URL: apiBase,
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: 'salon-payments-topology',
      IMAGE_PROXY_SECRET: 'payments-topology-image-proxy-secret-0123',
      LOG_LEVEL: 'warn',
    };
    const migrate = run('bin/migrate.js', env);
    expect(await migrate.exited, migrate.output).to.equal(0);
    db = knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 2 }, ...knexSnakeCaseMappers() });
    await seedDemoSalon(db, { passwordHashRounds: 4 });
    api = run('bin/api.js', { ...env, PORT: String(port) });
    const workerHealth = await freePort();
    worker = run('bin/worker.js', { ...env, WORKER_HEALTH_PORT: String(workerHealth) });
    await eventually(
      () => answers200(`${apiBase}/health`),
      () => `the api (${api.output})`,
      45_000,
    );
    await eventually(
      () => answers200(`http://127.0.0.1:${workerHealth}/`),
      () => `the worker (${worker.output})`,
      45_000,
    );
  });

  after(async function () {
    this.timeout(30_000);
    for (const p of [api, worker, temporal]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
    await sandbox?.close();
    await vipps?.close();
    await s3?.stop();
    await db?.destroy();
    await adminDb?.raw(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    await adminDb?.destroy();
  });

  /** A guest books the first (`slot: 'first'`) or last free time of the demo salon's first service through the public API, and opens its payment. */
  async function bookAndOpenPayment(customer: { name: string; phone: string }, slot: 'first' | 'last') {
    const json = async (res: Response): Promise<{ status: number; body: Json }> => ({ status: res.status, body: await res.json() });
    const post = (p: string, body: unknown) =>
      fetch(apiBase + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(json);
    const services = await json(await fetch(`${apiBase}/public/tenants/${DEMO_SLUG}/services`));
    const serviceId: string = services.body.data[0].services[0].id;
    const next = await post(`/public/tenants/${DEMO_SLUG}/availability/next-available-date`, {
      items: [{ serviceId }],
      fromDate: new Date().toISOString().slice(0, 10),
    });
    const slots = await json(await fetch(`${apiBase}/public/tenants/${DEMO_SLUG}/availability?serviceId=${serviceId}&date=${next.body.data.date}`));
    const created = await post(`/public/tenants/${DEMO_SLUG}/bookings`, {
      startTime: (slot === 'first' ? slots.body.data.slots[0] : slots.body.data.slots.at(-1)).start,
      items: [{ serviceId }],
      customer,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.data.paymentRequired).to.equal(true);
    const bookingId: string = created.body.data.id;
    const page = await eventually(
      async () => {
        const res = await json(
          await fetch(`${apiBase}/public/tenants/${DEMO_SLUG}/bookings/${bookingId}/payment?token=${encodeURIComponent(created.body.data.manageToken)}`),
        );
        return res.body.data?.redirectUrl ? res.body.data : undefined;
      },
      'the checkout session',
      15_000,
    );
    return { bookingId, page };
  }

  it('when a guest books at a deposit salon and pays on the sandbox page then the webhook reaches the api and the worker confirms the booking and marks the deposit PAID', async () => {
    const tenant = await db('tenants').where({ slug: DEMO_SLUG }).first();
    await db('tenants')
      .where({ id: tenant.id })
      .update({ settings: JSON.stringify({ ...tenant.settings, depositEnabled: true, depositType: 'percentage', depositValue: 20, autoConfirm: false }) });
    const configId = crypto.randomUUID();
    const sealed = sealCredentials(
      parseKeyring(credentialKeys),
      { apiKey: 'sk_test_topology0001' },
      paymentConfigBinding({ tenantId: tenant.id, id: configId }),
    );
    await db('payment_configs').insert({
      id: configId,
      tenantId: tenant.id,
      provider: 'sandbox',
      displayName: 'Sandbox',
      captureMode: 'AUTO',
      isActive: true,
      credentialsSealed: sealed.sealed,
      keyVersion: sealed.keyVersion,
    });

    const { bookingId, page } = await bookAndOpenPayment({ name: 'Topo Betaler', phone: '+47 955 00 111' }, 'first');
    const paid = await fetch(`${page.redirectUrl}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).to.equal(303);
    expect(sandbox.delivered.at(-1)!.status).to.equal(200);

    const booking = await eventually(
      async () => {
        const row = await db('bookings').where({ id: bookingId }).first();
        return row.status === 'CONFIRMED' && row.depositStatus === 'PAID' ? row : undefined;
      },
      'the booking to be confirmed and paid',
      30_000,
    );
    expect(booking.depositStatus).to.equal('PAID');
    expect(await db('payments').where({ bookingId }).first()).to.include({ status: 'CAPTURED' });
  });

  it('when a guest pays the deposit with Vipps on its landing page then the signed webhook reaches the api, and the worker captures the reservation at Vipps and marks the deposit PAID', async () => {
    const tenant = await db('tenants').where({ slug: DEMO_SLUG }).first();
    await db('tenants')
      .where({ id: tenant.id })
      .update({ settings: JSON.stringify({ ...tenant.settings, depositEnabled: true, depositType: 'percentage', depositValue: 20, autoConfirm: false }) });
    await db('payment_configs').where({ tenantId: tenant.id }).update({ isActive: false });
    const configId = crypto.randomUUID();
    const keyring = parseKeyring(credentialKeys);
    const sealed = sealCredentials(keyring, vippsSandboxSalesUnit(), paymentConfigBinding({ tenantId: tenant.id, id: configId }));
    await db('payment_configs').insert({
      id: configId,
      tenantId: tenant.id,
      provider: 'vipps',
      displayName: 'Vipps MobilePay',
      captureMode: 'AUTO',
      isActive: true,
      credentialsSealed: sealed.sealed,
      keyVersion: sealed.keyVersion,
    });
    // the owner's check registers the salon's webhook at Vipps, for the api's address
    const providers = createPaymentProviders({
      epay: { windowUrl: 'http://127.0.0.1:1', apiUrl: 'http://127.0.0.1:1' },
      vipps: { apiUrl: vipps.url },
      webhookBaseUrl: apiBase,
      returnBaseUrl: apiBase,
    });
    expect((await healthCheckConfig({ knex: db, keyring, providers }, tenant.id, configId)).lastHealthCheckStatus).to.equal('OK');

    const { bookingId, page } = await bookAndOpenPayment({ name: 'Topo Vipps', phone: '+47 955 00 222' }, 'last');
    await answerInVipps(page.redirectUrl, 'approve');
    await eventually(
      async () => vipps.delivered.find((d) => d.reference === page.paymentId && d.name === 'AUTHORIZED')?.status === 200,
      'the webhook taken by the api',
    );
    const booking = await eventually(
      async () => {
        const row = await db('bookings').where({ id: bookingId }).first();
        return row.status === 'CONFIRMED' && row.depositStatus === 'PAID' ? row : undefined;
      },
      () => `the booking to be confirmed and paid (${worker.output.slice(-1500)})`,
      30_000,
    );
    expect(booking.depositStatus).to.equal('PAID');
    expect(vipps.payment(page.paymentId)!.aggregate.capturedAmount.value).to.be.above(0);
    expect(vipps.payment(page.paymentId)!.state, 'Vipps keeps AUTHORIZED after the capture').to.equal('AUTHORIZED');
  });
});
