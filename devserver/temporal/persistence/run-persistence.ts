// Dev-server role: keeps every run in a RunStore so workflows, timers and retries survive a
// restart. Changes are written behind the server (a few ms after they happen, batched) and on
// shutdown; on start-up every stored run is restored and resumed: timers keep their due times,
// queued tasks are re-queued, and tasks that were handed to workers before the restart count as
// lost (the workflow task times out and is retried, the activity attempt times out and retries).
import type { Run } from '../state/run';
import type { RunRegistry } from '../state/run-registry';
import { fromStored, storedFromJson, storedToJson, toStored } from '../state/run-state';
import type { RunResumer } from './resume-run';
import type { RunStore } from './run-store';

const WRITE_BEHIND_MS = 20;

export interface RunPersistenceDeps {
  /** Puts a stored run back into the indexes. */
  registry: Pick<RunRegistry, 'adopt'>;
  /** Re-arms an open run's timers and re-queues its tasks (after every run is adopted). */
  resumer: Pick<RunResumer, 'resume'>;
  store: RunStore;
}

export class RunPersistence {
  private dirty = new Set<Run>();
  private flushTimer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private readonly store: RunStore;

  constructor(private readonly deps: RunPersistenceDeps) {
    this.store = deps.store;
  }

  track(run: Run): void {
    run.onTouch = () => this.markDirty(run);
  }

  private markDirty(run: Run): void {
    this.dirty.add(run);
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, WRITE_BEHIND_MS);
  }

  /** Writes every changed run; resolves when everything changed so far is stored. */
  flush(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    if (!this.dirty.size) return this.flushing;
    const rows = [...this.dirty].map((r) => ({ runId: r.runId, namespace: r.namespace, workflowId: r.workflowId, seq: r.seq, json: storedToJson(toStored(r)) }));
    this.dirty.clear();
    this.flushing = this.flushing
      .then(() => this.store.saveAll(rows))
      .catch((err) => console.error('[temporal-devserver] storing run state failed', err));
    return this.flushing;
  }

  async restore(): Promise<void> {
    const rows = await this.store.loadAll();
    const open: Run[] = [];
    // Rows come in creation order, so the last run of a workflow id becomes its current run.
    for (const text of rows) {
      const run = fromStored(storedFromJson(text));
      this.deps.registry.adopt(run);
      if (run.open) open.push(run);
    }
    for (const run of open) this.deps.resumer.resume(run);
  }

  forget(runIds: string[]): void {
    if (!runIds.length) return;
    this.flushing = this.flushing
      .then(() => this.store.deleteRuns(runIds))
      .catch((err) => console.error('[temporal-devserver] deleting expired runs failed', err));
  }

  async close(): Promise<void> {
    await this.flush();
    await this.store.close();
  }
}
