#!/usr/bin/env node
// `npm start`: the whole platform in one process tree. Anything not configured is started embedded:
// Postgres in DATA_DIR (kept across restarts) unless DATABASE_URL, a Temporal dev server unless
// TEMPORAL_ADDRESS; then migrations, seeds, the worker and the API. The api serves HTTP on this
// process's event loop alone: the Temporal dev server and the worker (bin/worker.ts) run in processes
// of their own, the worker at a lower CPU priority so that it yields to the api under load.
// `npm run migrate` runs this with --migrate-only: the embedded database (or DATABASE_URL) is
// migrated, the count printed, and everything stopped again.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, DEV_ADMIN_PASSWORD, type AppConfig } from '../config';
import { startDatabase, startPlatform } from '../devstack/platform';
import { devTemporalAddress, devTemporalCli, startTemporalForDev, stopChild } from '../devstack/temporal-for-dev';
import { createKnex } from '../db/knex';
import { staffLoginsOfSalon } from '../domain/users/user.repository';
import { createLogger } from '../integrations/logger';
import { createTemporalSignaller } from '../composition/compose';
import { describeMigrations, runMigrations } from '../composition/migrations';
import { closeServer, startApi } from '../composition/http-server';
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { PortBusyError, portInUse } from '../composition/ports';
import { startSandboxServer } from '../devstack/payment-sandbox-server';
import { startVippsSandbox } from '../devstack/vipps-sandbox-server';
import { seedDemoSalon, DEMO_OWNER_EMAIL, DEMO_PASSWORD, DEMO_SLUG } from '../domain/demo/demo-salon';
import { seedDemoDay } from '../domain/demo/demo-day';
import { startDevIdentityProvider } from '../devstack/oidc/dev-identity-provider';
import { giveDemoSalonSandboxPayments } from '../devstack/payment-sandbox';
import { startBillingSandbox, useSandboxBillingConfig } from '../devstack/billing-sandbox';
import { watchApiLoad, type ApiLoadMessage } from '../composition/api-load';
import { devSmsReplySecret, startSmsSandbox } from '../devstack/sms-sandbox';

