#!/usr/bin/env node
// `npm start`: the whole platform in one process tree. Anything not configured is started embedded:
// Postgres in DATA_DIR (kept across restarts) unless DATABASE_URL, a Temporal dev server unless
// TEMPORAL_ADDRESS; then migrations, seeds, the worker and the API.
import path from 'node:path';
import { loadConfig } from '../config';
import { startPlatform } from '../devserver/platform';
import { devTemporalAddress, startTemporalForDev } from '../devserver/temporal-for-dev';
import { TemporalSignaller } from '../integrations/temporal/temporal-signaller';
import { FolderSmsSender } from '../integrations/sms/sms-sender';
import { startApi } from './api';
import { startWorker } from './worker';
import { seedDemoSalon, DEMO_OWNER_EMAIL, DEMO_PASSWORD, DEMO_SLUG } from '../domain/demo/demo-salon';

async function main(): Promise<void> {
  const config = loadConfig();
  const signaller = new TemporalSignaller({ address: devTemporalAddress({ address: config.temporalAddress, port: config.temporalPort }), namespace: config.temporalNamespace, taskQueue: config.temporalTaskQueue });
  const platform = await startPlatform(config, { signaller });
  const temporal = await startTemporalForDev({
    address: config.temporalAddress,
    port: config.temporalPort,
    dataDir: path.join(config.dataDir, 'temporal'),
    databaseUrl: platform.deps.config.databaseUrl!,
  });
  const demo = await seedDemoSalon(platform.knex, { passwordHashRounds: config.passwordHashRounds });
  const worker = await startWorker({
    address: temporal.address,
    namespace: config.temporalNamespace,
    taskQueue: config.temporalTaskQueue,
    activityDeps: { knex: platform.knex, mailer: platform.mailer, sms: new FolderSmsSender(config.smsOutboxDir) },
  });
  const server = await startApi(platform, config.port);
  platform.onStop(async () => {
    await worker.shutdown();
    await signaller.close();
    await temporal.stop();
  });

  const base = `http://localhost:${config.port}/api`;
  const temporalLabel = { external: 'TEMPORAL_ADDRESS', 'temporal-cli': 'temporal CLI dev server', 'built-in': 'built-in dev server (devserver/temporal)' }[temporal.kind];
  console.log(
    [
      '',
      'Salon platform is running',
      `  API          ${base}`,
      `  Swagger UI   ${base}/docs`,
      `  Health       ${base}/health`,
      `  Database     ${platform.embeddedPostgres ? `embedded Postgres (data in ${config.dataDir}/postgres)` : 'DATABASE_URL'}`,
      `  Temporal     ${temporal.address} (${temporalLabel}), task queue ${config.temporalTaskQueue}`,
      `  Outboxes     mail ${config.mailOutboxDir}, sms ${config.smsOutboxDir}`,
      `  Admin login  ${config.adminEmail} / ${config.adminPassword === 'admin-dev-password' ? config.adminPassword + ' (dev default; set ADMIN_PASSWORD)' : '(ADMIN_PASSWORD)'}`,
      demo.created
        ? `  Demo salon   ${base}/public/tenants/${DEMO_SLUG} (seeded now); owner login ${DEMO_OWNER_EMAIL} / ${DEMO_PASSWORD}`
        : `  Demo salon   seeded only into an empty database (owner ${DEMO_OWNER_EMAIL} / ${DEMO_PASSWORD} if it was seeded earlier)`,
      '',
    ].join('\n'),
  );
  const shutdown = () => {
    server.close();
    void platform.stop().then(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
