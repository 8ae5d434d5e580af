#!/usr/bin/env node
// The Temporal worker process (task queue `salon`): every workflow and activity of the platform.
// Configured by environment only: DATABASE_URL and TEMPORAL_ADDRESS are required; e-mail goes over
// SMTP when SMTP_URL is set, SMS through Sveve when SVEVE_USER/SVEVE_PASSWORD are set (else both
// to the folder outboxes). SIGTERM drains: no new tasks are polled, running activities get up to
// SHUTDOWN_TIMEOUT_MS to finish, then the process exits 0. With WORKER_HEALTH_PORT set, GET / on
// that port answers 200 while the worker runs and the database answers (container healthcheck).
import http from 'node:http';
import path from 'node:path';
import { NativeConnection, Worker, Runtime, DefaultLogger } from '@temporalio/worker';
import { loadConfig } from '../config';
import { createKnex } from '../db/knex';
import { createActivities, type ActivityDeps } from '../activities';
import { createLogger } from '../integrations/logger';
import { bookingLinkConfig, createMailer, createPaymentProvidersFor, createSmsSender, createStorage, createTemporalSignaller, exitOnUnhandled, refuseUnfitProduction } from './compose';
import { listenOrExplain } from './ports';
import { createBillingProviders } from '../integrations/billing/providers';
import { ensureReconcileWorkflow } from '../integrations/temporal/reconcile-starter';

export interface RunningWorker {
  worker: Worker;
  /** resolves when the worker has stopped */
  finished: Promise<void>;
  shutdown(): Promise<void>;
}

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  activityDeps: ActivityDeps;
  /** warn (default) keeps the SDK quiet in tests and dev */
  logLevel?: 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** how long running activities may finish after shutdown was asked for (default 0: cancel them) */
  shutdownGraceMs?: number;
}

let runtimeInstalled = false;

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  if (!runtimeInstalled) {
    runtimeInstalled = true;
    try {
      Runtime.install({ logger: new DefaultLogger(options.logLevel ?? 'WARN') });
    } catch {
      // already installed by someone else in this process (tests)
    }
  }
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    // compiled: dist/workflows/index.js; from source (tests): workflows/index.ts
    workflowsPath: require.resolve(path.join(__dirname, '..', 'workflows')),
    activities: createActivities(options.activityDeps),
    ...(options.shutdownGraceMs ? { shutdownGraceTime: options.shutdownGraceMs } : {}),
  });
  const finished = worker.run().finally(() => connection.close());
  return {
    worker,
    finished,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await finished;
    },
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  refuseUnfitProduction(config, 'worker');
  const { databaseUrl, temporalAddress } = config;
  if (!databaseUrl || !temporalAddress) {
    console.error(`worker: ${!databaseUrl ? 'DATABASE_URL' : 'TEMPORAL_ADDRESS'} is not set (use \`npm start\` for the embedded stack)`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  exitOnUnhandled(logger, 'worker');
  const knex = createKnex(databaseUrl);
  const mailer = createMailer(config);
  const storage = createStorage(config);
  // payment activities change bookings and payments, so they signal workflows like the api does
  const signaller = createTemporalSignaller({ ...config, temporalAddress });
  const payments = { signaller, providers: createPaymentProvidersFor(config), keyring: config.credentialKeys, secret: config.jwtSecret };
  const running = await startWorker({
    address: temporalAddress,
    namespace: config.temporalNamespace,
    taskQueue: config.temporalTaskQueue,
    activityDeps: { knex, mailer, sms: createSmsSender(config), storage, payments, credentialKeys: config.credentialKeys, billingProviders: createBillingProviders(), links: bookingLinkConfig(config) },
    logLevel: sdkLogLevel(config.logLevel),
    shutdownGraceMs: config.shutdownTimeoutMs,
  });
  // The SDK's runtime turns SIGTERM/SIGINT into worker.shutdown(); `finished` resolves once drained.
  const healthPort = config.workerHealthPort;
  let health: http.Server | undefined;
  if (healthPort) {
    health = http.createServer((_req, res) => {
      const running_ = running.worker.getState() === 'RUNNING';
      knex.raw('SELECT 1').then(
        () => res.writeHead(running_ ? 200 : 503).end(running_ ? 'ok' : running.worker.getState()),
        () => res.writeHead(503).end('database down'),
      );
    });
    await listenOrExplain(health, healthPort, 'WORKER_HEALTH_PORT');
  }
  const reconcile = await ensureReconcileWorkflow({ address: temporalAddress, namespace: config.temporalNamespace, taskQueue: config.temporalTaskQueue });
  logger.info({ temporal: temporalAddress, taskQueue: config.temporalTaskQueue, reconcile }, 'worker running');
  await running.finished;
  health?.close();
  mailer.close?.();
  storage.close();
  await signaller.close();
  await knex.destroy();
  logger.info('worker stopped');
  process.exit(0);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`worker: ${(err as Error).message}`);
    process.exit(1);
  });
}

/** LOG_LEVEL (pino's names) for the Temporal SDK's own logger. */
function sdkLogLevel(level: string): 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' {
  switch (level) {
    case 'trace':
      return 'TRACE';
    case 'debug':
      return 'DEBUG';
    case 'info':
      return 'INFO';
    case 'warn':
      return 'WARN';
    default:
      return 'ERROR'; // error, fatal, silent
  }
}
