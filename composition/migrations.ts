// Bringing a database up to date, for bin/migrate (production), bin/dev and devstack/ (npm start
// and the tests): pending migrations, the platform admin, the plan catalogue.
import type { DbPool } from '../db/db-handle';
import type { AppConfig } from '../config';
import { appliedMigrations, migrateLatest } from '../db/knex';
import { ensurePlatformAdmin } from '../domain/users/platform-admin.service';
import { seedPlanCatalogue } from '../domain/billing/plan-catalogue.seed';
import { resealUnboundPaymentCredentials } from '../domain/payments/payment-config.service';
import { resealUnboundBillingCredentials } from '../domain/billing/billing-config.service';

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
  // credentials sealed before blobs were bound to their rows are bound now (docs/rules/auth.md#provider-credentials-at-rest)
  await resealUnboundPaymentCredentials(knex, config.credentialKeys);
  await resealUnboundBillingCredentials(knex, config.credentialKeys);
  return { applied, total: done.length, latest: done.at(-1) };
}

export function describeMigrations(report: MigrationReport): string {
  const now =
    report.applied.length === 0
      ? 'no pending migrations, nothing applied'
      : `applied ${report.applied.length} migration${report.applied.length === 1 ? '' : 's'} now (${report.applied.join(', ')})`;
  return `${now}; ${report.total} in the database, latest ${report.latest ?? 'none'}`;
}
