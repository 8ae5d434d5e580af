// A database of its own on the suite's embedded Postgres, migrated and empty, for what runs only on
// an empty platform (the demo salon's seeds): a knex of its own (not db/knex.ts createKnex, which
// would rebind Objection for the other tests), dropped after.
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { stack } from './stack';
import { migrationConfig } from '../../db/knex';

export interface EmptyDatabase {
  knex: Knex;
  drop(): Promise<void>;
}

export async function emptyDatabase(prefix: string): Promise<EmptyDatabase> {
  const { platform } = await stack();
  const url = new URL(platform.deps.config.databaseUrl!);
  const name = `${prefix}_${crypto.randomBytes(4).toString('hex')}`;
  await platform.knex.raw(`CREATE DATABASE ${name}`);
  url.pathname = `/${name}`;
  const knex = knexFactory({ client: 'pg', connection: url.toString(), pool: { min: 0, max: 4 }, ...knexSnakeCaseMappers() });
  await knex.migrate.latest(migrationConfig());
  return {
    knex,
    async drop() {
      await knex.destroy();
      await platform.knex.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
