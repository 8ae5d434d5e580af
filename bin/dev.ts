#!/usr/bin/env node
// `npm start`: the whole platform in one process tree. With no DATABASE_URL it starts embedded
// Postgres in DATA_DIR (kept across restarts), migrates, seeds, and serves the API.
import { loadConfig } from '../config';
import { startPlatform } from '../devserver/platform';
import { startApi } from './api';

async function main(): Promise<void> {
  const config = loadConfig();
  const platform = await startPlatform(config);
  const server = await startApi(platform, config.port);
  const base = `http://localhost:${config.port}/api`;
  console.log(
    [
      '',
      'Salon platform is running',
      `  API          ${base}`,
      `  Swagger UI   ${base}/docs`,
      `  Health       ${base}/health`,
      `  Database     ${platform.embeddedPostgres ? `embedded Postgres (data in ${config.dataDir}/postgres)` : 'DATABASE_URL'}`,
      `  Mail outbox  ${config.mailOutboxDir}`,
      `  Admin login  ${config.adminEmail} / ${config.adminPassword === 'admin-dev-password' ? config.adminPassword + ' (dev default; set ADMIN_PASSWORD)' : '(ADMIN_PASSWORD)'}`,
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
