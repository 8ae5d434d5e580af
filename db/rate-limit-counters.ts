// Data access of the shared rate-limit counters (table rate_limit_counters). Every call is one
// statement, so concurrent api processes count correctly without locks of their own: the upsert
// either starts a new window or adds a block of hits to the running one. Time is the database's
// (clock_timestamp()), so every process counts by one clock.
import { raw } from 'objection';
import type { Db } from './db-handle';
import { RateLimitCounterModel } from './models/rate-limit-counter.model';

const databaseNow = () => raw('clock_timestamp()');

export interface CounterWindow {
  hits: number;
  resetAt: Date;
}

/**
 * Takes `count` consecutive hits of `key` at once (a block an api process then hands out without
 * asking again); a window that has ended starts again with this block. Answers with the count after
 * the block: the block's hits are numbered `hits - count + 1` to `hits`. Raw SQL: the
 * upsert's per-column CASE over the existing row and EXCLUDED is beyond a model or the builder.
 */
export async function hitBlock(db: Db, key: string, windowMs: number, count: number): Promise<CounterWindow> {
  const { rows } = await db.raw(
    `INSERT INTO rate_limit_counters AS c (key, hits, reset_at)
     VALUES (?, ?, clock_timestamp() + make_interval(secs => ?))
     ON CONFLICT (key) DO UPDATE SET
       hits     = CASE WHEN c.reset_at <= clock_timestamp() THEN EXCLUDED.hits ELSE c.hits + EXCLUDED.hits END,
       reset_at = CASE WHEN c.reset_at <= clock_timestamp() THEN EXCLUDED.reset_at ELSE c.reset_at END
     RETURNING hits, reset_at`,
    [key, count, windowMs / 1000],
  );
  return { hits: rows[0].hits, resetAt: rows[0].reset_at };
}

/** The running window of `key`, if any. */
export async function current(db: Db, key: string): Promise<CounterWindow | undefined> {
  const row = await RateLimitCounterModel.query(db).select('hits', 'resetAt').findOne({ key }).where('resetAt', '>', databaseNow());
  return row ? { hits: row.hits, resetAt: row.resetAt } : undefined;
}

/** Takes one hit back (a request the limiter was told not to count). */
export async function unhit(db: Db, key: string): Promise<void> {
  await RateLimitCounterModel.query(db)
    .patch({ hits: raw('GREATEST(hits - 1, 0)') })
    .where({ key })
    .where('resetAt', '>', databaseNow());
}

export async function forget(db: Db, key: string): Promise<void> {
  await RateLimitCounterModel.query(db).deleteById(key);
}

/** Deletes windows that ended; returns how many. */
export async function sweepEnded(db: Db): Promise<number> {
  return RateLimitCounterModel.query(db).delete().where('resetAt', '<=', databaseNow());
}
