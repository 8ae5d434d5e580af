// Data access of the shared rate-limit counters (table rate_limit_counters). Every call is one
// statement, so concurrent api processes count correctly without locks of their own: the upsert
// either starts a new window or adds one hit to the running one.
import type { Db } from './db-handle';

export interface CounterWindow {
  hits: number;
  resetAt: Date;
}

/** One more hit for `key`; a window that has ended starts again at 1 for `windowMs`. */
export async function hit(db: Db, key: string, windowMs: number): Promise<CounterWindow> {
  const { rows } = await db.raw(
    `INSERT INTO rate_limit_counters AS c (key, hits, reset_at)
     VALUES (?, 1, clock_timestamp() + make_interval(secs => ?))
     ON CONFLICT (key) DO UPDATE SET
       hits     = CASE WHEN c.reset_at <= clock_timestamp() THEN 1 ELSE c.hits + 1 END,
       reset_at = CASE WHEN c.reset_at <= clock_timestamp() THEN EXCLUDED.reset_at ELSE c.reset_at END
     RETURNING hits, reset_at`,
    [key, windowMs / 1000],
  );
  return { hits: rows[0].hits, resetAt: rows[0].reset_at };
}

/** The running window of `key`, if any. */
export async function current(db: Db, key: string): Promise<CounterWindow | undefined> {
  const { rows } = await db.raw('SELECT hits, reset_at FROM rate_limit_counters WHERE key = ? AND reset_at > clock_timestamp()', [key]);
  return rows[0] ? { hits: rows[0].hits, resetAt: rows[0].reset_at } : undefined;
}

/** Takes one hit back (a request the limiter was told not to count). */
export async function unhit(db: Db, key: string): Promise<void> {
  await db.raw('UPDATE rate_limit_counters SET hits = GREATEST(hits - 1, 0) WHERE key = ? AND reset_at > clock_timestamp()', [key]);
}

export async function forget(db: Db, key: string): Promise<void> {
  await db.raw('DELETE FROM rate_limit_counters WHERE key = ?', [key]);
}

/** Deletes windows that ended; returns how many. */
export async function sweepEnded(db: Db): Promise<number> {
  const { rowCount } = await db.raw('DELETE FROM rate_limit_counters WHERE reset_at <= clock_timestamp()');
  return rowCount ?? 0;
}
