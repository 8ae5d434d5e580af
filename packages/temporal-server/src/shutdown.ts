// The server's "stopping" flag and the long polls that must end when it is raised. Long polls
// parked in a task queue are released by the queue itself; the others (sticky workflow task polls,
// history and update long polls) check `stopping` or register a callback here.
export class ShutdownSignal {
  private stopped = false;
  private readonly callbacks = new Set<() => void>();

  get stopping(): boolean {
    return this.stopped;
  }

  /** Runs `cb` when the server stops; returns a function that unregisters it. */
  onStop(cb: () => void): () => void {
    this.callbacks.add(cb);
    return () => this.callbacks.delete(cb);
  }

  stop(): void {
    this.stopped = true;
    for (const cb of [...this.callbacks]) cb();
    this.callbacks.clear();
  }
}
