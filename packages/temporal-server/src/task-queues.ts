// Long-poll matching between queued tasks and waiting pollers, one FIFO per (namespace, kind, queue).
//
// Tasks are validated lazily: `take` is called when a task meets a poller and returns the response
// to send, or undefined when the task went stale meanwhile (run closed, attempt superseded), in
// which case matching moves on. A poll whose gRPC call was cancelled (worker shut down, process
// died) is never handed a task.

/** Key of one task queue: task queues are per namespace. */
export function queueKey(namespace: string, taskQueue: string): string {
  return `${namespace}/${taskQueue}`;
}

export interface QueuedTask<R> {
  /** Builds the poll response and marks the task started; undefined = stale, skip it. */
  take(identity: string): R | undefined;
}

interface Waiter<R> {
  deliver(resp: R | undefined): void;
  isCancelled(): boolean;
  identity: string;
}

class Queue<R> {
  tasks: QueuedTask<R>[] = [];
  waiters: Waiter<R>[] = [];
  lastPollAt = 0;
}

export class TaskQueues<R> {
  private queues = new Map<string, Queue<R>>();

  private queue(key: string): Queue<R> {
    let q = this.queues.get(key);
    if (!q) {
      q = new Queue<R>();
      this.queues.set(key, q);
    }
    return q;
  }

  add(key: string, task: QueuedTask<R>): void {
    const q = this.queue(key);
    while (q.waiters.length) {
      const w = q.waiters.shift()!;
      if (w.isCancelled()) continue;
      const resp = task.take(w.identity);
      if (resp === undefined) return; // stale on arrival
      w.deliver(resp);
      return;
    }
    q.tasks.push(task);
  }

  /**
   * Long-polls `key`. Resolves with a response, or undefined after `timeoutMs` / on shutdown.
   * `onCancel` registers a callback for the poll's call being cancelled by the client.
   */
  poll(key: string, identity: string, timeoutMs: number, isCancelled: () => boolean, onCancel: (cb: () => void) => void): Promise<R | undefined> {
    const q = this.queue(key);
    q.lastPollAt = Date.now();
    while (q.tasks.length) {
      const task = q.tasks.shift()!;
      const resp = task.take(identity);
      if (resp !== undefined) return Promise.resolve(resp);
    }
    return new Promise((resolve) => {
      let done = false;
      const waiter: Waiter<R> = {
        deliver: (resp) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve(resp);
        },
        isCancelled: () => done || isCancelled(),
        identity,
      };
      const remove = () => {
        const i = q.waiters.indexOf(waiter);
        if (i >= 0) q.waiters.splice(i, 1);
      };
      const timer = setTimeout(() => {
        remove();
        waiter.deliver(undefined);
      }, timeoutMs);
      onCancel(() => {
        remove();
        waiter.deliver(undefined);
      });
      q.waiters.push(waiter);
    });
  }

  /** True when some worker is polling `key` now or polled it within `withinMs`. */
  hasPoller(key: string, withinMs: number): boolean {
    const q = this.queues.get(key);
    if (!q) return false;
    return q.waiters.some((w) => !w.isCancelled()) || Date.now() - q.lastPollAt < withinMs;
  }

  /** Completes every waiting poll with an empty response (graceful shutdown). */
  releaseAll(): void {
    for (const q of this.queues.values()) {
      for (const w of q.waiters.splice(0)) w.deliver(undefined);
    }
  }
}
