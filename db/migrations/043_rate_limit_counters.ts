// Rate-limit counters shared by every api process (docs/rules/limits.md): one row per limiter and client key,
// counted up by a single upsert. UNLOGGED: counters are worth no WAL traffic, and losing them in a
// Postgres crash only hands out one fresh window.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limit_counters', (t) => {
    t.text('key').primary();
    t.integer('hits').notNullable();
    t.timestamp('reset_at', { useTz: true }).notNullable().index();
  });
  await knex.raw('ALTER TABLE rate_limit_counters SET UNLOGGED');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limit_counters');
}
