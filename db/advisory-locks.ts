// Transaction-scoped Postgres advisory locks: held until the transaction ends, so they serialise
// work that no row or constraint can (seeding an empty database, a tenant's default tax, booking
// capacity that the exclusion constraint cannot see). A lock is a function call, not a table
// query: neither a model nor the query builder expresses it, so it is raw SQL, here, once.
import type { Transaction } from './db-handle';

/** A bigint key, a text key (hashed by hashtext), or a class with a text key (the two-int form). */
export type AdvisoryLockKey = number | string | { lockClass: number; key: string };

export type AdvisoryLockMode = 'shared' | 'exclusive';

export async function advisoryTransactionLock(trx: Transaction, key: AdvisoryLockKey, mode: AdvisoryLockMode = 'exclusive'): Promise<void> {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  if (typeof key === 'number') await trx.raw(`SELECT ${fn}(?)`, [key]);
  else if (typeof key === 'string') await trx.raw(`SELECT ${fn}(hashtext(?))`, [key]);
  else await trx.raw(`SELECT ${fn}(?::int, hashtext(?))`, [key.lockClass, key.key]);
}
