// The embedded stack for API tests, started once per mocha run on first use: the run's embedded
// Postgres (test/support/postgres.ts), migrations, the platform admin, our Temporal dev server with the
// platform's real worker, and the real Express app with response validation against openapi.yaml.
// Tests stay isolated by creating their own tenants. `signaller.sent` records every workflow signal
// the api sent (and they are delivered to the real workflows too).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { Model } from 'objection';
import { loadConfig, type AppConfig } from '../../config';
import { createApp } from '../../api/app';
import { startPlatform, type Platform } from '../../devstack/platform';
import { createLogger } from '../../integrations/logger';
import { RecordingSignaller } from './recording-signaller';
import { TemporalSignaller } from '../../integrations/temporal/temporal-signaller';
import { FolderSmsSender } from '../../integrations/sms/sms-sender';
import { startWorker, type RunningWorker } from '../../composition/worker';
import { postgresRateLimitStores } from '../../api/middleware/rate-limit-store';
import { startTestTemporal, stopTestTemporal } from './temporal';
import { suitePostgres } from './postgres';
import { startDevIdentityProvider, type DevIdentityProvider } from '../../devstack/oidc/dev-identity-provider';
import { startSandboxServer, type SandboxServer } from '../../devstack/payment-sandbox-server';
import { startEpayStandIn, type EpayStandIn } from './epay-stand-in';
import { startVippsSandbox, type VippsSandbox } from '../../devstack/vipps-sandbox-server';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startBillingSandbox } from '../../devstack/billing-sandbox';
import type { SandboxBillingServer } from '../../devstack/billing-sandbox-server';
import { createBillingProviders } from '../../integrations/billing/providers';
import { accountMessageConfig, bookingLinkConfig } from '../../composition/compose';
import { bookingHooks } from '../../composition/domain-hooks';
import { ApiLoadGate } from '../../composition/api-load';
import { platformWorkflowBundle } from '../workflows/support/platform-bundle';

export interface TestStack {
  app: Express;
  platform: Platform;
  config: AppConfig;
  /** every signal the api sent to a workflow, in order */
  signaller: RecordingSignaller;
  /** SMS the worker sent, readable by recipient */
  sms: FolderSmsSender;
  worker: RunningWorker;
  /** where the worker's activities wait while it says the api is busy (as `npm start`'s api tells it); idle unless a test sets it */
  apiLoad: ApiLoadGate;
  /** the embedded OpenID Connect provider customers sign in with (OIDC_ISSUER of this stack) */
  idp: DevIdentityProvider;
  /** the sandbox payment provider; its webhooks reach the app through supertest */
  sandbox: SandboxServer;
  /** the stand-in of ePay, the default provider; its callbacks reach the app through supertest */
  epay: EpayStandIn;
  /** the Vipps MobilePay sandbox (VIPPS_API_URL); its signed webhooks reach the app through supertest */
  vipps: VippsSandbox;
  /** the sandbox billing provider; its webhooks go to `baseUrl` (the app below, listening on loopback) */
  billingSandbox: { server: SandboxBillingServer; apiKey: string; webhookSecret: string };
  /** http://127.0.0.1:<port> of `app` */
  baseUrl: string;
}

let starting: Promise<TestStack> | undefined;

/** The inbound SMS webhook's shared secret (`key`) on the shared stack's app (docs/rules/reminders.md#answering-by-sms). */
export const TEST_SMS_REPLY_SECRET = 'test-sms-reply-secret-0123456789';

/** The bearer token of GET /api/metrics on the shared stack's app. */
export const TEST_METRICS_TOKEN = 'test-metrics-token-0123456789';
let tmpDir: string | undefined;

/** Settings for tests: fast password hashing, rate limits out of the way (rate-limit tests build their own app). */
export function testConfig(overrides: NodeJS.ProcessEnv = {}): AppConfig {
  tmpDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'salon-test-'));
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: tmpDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PASSWORD_HASH_ROUNDS: '4',
    RATE_LIMIT_GLOBAL: '1000000',
    RATE_LIMIT_AUTH: '1000000',
    RATE_LIMIT_BOOKING_CREATE: '1000000',
    RATE_LIMIT_BOOKING_MOVE: '1000000',
    RATE_LIMIT_BOOKING_MOVE_PER_BOOKING: '1000000',
    RATE_LIMIT_UPLOAD: '1000000',
    RATE_LIMIT_PRESIGNED_PUT: '1000000',
    RATE_LIMIT_PRESIGNED_GET: '1000000',
    RATE_LIMIT_UPLOAD_DELETE: '1000000',
    RATE_LIMIT_IMAGE_SIGN: '1000000',
    RATE_LIMIT_SUBSCRIPTION_WEBHOOK: '1000000',
    RATE_LIMIT_PERSONAL_DATA: '1000000',
    JWT_SECRET: 'test-secret-for-jwt-signing-0123456789',
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    SMS_REPLY_SECRET: TEST_SMS_REPLY_SECRET,
    ADMIN_EMAIL: 'admin@test.local',
    ADMIN_PASSWORD: 'admin-test-password',
    ...overrides,
  });
}

