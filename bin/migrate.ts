#!/usr/bin/env node
// `node dist/bin/migrate.js` (the compose `migrate` service): applies pending migrations to
// DATABASE_URL (the rate-limit counters included) and creates the platform admin if missing; says how
// many migrations it applied now. `npm run migrate` does the same on the embedded database when
// DATABASE_URL is unset (through bin/dev.js --migrate-only).
import type { DbPool } from '../db/db-handle';
import { loadConfig, type AppConfig } from '../config';
import { appliedMigrations, createKnex, migrateLatest } from '../db/knex';
import { ensurePlatformAdmin } from '../domain/auth/platform-admin.service';
import { seedPlanCatalogue } from '../domain/billing/plan-catalogue.seed';
import { refuseUnfitProduction } from './compose';

export interface MigrationReport {
  applied: string[];
  total: number;
  latest?: string;
}

export async function runMigrations(knex: DbPool, config: AppConfig & { databaseUrl: string }): Promise<MigrationReport> {
  const applied = await migrateLatest(knex);
  const done = await appliedMigrations(knex);
  await ensurePlatformAdmin(knex, config.adminEmail, config.adminPassword, config.passwordHashRounds);
  await seedPlanCatalogue(knex);
  return { applied, total: done.length, latest: done.at(-1) };
}

export function describeMigrations(report: MigrationReport): string {
  const now = report.applied.length === 0 ? 'no pending migrations, nothing applied' : `applied ${report.applied.length} migration${report.applied.length === 1 ? '' : 's'} now (${report.applied.join(', ')})`;
  return `${now}; ${report.total} in the database, latest ${report.latest ?? 'none'}`;
}

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