/** One `npm start` per data folder: a second one would fight the first over the embedded Postgres. */
function claimDataDir(config: AppConfig): () => void {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const lock = path.join(config.dataDir, 'npm-start.pid');
  try {
    const [pid, port] = fs.readFileSync(lock, 'utf8').trim().split(/\s+/).map(Number);
    if (pid && pid !== process.pid && alive(pid)) {
      fail(`npm start is already running in this folder (pid ${pid}, http://localhost:${port}/api); stop it first, or use another DATA_DIR`);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.writeFileSync(lock, `${process.pid} ${config.port}\n`);
  return () => fs.rmSync(lock, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The lowest priority: when the api and the worker both want the CPU (a burst of bookings), the api's
 * requests run and the confirmations wait until it idles; a niceness of 5 or 10 still let the worker
 * take a third of a burst's CPU (docs/rules/consistency.md#worker-priority). The worker's activities
 * also wait while the api says it is saturated (composition/api-load.ts, wired below).
 */
const WORKER_NICENESS = 19;

/** bin/worker.ts as a child process (the same worker production runs), up once it says it polls. */
async function startWorkerProcess(env: Record<string, string | undefined>): Promise<ChildProcess> {
  const child = fork(require.resolve('./worker'), [], {
    env: { ...process.env, ...env },
    execArgv: __filename.endsWith('.ts') ? ['--require', 'tsx/cjs'] : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    os.setPriority(child.pid!, WORKER_NICENESS);
  } catch {
    // not permitted here: the worker runs at the api's priority
  }
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before it ran`)));
  });
  return child;
}

function fail(line: string): never {
  console.error(line);
  process.exit(1);
}

async function migrateOnly(config: AppConfig): Promise<void> {
  const logger = createLogger(config.logLevel);
  const release = config.databaseUrl ? () => undefined : claimDataDir(config);
  const { databaseUrl, embeddedPostgres } = await startDatabase(config, { logger });
  const knex = createKnex(databaseUrl);
  try {
    const report = await runMigrations(knex, { ...config, databaseUrl });
    console.log(`migrate (${embeddedPostgres ? `embedded Postgres in ${config.dataDir}/postgres` : 'DATABASE_URL'}): ${describeMigrations(report)}`);
  } finally {
    await knex.destroy();
    await embeddedPostgres?.stop();
    release();
  }
}

async function main(): Promise<void> {
  let config = loadConfig();
  if (process.argv.includes('--migrate-only')) return migrateOnly(config);

  // Everything that can refuse to start does so before anything is started.
  const release = config.databaseUrl ? () => undefined : claimDataDir(config);
  // the official Temporal CLI npm ci installed (or TEMPORAL_CLI_PATH): without it, the installer's line
  const temporalCli = devTemporalCli({ address: config.temporalAddress });
  if (temporalCli && 'refusal' in temporalCli) {
    release();
    fail(temporalCli.refusal);
  }
  if (await portInUse(config.port)) {
    release();
    fail(new PortBusyError('PORT', config.port).message);
  }
  if (!config.temporalAddress && (await portInUse(config.temporalPort, '127.0.0.1'))) {
    release();
    fail(new PortBusyError('TEMPORAL_PORT', config.temporalPort).message);
  }
  if (!config.temporalAddress && config.temporalUiPort && (await portInUse(config.temporalUiPort, '127.0.0.1'))) {
    release();
    fail(new PortBusyError('TEMPORAL_UI_PORT', config.temporalUiPort).message);
  }

  // Customer sign-in: the embedded OpenID Connect provider unless OIDC_ISSUER points at a real one.
  if (!config.oidc && (await portInUse(config.oidcDevPort, '127.0.0.1'))) {
    release();
    fail(new PortBusyError('OIDC_DEV_PORT', config.oidcDevPort).message);
  }
  const idp = config.oidc
    ? undefined
    : await startDevIdentityProvider({ port: config.oidcDevPort, redirectUris: [`${config.publicBaseUrl}/customer-sign-in`] });
  if (idp) config = { ...config, oidc: { issuer: idp.issuer, audiences: [idp.clientId] } };

  const temporalAddress = devTemporalAddress({ address: config.temporalAddress, port: config.temporalPort });
  const signaller = createTemporalSignaller({ ...config, temporalAddress });
  // the sandbox payment provider (hosted checkout + signed webhooks) unless PAYMENT_SANDBOX_URL points elsewhere
  const sandbox = config.payments.sandboxUrl ? undefined : await startSandboxServer();
  if (sandbox) config.payments.sandboxUrl = sandbox.url;
  // the Vipps MobilePay sandbox (its APIs, a landing page for a test phone, signed webhooks) unless VIPPS_API_URL points at Vipps
  const vipps = config.payments.vipps.apiUrl ? undefined : await startVippsSandbox({ stateFile: path.join(config.dataDir, 'vipps-sandbox.json') });
  if (vipps) config.payments.vipps.apiUrl = vipps.url;
  // replies to reminders by SMS: the webhook's secret (made once per DATA_DIR unless SMS_REPLY_SECRET)
  config = { ...config, smsReplySecret: devSmsReplySecret(config.dataDir, config.smsReplySecret) };
  const platform = await startPlatform(config, { signaller, callerHandlesSignals: true });
  if (sandbox) platform.onStop(() => sandbox.close());
  if (vipps) platform.onStop(() => vipps.close());
  platform.onStop(async () => release());
  if (idp) platform.onStop(() => idp.stop());
  const temporal = await startTemporalForDev({
    address: config.temporalAddress,
    port: config.temporalPort,
    uiPort: config.temporalUiPort,
    dataDir: path.join(config.dataDir, 'temporal'),
    namespace: config.temporalNamespace,
  });
  const demo = await seedDemoSalon(platform.knex, { passwordHashRounds: config.passwordHashRounds });
  // the new demo salon pays through the embedded sandbox provider: deposits are one PATCH away
  if (demo.created && sandbox) {
    await giveDemoSalonSandboxPayments({ knex: platform.knex, keyring: config.credentialKeys, providers: platform.deps.paymentProviders! }, demo.tenantId, {
      vipps: Boolean(vipps),
    });
  }
  // the sandbox billing provider: checkout and portal pages on loopback posting signed webhooks here
  const billing = await startBillingSandbox(`http://127.0.0.1:${config.port}/api/webhooks/subscription/sandbox`);
  platform.onStop(() => billing.server.stop());
  await useSandboxBillingConfig(platform.knex, config.credentialKeys, billing);
  const worker = await startWorkerProcess({
    DATABASE_URL: platform.deps.config.databaseUrl,
    TEMPORAL_ADDRESS: temporal.address,
    S3_ENDPOINT: platform.embeddedS3?.endpoint ?? config.storage.endpoint,
    PAYMENT_SANDBOX_URL: config.payments.sandboxUrl,
    VIPPS_API_URL: config.payments.vipps.apiUrl,
  });
  // a real day for the front desk: the demo salon's next open day gets its bookings when it has none
  // (after the worker started, so every booking's workflow runs at once; before the api answers, so npm
  // start is ready, and can be stopped, once it is done)
  const demoDay = await seedDemoDay({
    knex: platform.knex,
    signaller: platform.deps.signaller,
    manageLinkKey: platform.deps.config.keys.manageLink,
    now: platform.deps.now,
    bookingHooks: platform.deps.hooks.booking,
  });
  const server = await startApi(platform.deps, config.port);
  // the SMS sandbox: reply to a reminder as a phone (docs/development.md#replying-to-a-reminder-by-sms)
  const smsSandbox = await startSmsSandbox({
    webhookUrl: `http://127.0.0.1:${config.port}/api/webhooks/sms/sveve`,
    secret: config.smsReplySecret!,
    outboxDir: config.smsOutboxDir,
  });
  platform.onStop(() => smsSandbox.close());
  // the worker's activities wait while the api's event loop is saturated (docs/rules/consistency.md#worker-priority)
  // (a worker that is already stopping misses nothing: its send error is dropped)
  const stopWatchingLoad = watchApiLoad((apiLoad) => worker.connected && worker.send({ apiLoad } satisfies ApiLoadMessage, () => undefined));
  platform.onStop(async () => {
    stopWatchingLoad();
    await stopChild(worker);
    await signaller.close();
    await temporal.stop();
  });

  const staff = await staffLoginsOfSalon(platform.knex, DEMO_SLUG);
  const base = `http://localhost:${config.port}/api`;
  const demoPassword = demo.created ? DEMO_PASSWORD : `${DEMO_PASSWORD} (unless changed since)`;
  console.log(
    [
      '',
      'Salon platform is running',
      `  Node.js      ${process.version}`,
      `  API          ${base}`,
      `  Swagger UI   ${base}/docs`,
      `  Health       ${base}/health`,
      `  Database     ${platform.embeddedPostgres ? `embedded Postgres (data in ${config.dataDir}/postgres)` : 'DATABASE_URL'}`,
      `  Temporal     ${temporal.address} (${temporal.description}${temporal.storage ? `, runs kept in ${temporal.storage}` : ''}), task queue ${config.temporalTaskQueue}`,
      ...(temporal.uiUrl ? [`  Temporal UI  ${temporal.uiUrl}`] : []),
      `  E-mail       ${config.smtpUrl ? `SMTP ${new URL(config.smtpUrl).host}` : `folder ${config.mailOutboxDir}`}`,
      `  SMS          ${config.sveve ? `Sveve ${config.sveve.url}` : `folder ${config.smsOutboxDir}`}`,
      `  SMS replies  sandbox ${smsSandbox.url} (reply to a reminder as a phone), or npm run sms:reply -- <phone> JA; webhook ${base}/webhooks/sms/sveve?key=<SMS_REPLY_SECRET>`,
      `  Storage      ${platform.embeddedS3 ? `s3rver ${platform.embeddedS3.endpoint} (data in ${config.dataDir}/s3)` : `S3 ${config.storage.endpoint}`}, bucket ${config.storage.bucket}`,
      `  Customer     ${idp ? `sign-in at the embedded identity provider ${idp.issuer} (any e-mail, no password; client ${idp.clientId})` : `sign-in with OIDC_ISSUER ${config.oidc!.issuer}`}`,
      `  Payments     sandbox provider at ${config.payments.sandboxUrl} (hosted checkout; webhooks to ${config.payments.webhookBaseUrl})`,
      `  Vipps        ${vipps ? `Vipps MobilePay sandbox ${vipps.url} (approve on its landing page with any test phone); the demo salon's active config, capturing on arrival` : `Vipps MobilePay ${config.payments.vipps.apiUrl}`}; deposits off until settings.depositEnabled`,
      `  Billing      sandbox provider ${billing.server.url} (checkout and portal pages; the active config unless another is)`,
      `  Admin login  ${config.adminEmail} / ${config.adminPassword === DEV_ADMIN_PASSWORD ? config.adminPassword + ' (dev default; set ADMIN_PASSWORD)' : '(ADMIN_PASSWORD)'}`,
      staff.length
        ? [
            `  Booking page http://localhost:${config.port}/${DEMO_SLUG}  (the demo salon's page for customers)`,
            `  Front desk   http://localhost:${config.port}/desk  (the salon's day for the owner and staff${demoDay ? `; ${demoDay.bookings} bookings seeded on ${demoDay.date}` : ''})`,
            `  Demo salon   ${base}/public/tenants/${DEMO_SLUG}${demo.created ? ' (seeded now)' : ''}`,
            `    owner      ${DEMO_OWNER_EMAIL} / ${demoPassword}`,
            ...staff.map((s) => `    staff      ${s.email} / ${demoPassword}  (${s.name})`),
          ].join('\n')
        : `  Demo salon   not seeded (the database was not empty)`,
      '',
    ].join('\n'),
  );
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    try {
      // the front desk's waiting change reads answer now rather than hold the close up to 25 s
      await platform.deps.changes?.close();
      await closeServer(server, config.shutdownTimeoutMs);
      await platform.stop();
    } catch (err) {
      console.error(`npm start: stopping failed: ${(err as Error).message}`);
      process.exit(1);
    }
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

main().catch((err) => {
  console.error(`npm start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
