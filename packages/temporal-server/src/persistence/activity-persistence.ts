// Dev-server role: keeps every standalone activity execution in an ActivityStore, written behind
// the engine (a few ms after each change) and on shutdown, and restored at start-up: a waiting
// activity is queued again, a retry or start delay keeps its due time, and an attempt that was
// running when the server stopped is lost with its worker's poll, so it times out and retries.
import type { ActivityAttempts } from '../rpc/activity/activity-attempts';
import type { ActivityExecution } from '../state/activity-execution';
import type { ActivityExecutionRegistry } from '../state/activity-execution-registry';
import { activityExecutionFromJson, activityExecutionToJson } from '../state/activity-execution-state';
import type { ActivityRow, ActivityStore } from './activity-store';
import { WriteBehind } from './write-behind';

export interface ActivityPersistenceDeps {
  executions: Pick<ActivityExecutionRegistry, 'add'>;
  attempts: Pick<ActivityAttempts, 'restore'>;
  store: ActivityStore;
}

export class ActivityPersistence {
  private readonly writes: WriteBehind<ActivityExecution, ActivityRow>;

  constructor(private readonly deps: ActivityPersistenceDeps) {
    this.writes = new WriteBehind({
      toRow: (e) => ({ runId: e.runId, namespace: e.namespace, activityId: e.activityId, seq: e.seq, json: activityExecutionToJson(e) }),
      save: (rows) => deps.store.saveAll(rows),
      what: 'standalone activities',
    });
  }

  track(exec: ActivityExecution): void {
    exec.onTouch = () => this.writes.changed(exec.runId, exec);
  }

  forget(runIds: string[]): void {
    for (const runId of runIds) this.writes.drop(runId);
    this.writes.then(() => this.deps.store.delete(runIds), 'deleting standalone activities');
  }

  flush(): Promise<void> {
    return this.writes.flush();
  }

  async restore(): Promise<void> {
    const open: ActivityExecution[] = [];
    for (const text of await this.deps.store.loadAll()) {
      const exec = activityExecutionFromJson(text);
      this.deps.executions.add(exec);
      if (exec.open) open.push(exec);
    }
    for (const exec of open) this.deps.attempts.restore(exec);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.deps.store.close();
  }
}
