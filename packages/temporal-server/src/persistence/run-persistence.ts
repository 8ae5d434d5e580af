// Dev-server role: keeps every run in a RunStore so workflows, timers and retries survive a
// restart. Changes are written behind the server (a few ms after they happen, batched) and on
// shutdown; on start-up every stored run is restored and resumed: timers keep their due times,
// queued tasks are re-queued, and tasks that were handed to workers before the restart count as
// lost (the workflow task times out and is retried, the activity attempt times out and retries).
import type { Run } from '../state/run';
import type { RunRegistry } from '../state/run-registry';
import { fromStored, storedFromJson, storedToJson, toStored } from '../state/run-state';
import type { RunResumer } from './resume-run';
import type { RunRow, RunStore } from './run-store';
import { WriteBehind } from './write-behind';

export interface RunPersistenceDeps {
  /** Puts a stored run back into the indexes. */
  registry: Pick<RunRegistry, 'adopt'>;
  /** Re-arms an open run's timers and re-queues its tasks (after every run is adopted). */
  resumer: Pick<RunResumer, 'resume'>;
  store: RunStore;
}

export class RunPersistence {
  private readonly writes: WriteBehind<Run, RunRow>;

  constructor(private readonly deps: RunPersistenceDeps) {
    this.writes = new WriteBehind({
      toRow: (r) => ({ runId: r.runId, namespace: r.namespace, workflowId: r.workflowId, seq: r.seq, json: storedToJson(toStored(r)) }),
      save: (rows) => deps.store.saveAll(rows),
      what: 'run state',
    });
  }

  track(run: Run): void {
    run.onTouch = () => this.writes.changed(run.runId, run);
  }

  /** Writes every changed run; resolves when everything changed so far is stored. */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  async restore(): Promise<void> {
    const rows = await this.deps.store.loadAll();
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
    this.writes.then(() => this.deps.store.deleteRuns(runIds), 'deleting expired runs');
  }

  async close(): Promise<void> {
    await this.flush();
    await this.deps.store.close();
  }
}
