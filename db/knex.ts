// One knex instance per process. Postgres stays snake_case, code camelCase. Nothing is bound
// globally to Objection: repositories pass the pool or the transaction to every query (Model.query(db)).
import path from 'node:path';
import knexFactory, { Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import pg from 'pg';

// bigint counts (COUNT(*)) as numbers; our counts never approach 2^53.
pg.types.setTypeParser(20, (v: string) => Number(v));
// DATE columns stay 'YYYY-MM-DD' strings: they are salon-local calendar dates, never instants.
pg.types.setTypeParser(1082, (v: string) => v);

const runningFromSource = __filename.endsWith('.ts');

export function migrationConfig(): Knex.MigratorConfig {
  return {
    directory: path.join(__dirname, 'migrations'),
    loadExtensions: [runningFromSource ? '.ts' : '.js'],
    tableName: 'knex_migrations',
  };
}

export function createKnex(databaseUrl: string, pool: { min?: number; max?: number } = {}): Knex {
  return knexFactory({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: pool.min ?? 0, max: pool.max ?? 10 },
    migrations: migrationConfig(),
    ...knexSnakeCaseMappers(),
  });
}

export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, applied] = await knex.migrate.latest(migrationConfig());
  return applied as string[];
}

/** Names of the migrations the database has applied, oldest first. */
export async function appliedMigrations(knex: Knex): Promise<string[]> {
  const [done] = (await knex.migrate.list(migrationConfig())) as [{ name: string }[], unknown[]];
  return done.map((m) => m.name);
}

/** One round trip to the database: the health checks of the api and the worker. */
export async function pingDatabase(knex: Knex): Promise<void> {
  await knex.raw('SELECT 1');
}
