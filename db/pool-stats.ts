// How busy the knex pool is, for the db_pool_connections gauge (api/ops/metrics.ts). The pool is
// tarn's, reached through knex's client: db/ is where knex's insides are known.
import type { DbPool } from './db-handle';

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

export interface PoolStats {
  used: number;
  free: number;
  pending: number;
  max: number;
}

/** The pool's connections by state, or undefined before knex created its pool. */
export function poolStats(pool: DbPool): PoolStats | undefined {
  const tarn = (pool.client as { pool?: TarnPool } | undefined)?.pool;
  if (!tarn) return undefined;
  return { used: tarn.numUsed(), free: tarn.numFree(), pending: tarn.numPendingAcquires(), max: tarn.max };
}
