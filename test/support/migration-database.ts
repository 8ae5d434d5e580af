// A database of a migration test's own, migrated to just before one migration: the test writes the
// rows an earlier version wrote, then migrates up and reads what the migration made of them.
import knexFactory, { type Knex } from 'knex';
import { expect } from 'chai';
import { stack } from './stack';
import { createKnex, migrateLatest } from '../../db/knex';

export interface MigrationDatabase {
  db: Knex;
  /** drops the database (call in `after`) */
  drop(): Promise<void>;
}

/** A new database with every migration applied, then rolled back one at a time until `migration` (its number, e.g. '180') is undone. */
export async function databaseBefore(migration: string, label: string): Promise<MigrationDatabase> {
  const base = (await stack()).config.databaseUrl!;
  const admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
  const name = `${label}_${process.pid}_${Date.now()}`;
  await admin.raw(`CREATE DATABASE "${name}"`);
  const db = createKnex(base.replace(/\/[^/]+$/, `/${name}`), { max: 2 });
  await migrateLatest(db);
  // down one migration at a time until this one is undone (the migrations of later work come after it)
  const lastName = async () => ((await db('knex_migrations').orderBy('id', 'desc').first('name')) as { name: string }).name;
  while ((await lastName()) >= migration) await db.migrate.down();
  const last = await lastName();
  expect(last < migration, `rolled back to before ${migration}, at ${last}`).to.equal(true);
  return {
    db,
    async drop() {
      await db.destroy();
      await admin.raw(`DROP DATABASE IF EXISTS "${name}"`);
      await admin.destroy();
    },
  };
}