export function stack(): Promise<TestStack> {
  starting ??= (async () => {
    const temporal = await startTestTemporal();
    let app: Express | undefined;
    // The app listens on loopback before it is built, so its address can be its PUBLIC_BASE_URL:
    // links in messages, the payment provider's return address and the sign-in callback point at it
    // (the browser tests follow them).
    const listening = http.createServer((req, res) => app!(req, res));
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', () => resolve()));
    const baseUrl = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    const idp = await startDevIdentityProvider({ redirectUris: [`${baseUrl}/customer-sign-in`] });
    // the sandbox posts its signed webhooks to the app's webhook route (the raw bytes, as signed)
    const sandbox = await startSandboxServer({
      deliver: async (url, body, headers) => {
        const res = await request(app!)
          .post(new URL(url).pathname)
          .set({ ...headers, 'content-type': 'application/json' })
          .send(body);
        return res.status;
      },
    });
    // Vipps signs the registered address (PAYMENT_WEBHOOK_BASE_URL's host): the request keeps that host
    const vipps = await startVippsSandbox({
      deliver: async (url, body, headers) => {
        const res = await request(app!)
          .post(new URL(url).pathname + new URL(url).search)
          .set({ ...headers, 'content-type': 'application/json' })
          .send(body);
        return res.status;
      },
    });
    const epay = await startEpayStandIn(async (url) => {
      const target = new URL(url);
      return (await request(app!).get(target.pathname + target.search)).status;
    });
    const config = testConfig({
      DATABASE_URL: (await suitePostgres()).url,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_TASK_QUEUE: `salon-test-${process.pid}`,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      PAYMENT_SANDBOX_URL: sandbox.url,
      PAYMENT_WEBHOOK_BASE_URL: 'http://platform.test/api',
      PUBLIC_BASE_URL: baseUrl,
      EPAY_WINDOW_URL: epay.windowUrl,
      EPAY_API_URL: epay.apiUrl,
      VIPPS_API_URL: vipps.url,
    });
    const temporalSignaller = new TemporalSignaller({ address: temporal.address, namespace: config.temporalNamespace, taskQueue: config.temporalTaskQueue });
    const signaller = new RecordingSignaller(temporalSignaller);
    const platform = await startPlatform(config, {
      persistentData: false,
      logger: createLogger(config.logLevel),
      signaller,
      rateLimitPrefix: `test-${process.pid}-`,
    });
    // Tests only: test code reads and writes rows through the Objection models without passing a
    // handle (TenantModel.query()). The application never relies on this binding; eslint forbids
    // handle-less queries outside test/.
    Model.knex(platform.knex);
    const sms = new FolderSmsSender(config.smsOutboxDir);
    // a hold limit past any test's wait: what the gate holds while a test says busy goes on only when it says idle
    const apiLoad = new ApiLoadGate(60_000);
    const worker = await startWorker({
      address: temporal.address,
      namespace: config.temporalNamespace,
      taskQueue: config.temporalTaskQueue,
      activityDeps: {
        knex: platform.knex,
        mailer: platform.mailer,
        sms,
        storage: platform.deps.storage,
        payments: {
          signaller,
          providers: platform.deps.paymentProviders!,
          keyring: config.credentialKeys,
          manageLinkKey: config.keys.manageLink,
          bookingHooks,
        },
        credentialKeys: config.credentialKeys,
        billingProviders: createBillingProviders(),
        links: bookingLinkConfig(config),
        accounts: accountMessageConfig(config),
      },
      yieldTo: apiLoad,
      workflowBundle: await platformWorkflowBundle(),
    });
    platform.onStop(async () => {
      await worker.shutdown();
      await temporalSignaller.close();
      await stopTestTemporal();
      await idp.stop();
      await sandbox.close();
      await vipps.close();
      await epay.close();
    });
    app = createApp(platform.deps, { validateResponses: true });
    const billingSandbox = await startBillingSandbox(`${baseUrl}/api/webhooks/subscription/sandbox`);
    platform.onStop(async () => {
      await billingSandbox.server.stop();
      listening.closeAllConnections();
      await new Promise<void>((resolve) => listening.close(() => resolve()));
    });
    return { app, platform, config: platform.deps.config, signaller, sms, worker, apiLoad, idp, sandbox, vipps, epay, billingSandbox, baseUrl };
  })();
  return starting;
}

let appsWith = 0;

/**
 * A second app on the same database with other settings (e.g. the real default rate limits). Its
 * rate-limit counters (in Postgres, like production) are its own: a fresh budget per app.
 */
export async function appWith(overrides: NodeJS.ProcessEnv): Promise<Express> {
  const { platform } = await stack();
  const config = { ...testConfig(overrides), databaseUrl: platform.deps.config.databaseUrl, storage: platform.deps.config.storage };
  const rateLimitStore = postgresRateLimitStores(platform.knex, `test-${process.pid}-app${++appsWith}-`);
  return createApp({ ...platform.deps, config, rateLimitStore }, { validateResponses: true });
}

/**
 * The stack's app on a clock the test moves: `at.set(date)` (or `at.advance(ms)`) before a request,
 * and every domain service of that request reads it (the access-token check and session lengths too).
 */
export async function appOnClock(start = new Date()): Promise<{ app: Express; at: { now(): Date; set(date: Date): void; advance(ms: number): void } }> {
  const { platform } = await stack();
  let current = new Date(start);
  const at = {
    now: () => new Date(current),
    set: (date: Date) => void (current = new Date(date)),
    advance: (ms: number) => void (current = new Date(current.getTime() + ms)),
  };
  return { app: createApp({ ...platform.deps, now: at.now }, { validateResponses: true }), at };
}

export async function stopStack(): Promise<void> {
  if (!starting) return;
  const { platform } = await starting;
  starting = undefined;
  await platform.stop();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  tmpDir = undefined;
}
