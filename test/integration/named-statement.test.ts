// The hot path's named statements run on knex's connections without its query path
// (db/named-statement.ts): on the transaction's own connection, with `?` or `:key` bindings, and
// never on a transaction that has ended.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { knex } from '../support/booking-fixtures';
import { runNamedStatement } from '../../db/named-statement';
import { createKnex } from '../../db/knex';
import { stack } from '../support/stack';

class RolledBack extends Error {}

describe('named statements (db/named-statement.ts)', () => {
  it('when run with `?` bindings on the pool then the rows come back as Postgres names them, and the connection goes back to the pool', async () => {
    // a pool of its own: the stack's pool is shared with the worker's activities, which may hold a
    // connection of it at any moment
    const db = createKnex((await stack()).config.databaseUrl!, { max: 10 });
    try {
      for (let i = 0; i < 30; i++) {
        const rows = await runNamedStatement<{ n: number; label: string }>(db, {
          name: 'test-named-positional',
          sql: 'SELECT ?::int + 1 AS n, ?::text AS label',
          bindings: [i, `row ${i}`],
        });
        expect(rows).to.deep.equal([{ n: i + 1, label: `row ${i}` }]);
      }
      // 30 statements on a pool of at most 10: each borrowed connection was given back
      expect((db.client as { pool: { numUsed(): number } }).pool.numUsed()).to.equal(0);
    } finally {
      await db.destroy();
    }
  });

  it('when run with `:key` bindings then a key used twice, a cast after a key and an array binding each get their value', async () => {
    const rows = await runNamedStatement<{ a: number; b: number; ids: string[]; same: boolean }>(await knex(), {
      name: 'test-named-keys',
      sql: 'SELECT :a::int AS a, :b::int AS b, :ids::text[] AS ids, (:a::int = :a::int) AS same',
      bindings: { b: 2, a: 1, ids: ['x', 'y'] },
    });
    expect(rows).to.deep.equal([{ a: 1, b: 2, ids: ['x', 'y'], same: true }]);
  });

  it("when run in a transaction then it sees the transaction's own writes, and a rollback takes its writes back", async () => {
    const db = await knex();
    const table = `named_statement_probe_${process.pid}`;
    await db.raw(`CREATE TABLE IF NOT EXISTS ${table} (v text)`);
    try {
      await db
        .transaction(async (trx: Knex.Transaction) => {
          await trx.raw(`INSERT INTO ${table} (v) VALUES ('written in the transaction')`);
          const seen = await runNamedStatement<{ v: string }>(trx, { name: `test-named-read-${table}`, sql: `SELECT v FROM ${table}`, bindings: [] });
          expect(seen.map((r) => r.v)).to.deep.equal(['written in the transaction']);
          await runNamedStatement(trx, {
            name: `test-named-write-${table}`,
            sql: `INSERT INTO ${table} (v) VALUES (?)`,
            bindings: ['written by the statement'],
          });
          throw new RolledBack();
        })
        .catch((err: unknown) => {
          if (!(err instanceof RolledBack)) throw err;
        });
      expect((await db.raw(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n).to.equal(0);
    } finally {
      await db.raw(`DROP TABLE ${table}`);
    }
  });

  it('when a name is used again for other SQL then it is refused, not run as the first SQL', async () => {
    const db = await knex();
    await runNamedStatement(db, { name: 'test-named-once', sql: 'SELECT 1 AS n', bindings: [] });
    let error: unknown;
    await runNamedStatement(db, { name: 'test-named-once', sql: 'SELECT 2 AS n', bindings: [] }).catch((err: unknown) => (error = err));
    expect((error as Error).message).to.equal('statement test-named-once: the name already stands for other SQL');
  });

  it('when a binding is undefined or the transaction has ended then it is refused before anything is sent', async () => {
    const db = await knex();
    let error: unknown;
    await runNamedStatement(db, { name: 'test-named-undefined', sql: 'SELECT ?::int AS n', bindings: [undefined] }).catch((err: unknown) => (error = err));
    expect((error as Error).message).to.equal('statement test-named-undefined: a binding is undefined');
    let ended: Knex.Transaction | undefined;
    await db.transaction(async (trx: Knex.Transaction) => {
      ended = trx;
    });
    error = undefined;
    await runNamedStatement(ended!, { name: 'test-named-ended', sql: 'SELECT 1 AS n', bindings: [] }).catch((err: unknown) => (error = err));
    expect((error as Error).message).to.equal('statement test-named-ended: the transaction has already ended');
  });
});
