// Transaction-scoped Postgres advisory locks: held until the transaction ends, so they serialise
// work that no row or constraint can (seeding an empty database, a tenant's default tax, booking
// capacity that the exclusion constraint cannot see). A lock is a function call, not a table
// query: neither a model nor the query builder expresses it, so it is raw SQL, here, once.
import type { Transaction } from './db-handle';
import { runNamedStatement } from './named-statement';

/** A bigint key, a text key (hashed by hashtext), or a class with a text key (the two-int form). */
export type AdvisoryLockKey = number | string | { lockClass: number; key: string };

export type AdvisoryLockMode = 'shared' | 'exclusive';

export async function advisoryTransactionLock(trx: Transaction, key: AdvisoryLockKey, mode: AdvisoryLockMode = 'exclusive'): Promise<void> {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  if (typeof key === 'number') await trx.raw(`SELECT ${fn}(?)`, [key]);
  else if (typeof key === 'string') await trx.raw(`SELECT ${fn}(hashtext(?))`, [key]);
  else await trx.raw(`SELECT ${fn}(?::int, hashtext(?))`, [key.lockClass, key.key]);
}

/**
 * The lock and, in the same statement (one round trip), the rows of the query `rows` as JSON objects
 * keyed by its column names. `rows` is read in the statement's snapshot, taken before the lock is
 * granted: it must not read what the lock guards. `rows` has fixed SQL text under its `name`, so the
 * statement is a named one (db/named-statement.ts), parsed once per connection.
 */
export async function advisoryTransactionLockReading<T>(
  trx: Transaction,
  key: { lockClass: number; key: string },
  mode: AdvisoryLockMode,
  rows: { sql: string; bindings: readonly unknown[]; name: string },
): Promise<T[]> {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  const [result] = await runNamedStatement<{ rows: T[] }>(trx, {
    name: `${fn}-reading-${rows.name}`,
    sql: `SELECT ${fn}(?::int, hashtext(?)) AS locked, (SELECT coalesce(json_agg(r), '[]'::json) FROM (${rows.sql}) r) AS rows`,
    bindings: [key.lockClass, key.key, ...rows.bindings],
  });
  return result.rows;
}
