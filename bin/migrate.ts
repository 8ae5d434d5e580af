#!/usr/bin/env node
// `node dist/bin/migrate.js` (the compose `migrate` service): applies pending migrations to
// DATABASE_URL (the rate-limit counters included) and creates the platform admin if missing; says how
// many migrations it applied now. `npm run migrate` does the same on the embedded database when
// DATABASE_URL is unset (through bin/dev.js --migrate-only).
import { loadConfig } from '../config';
import { createKnex } from '../db/knex';
import { describeMigrations, runMigrations } from '../composition/migrations';
import { refuseUnfitProduction } from './process';

async function main(): Promise<void> {
  const config = loadConfig();
  refuseUnfitProduction(config, 'migrate', { database: true, temporal: false });
  if (!config.databaseUrl) {
    console.error('migrate: DATABASE_URL is not set (`npm run migrate` migrates the embedded database instead)');
    process.exit(1);
  }
  const knex = createKnex(config.databaseUrl);
  try {
    console.log(`migrate: ${describeMigrations(await runMigrations(knex, { ...config, databaseUrl: config.databaseUrl }))}`);
  } finally {
    await knex.destroy();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`migrate: ${(err as Error).message}`);
    process.exit(1);
  });
}
