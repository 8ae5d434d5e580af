#!/usr/bin/env node
// The Temporal worker process (task queue `salon`): every workflow and activity of the platform.
// Configured by environment only: DATABASE_URL and TEMPORAL_ADDRESS are required; e-mail goes over
// SMTP when SMTP_URL is set, SMS through Sveve when SVEVE_USER/SVEVE_PASSWORD are set (else both
// to the folder outboxes). SIGTERM drains: no new tasks are polled, running activities get up to
// SHUTDOWN_TIMEOUT_MS to finish, then the process exits 0. With WORKER_HEALTH_PORT set, GET / on
// that port answers 200 while the worker runs and the database answers (container healthcheck).
import http from 'node:http';
import { loadConfig } from '../config';
import { createKnex, pingDatabase } from '../db/knex';
import { createLogger } from '../integrations/logger';
import {
  accountMessageConfig,
  bookingLinkConfig,
  createMailer,
  createPaymentProvidersFor,
  createSmsSender,
  createStorage,
  createTemporalSignaller,
} from '../composition/compose';
import { startWorker } from '../composition/worker';
import { bookingHooks } from '../composition/domain-hooks';
import { exitOnUnhandled, refuseUnfitProduction } from './process';
import { listenOrExplain } from '../composition/ports';
import { createBillingProviders } from '../integrations/billing/providers';
import { ensurePlatformLoops } from '../integrations/temporal/reconcile-starter';
import { ApiLoadGate, isApiLoadMessage, MAX_HOLD_MS } from '../composition/api-load';

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
  const knex = createKnex(databaseUrl, { max: config.dbPoolMax });
  const mailer = createMailer(config);
  const storage = createStorage(config);
  // payment activities change bookings and payments, so they signal workflows like the api does
  const signaller = createTemporalSignaller({ ...config, temporalAddress });
  const payments = {
    signaller,
    providers: createPaymentProvidersFor(config),
    keyring: config.credentialKeys,
    manageLinkKey: config.keys.manageLink,
    bookingHooks,
  };
  // forked by `npm start`: the api beside it says when it is saturated, and the activities wait
  const apiLoad = process.send ? new ApiLoadGate() : undefined;
  if (apiLoad) {
    process.on('message', (message) => {
      if (!isApiLoadMessage(message)) return;
      apiLoad.set(message.apiLoad);
      logger.info(
        { apiLoad: message.apiLoad },
        message.apiLoad === 'busy'
          ? `the api is saturated: activities wait until it is idle (at most ${MAX_HOLD_MS} ms each)`
          : 'the api is idle again: activities run',
      );
    });
  }
  const running = await startWorker({
    address: temporalAddress,
    namespace: config.temporalNamespace,
    taskQueue: config.temporalTaskQueue,
    activityDeps: {
      knex,
      mailer,
      sms: createSmsSender(config),
      storage,
      payments,
      credentialKeys: config.credentialKeys,
      billingProviders: createBillingProviders(),
      links: bookingLinkConfig(config),
      accounts: accountMessageConfig(config),
    },
    logLevel: sdkLogLevel(config.logLevel),
    shutdownGraceMs: config.shutdownTimeoutMs,
    slots: config.workerSlots,
    workflowStackTraces: config.workerWorkflowStackTraces,
    maxCachedWorkflows: config.workerMaxCachedWorkflows,
    smsSendRatePerSecond: config.smsSendRatePerSecond,
    yieldTo: apiLoad,
  });
  // The SDK's runtime turns SIGTERM/SIGINT into worker.shutdown(); `finished` resolves once drained.
  const healthPort = config.workerHealthPort;
  let health: http.Server | undefined;
  if (healthPort) {
    health = http.createServer((_req, res) => {
      const running_ = running.worker.getState() === 'RUNNING';
      pingDatabase(knex).then(
        () => res.writeHead(running_ ? 200 : 503).end(running_ ? 'ok' : running.worker.getState()),
        () => res.writeHead(503).end('database down'),
      );
    });
    await listenOrExplain(health, healthPort, 'WORKER_HEALTH_PORT');
  }
  const loops = await ensurePlatformLoops({ address: temporalAddress, namespace: config.temporalNamespace, taskQueue: config.temporalTaskQueue });
  logger.info({ temporal: temporalAddress, taskQueue: config.temporalTaskQueue, ...loops }, 'worker running');
  // forked by `npm start` (bin/dev.ts): say so once running, and stop when that parent goes
  if (process.send) {
    process.send({ ready: true });
    process.once('disconnect', () => {
      // no api to yield to any more: what is held runs, and the drain is not a second late per activity
      apiLoad?.set('idle');
      void running.shutdown();
    });
  }
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
