#!/usr/bin/env node
// `npm run migrate`: applies pending migrations to DATABASE_URL (or the embedded Postgres in DATA_DIR).
import { loadConfig } from '../config';
import { startPlatform } from '../devserver/platform';
import { migrationConfig } from '../db/knex';

async function main(): Promise<void> {
  const platform = await startPlatform(loadConfig()); // migrates on start
  const [done] = (await platform.knex.migrate.list(migrationConfig())) as [{ name: string }[], unknown[]];
  console.log(`migrations applied: ${done.length} (latest: ${done.at(-1)?.name ?? 'none'})`);
  await platform.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
