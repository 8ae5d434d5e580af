// Every run the server knows, indexed by run id and by (namespace, workflow id), plus the set of
// open runs and the registered namespaces. Pure bookkeeping: no history is written here.
import { invalidArgument, namespaceNotFound, notFound } from '../errors';
import type { WorkflowExecution } from '../messages';
import type { Run } from './run';

export class RunRegistry {
  readonly namespaces = new Set<string>();
  readonly runs = new Map<string, Run>();
  /** namespace/workflowId -> latest run id for that workflow id. */
  private readonly current = new Map<string, string>();
  readonly openRuns = new Set<Run>();
  private seq = 0;
  /** Told about every run created or restored (the store watches their changes). */
  private tracker?: { track(run: Run): void };

  constructor(namespaces: string[]) {
    for (const ns of namespaces) this.namespaces.add(ns);
  }

  /** From now on, `tracker` is told about every run created or restored. */
  setTracker(tracker: { track(run: Run): void }): void {
    this.tracker = tracker;
  }

  checkNamespace(ns: string | undefined): string {
    const name = ns || 'default';
    if (!this.namespaces.has(name)) throw namespaceNotFound(name);
    return name;
  }

  currentRun(ns: string, workflowId: string): Run | undefined {
    const id = this.current.get(`${ns}/${workflowId}`);
    return id ? this.runs.get(id) : undefined;
  }

  /** Resolves {workflowId, runId?} (+ first_execution_run_id chain check) to a run or NOT_FOUND. */
  resolveRun(ns: string, execution: WorkflowExecution | undefined, firstExecutionRunId?: string): Run {
    const workflowId = execution?.workflowId;
    if (!workflowId) throw invalidArgument('workflow_execution.workflow_id is required');
    let run: Run | undefined;
    if (execution.runId) {
      run = this.runs.get(execution.runId);
      if (run && (run.workflowId !== workflowId || run.namespace !== ns)) run = undefined;
    } else {
      run = this.currentRun(ns, workflowId);
      if (run && firstExecutionRunId && run.firstRunId !== firstExecutionRunId) run = undefined;
    }
    if (!run) throw notFound(`workflow execution not found for workflow id ${workflowId}${execution.runId ? ` run id ${execution.runId}` : ''}`);
    return run;
  }

  allRuns(): Iterable<Run> {
    return this.runs.values();
  }

  /** Gives a new or restored run its creation order and lets the store watch it. */
  track(run: Run): void {
    if (!run.seq) run.seq = ++this.seq;
    this.seq = Math.max(this.seq, run.seq);
    this.tracker?.track(run);
  }

  /** Makes `run` the current run of its workflow id. */
  index(run: Run): void {
    this.runs.set(run.runId, run);
    this.current.set(`${run.namespace}/${run.workflowId}`, run.runId);
  }

  /** Puts a restored run back into the indexes (creation order keeps the latest run current). */
  adopt(run: Run): void {
    this.track(run);
    this.index(run);
    this.namespaces.add(run.namespace);
  }

  /**
   * Work a worker has or could take, counted like the Java test server's timer locks
   * (packages/temporal-server/PROTOCOL.md#time-skipping): one per scheduled or started workflow task, one per queued or
   * running activity attempt (an attempt waiting for its retry backoff holds none).
   */
  outstandingWork(): number {
    let n = 0;
    for (const run of this.openRuns) {
      if (run.wft.state !== 'none') n++;
      for (const a of run.activities.values()) if (a.state === 'queued' || a.state === 'started') n++;
    }
    return n;
  }

  /**
   * Forgets runs closed before `cutoff` (the namespace retention DescribeNamespace reports).
   * Returns the forgotten run ids so a store can delete them too.
   */
  purgeClosedBefore(cutoff: number): string[] {
    const purged: string[] = [];
    for (const run of this.runs.values()) {
      if (run.open || run.closeTime > cutoff) continue;
      this.runs.delete(run.runId);
      const key = `${run.namespace}/${run.workflowId}`;
      if (this.current.get(key) === run.runId) this.current.delete(key);
      purged.push(run.runId);
    }
    return purged;
  }
}
