// Every standalone activity execution the server knows, by run id and by (namespace, activity id),
// the latest execution of an activity id being its current one. Pure bookkeeping, like RunRegistry.
import { notFound } from '../errors';
import type { ActivityExecution } from './activity-execution';

const key = (ns: string, activityId: string) => `${ns}\u0000${activityId}`;

export interface ExecutionTracker {
  track(exec: ActivityExecution): void;
  forget(runIds: string[]): void;
}

export class ActivityExecutionRegistry {
  private readonly byRunId = new Map<string, ActivityExecution>();
  private readonly current = new Map<string, string>();
  private seq = 0;
  private tracker?: ExecutionTracker;

  /** From now on, `tracker` (the store) is told about every execution created, restored or forgotten. */
  setTracker(tracker: ExecutionTracker): void {
    this.tracker = tracker;
  }

  /** Registers a new or restored execution and makes it the current one of its activity id. */
  add(exec: ActivityExecution): void {
    if (!exec.seq) exec.seq = ++this.seq;
    this.seq = Math.max(this.seq, exec.seq);
    this.byRunId.set(exec.runId, exec);
    const k = key(exec.namespace, exec.activityId);
    const existing = this.current.get(k);
    if (!existing || (this.byRunId.get(existing)?.seq ?? 0) <= exec.seq) this.current.set(k, exec.runId);
    this.tracker?.track(exec);
  }

  currentFor(ns: string, activityId: string): ActivityExecution | undefined {
    const runId = this.current.get(key(ns, activityId));
    return runId ? this.byRunId.get(runId) : undefined;
  }

  byRun(runId: string): ActivityExecution | undefined {
    return this.byRunId.get(runId);
  }

  /** The execution {activity id, run id?} names (without a run id: the current one), or NOT_FOUND. */
  resolve(ns: string, activityId: string | undefined, runId?: string): ActivityExecution {
    const exec = runId ? this.byRunId.get(runId) : this.currentFor(ns, activityId ?? '');
    if (!exec || exec.namespace !== ns || exec.activityId !== activityId) {
      throw notFound(`activity execution not found for activity id ${activityId}${runId ? ` run id ${runId}` : ''}`);
    }
    return exec;
  }

  all(): Iterable<ActivityExecution> {
    return this.byRunId.values();
  }

  /** Attempts queued for or held by a worker (the time-skipping lock count). */
  outstandingWork(): number {
    let n = 0;
    for (const exec of this.byRunId.values()) if (exec.open && (exec.act.state === 'queued' || exec.act.state === 'started')) n++;
    return n;
  }

  /** Forgets one execution (DeleteActivityExecution). */
  remove(exec: ActivityExecution): void {
    this.unindex(exec);
    this.tracker?.forget([exec.runId]);
  }

  private unindex(exec: ActivityExecution): void {
    this.byRunId.delete(exec.runId);
    const k = key(exec.namespace, exec.activityId);
    if (this.current.get(k) === exec.runId) this.current.delete(k);
  }

  /** Forgets executions closed before `cutoff` (the namespace retention), in the store too. */
  purgeClosedBefore(cutoff: number): void {
    const purged: string[] = [];
    for (const exec of [...this.byRunId.values()]) {
      if (exec.open || exec.closeTime > cutoff) continue;
      this.unindex(exec);
      purged.push(exec.runId);
    }
    if (purged.length) this.tracker?.forget(purged);
  }
}
