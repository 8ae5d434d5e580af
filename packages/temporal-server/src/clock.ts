// One clock and one timer heap for everything time-based in the server (user timers, task
// timeouts, retry backoffs, run timeouts, start delays, TestService sleeps).
//
// In dev-server mode virtual time equals wall time. In time-skipping mode the clock jumps to the
// next due timer when the lock count is zero or less, counted as Temporal's Java test server
// counts it (SelfAdvancingTimerImpl): the client's locks (TestService Lock/Unlock, starting at 1)
// plus one lock per piece of outstanding work the engine reports (a scheduled or started workflow
// task, a queued or running activity attempt). So work a worker is doing runs in real time and
// idle waiting is skipped, unless the client has released more locks than it holds (a pending
// result() plus env.sleep(), or env.sleep() called from inside an activity): each such extra
// unlock cancels one outstanding piece of work, exactly as in Java, and time may then jump past
// a running activity's timeouts.

export interface TimerHandle {
  cancel(): void;
}

interface TimerEntry {
  due: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export class VirtualClock {
  private offset = 0;
  private heap: TimerEntry[] = [];
  private seq = 0;
  private wallTimer: NodeJS.Timeout | undefined;
  private wallTimerDue = Infinity;
  private pumpScheduled = false;
  private stopped = false;
  /**
   * Skip locks held by clients (TestService Lock/Unlock). Starts at 1 like Java's test server; may
   * go below 0 (an unlock without a lock, e.g. env.sleep() while result() is pending).
   */
  private locks: number;

  readonly timeSkipping: boolean;
  /** Counts the work a worker has or could take (the engine's runs and activities). */
  private readonly work: { outstandingWork(): number };

  constructor(options: { timeSkipping: boolean; work?: { outstandingWork(): number } }) {
    this.timeSkipping = options.timeSkipping;
    this.work = options.work ?? { outstandingWork: () => 0 };
    this.locks = this.timeSkipping ? 1 : 0;
  }

  now(): number {
    return Date.now() + this.offset;
  }

  /** Runs fn at virtual time `due` (ms since epoch). */
  at(due: number, fn: () => void): TimerHandle {
    const entry: TimerEntry = { due, seq: this.seq++, fn, cancelled: false };
    this.push(entry);
    // In dev-server mode (virtual time is wall time) a timer due no earlier than the armed wall
    // timer is picked up when that fires: most timers (task timeouts) need no pump of their own.
    if (this.timeSkipping || due < this.wallTimerDue) this.schedulePump();
    return {
      cancel: () => {
        entry.cancelled = true;
      },
    };
  }

  after(ms: number, fn: () => void): TimerHandle {
    return this.at(this.now() + Math.max(0, ms), fn);
  }

  lock(): void {
    this.locks++;
  }
  unlock(): void {
    // Never an error: the total (with outstanding work) decides, and <= 0 means unlocked.
    this.locks--;
    this.schedulePump();
  }

  /** The engine calls this whenever work finished, so a skip can happen. */
  workChanged(): void {
    if (this.timeSkipping) this.schedulePump();
  }

  stop(): void {
    this.stopped = true;
    if (this.wallTimer) clearTimeout(this.wallTimer);
  }

  /** Java's rule: skip when the total lock count (client locks + outstanding work) is <= 0. */
  private canSkip(): boolean {
    return this.locks + this.work.outstandingWork() <= 0;
  }

  private schedulePump(): void {
    if (this.pumpScheduled || this.stopped) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    if (this.stopped) return;
    // Fire everything that is due (bounded so one pump cannot starve the event loop).
    for (let fired = 0; fired < 1000; fired++) {
      const top = this.peek();
      if (!top) break;
      if (top.due <= this.now()) {
        this.pop();
        try {
          top.fn();
        } catch (err) {
          // A timer callback must never take the server down; log and carry on.
          console.error('[temporal-devserver] timer callback failed', err);
        }
        continue;
      }
      if (this.timeSkipping && this.canSkip()) {
        this.offset += top.due - this.now();
        continue;
      }
      break;
    }
    const next = this.peek();
    if (next && next.due <= this.now()) {
      this.schedulePump();
      return;
    }
    this.armWallTimer(next ? next.due - this.now() : Infinity);
  }

  private armWallTimer(delay: number): void {
    const due = Date.now() + delay;
    if (this.wallTimer && this.wallTimerDue <= due) return;
    if (this.wallTimer) clearTimeout(this.wallTimer);
    this.wallTimer = undefined;
    this.wallTimerDue = Infinity;
    if (delay === Infinity) return;
    this.wallTimerDue = due;
    this.wallTimer = setTimeout(
      () => {
        this.wallTimer = undefined;
        this.wallTimerDue = Infinity;
        this.schedulePump();
      },
      Math.min(Math.max(0, delay), 2 ** 31 - 1),
    );
  }

  private peek(): TimerEntry | undefined {
    while (this.heap.length && this.heap[0].cancelled) this.pop();
    return this.heap[0];
  }

  private less(a: TimerEntry, b: TimerEntry): boolean {
    return a.due < b.due || (a.due === b.due && a.seq < b.seq);
  }

  private push(e: TimerEntry): void {
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  private pop(): TimerEntry | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l], h[m])) m = l;
        if (r < h.length && this.less(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}
