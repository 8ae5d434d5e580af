// The express-rate-limit Store over the shared Postgres counters (db/rate-limit-counters.ts), so
// every api process behind a load balancer spends one budget per client and limiter.
//
// Why not @acpr/rate-limit-postgresql: it locks its whole table on every increment (measured with
// bench:bookings: one booking at a time took 41 ms at p50 against 15 ms with in-memory counters),
// opens a pool of its own per limiter and brings a second migration tool. One upsert on the app's
// own pool does the same job.
//
// Blocks of hits instead of a round trip per request (docs/rules/limits.md#rate-limits): a process
// takes a block of consecutive hit numbers from the shared counter in one upsert and hands them
// out to the following requests of that client from memory. Every hit number is taken once, across
// all processes, so together they never let more than the limit through; the block is 1/32 of what
// is left of the budget (at most 1,000), so the last 32 hits of a window are taken one at a time and
// the 429 falls exactly at the limit. What a block costs: numbers a process took and did not hand
// out before the window ended are lost to the client (at most 1/32 of the budget per process), and
// X-RateLimit-Remaining is exact only within the last 32 hits (before that, each process counts in
// its own blocks). Requests of one client that arrive while a block is being taken wait for it.
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { Db } from '../../db/db-handle';
import { current, forget, hitBlock, sweepEnded, unhit } from '../../db/rate-limit-counters';
import type { RateLimitStoreFactory } from './rate-limit';

/** Ended windows are deleted once every this many blocks taken by a limiter. */
const SWEEP_EVERY = 1000;
/** A block is this fraction of the budget left (rounded down, at least 1). */
const BLOCK_DIVISOR = 32;
const MAX_BLOCK = 1000;

/** Hit numbers a process holds for one key: `next` to `last`, valid until `resetAt`. */
interface Block {
  next: number;
  last: number;
  resetAt: Date;
}

export class PostgresRateLimitStore implements Store {
  readonly localKeys = false;
  private windowMs = 60_000;
  /** 0: no limit known (a store used on its own), every hit is taken one at a time */
  private limit = 0;
  private blocksTaken = 0;
  private readonly blocks = new Map<string, Block>();
  private readonly taking = new Map<string, Promise<unknown>>();

  constructor(
    private readonly db: Db,
    /** keeps limiters (and test apps) apart: `<prefix><limiter name>:` */
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
    this.limit = typeof options.limit === 'number' ? options.limit : 0;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const window = await current(this.db, this.prefix + key);
    return window && { totalHits: window.hits, resetTime: window.resetAt };
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    for (;;) {
      const block = this.blocks.get(key);
      if (block && block.next <= block.last && block.resetAt.getTime() > Date.now()) return { totalHits: block.next++, resetTime: block.resetAt };
      const pending = this.taking.get(key);
      if (pending) {
        await pending;
        continue;
      }
      const taken = this.takeBlock(key, block);
      this.taking.set(key, taken);
      try {
        await taken;
      } finally {
        this.taking.delete(key);
      }
    }
  }

  private async takeBlock(key: string, previous: Block | undefined): Promise<void> {
    if (++this.blocksTaken % SWEEP_EVERY === 0) this.sweep();
    const known = previous && previous.resetAt.getTime() > Date.now() ? previous.last : 0;
    const size = Math.min(MAX_BLOCK, Math.max(1, Math.floor((this.limit - known) / BLOCK_DIVISOR)));
    const window = await hitBlock(this.db, this.prefix + key, this.windowMs, size);
    this.blocks.set(key, { next: window.hits - size + 1, last: window.hits, resetAt: window.resetAt });
  }

  /** Forgets blocks of ended windows here, and ended windows in the database. */
  private sweep(): void {
    const now = Date.now();
    for (const [key, block] of this.blocks) if (block.resetAt.getTime() <= now) this.blocks.delete(key);
    void sweepEnded(this.db).catch(() => undefined);
  }

  async decrement(key: string): Promise<void> {
    await unhit(this.db, this.prefix + key);
  }

  async resetKey(key: string): Promise<void> {
    this.blocks.delete(key);
    await forget(this.db, this.prefix + key);
  }
}

/** One store per named limiter ('global', 'auth', 'booking-create'), all on `db`. */
export function postgresRateLimitStores(db: Db, prefix = ''): RateLimitStoreFactory {
  return (name) => new PostgresRateLimitStore(db, `${prefix}${name}:`);
}
