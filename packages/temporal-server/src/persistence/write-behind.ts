// Writing changed state behind the engine: a change marks its item dirty; a few ms later (or on
// flush) every dirty item is turned into a row and the rows are saved in one call. Saves and
// deletes run one after another, in the order they were asked for, so a store never sees an older
// state after a newer one. Failures are logged: the engine keeps running on its in-memory state.
const WRITE_BEHIND_MS = 20;

export interface WriteBehindOptions<T, R> {
  /** The row to store for an item, made when the item is flushed. */
  toRow(item: T): R;
  save(rows: R[]): Promise<void>;
  /** What is stored, for the log ("run state", "schedules"). */
  what: string;
}

export class WriteBehind<T, R> {
  private readonly dirty = new Map<string, T>();
  private timer?: NodeJS.Timeout;
  private queue: Promise<void> = Promise.resolve();
  /** the save that has not started yet: it will take every item dirty when it starts */
  private next?: Promise<void>;

  constructor(private readonly opts: WriteBehindOptions<T, R>) {}

  changed(key: string, item: T): void {
    this.dirty.set(key, item);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, WRITE_BEHIND_MS);
  }

  /** Forgets a pending write of `key` (the item is about to be deleted). */
  drop(key: string): void {
    this.dirty.delete(key);
  }

  /** Runs `op` (a delete) after the writes queued so far. */
  then(op: () => Promise<void>, what: string): void {
    this.next = undefined;
    this.queue = this.queue.then(op).catch((err) => console.error(`[temporal-devserver] ${what} failed`, err));
  }

  /**
   * Writes every changed item; resolves when everything changed so far is stored. Calls made while
   * a save runs share the next one (group commit): it takes every item changed by the time it
   * starts, so a burst of answers waiting for their writes costs a few saves, not one each.
   */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.dirty.size) return this.queue;
    if (this.next) return this.next;
    const batch = this.queue.then(() => {
      this.next = undefined;
      if (!this.dirty.size) return undefined;
      const rows = [...this.dirty.values()].map((item) => this.opts.toRow(item));
      this.dirty.clear();
      return this.opts.save(rows);
    });
    this.next = this.queue = batch.catch((err) => console.error(`[temporal-devserver] storing ${this.opts.what} failed`, err));
    return this.next;
  }
}
