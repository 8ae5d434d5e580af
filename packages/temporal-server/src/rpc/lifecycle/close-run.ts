// Closing a run: the terminal event is written by the caller (a worker command) or here (terminate,
// run timeout); then everything the run held is released, its children get their parent close
// policy, and its parent learns the result (packages/temporal-server/PROTOCOL.md#closing-runs).
import { notFound } from '../../errors';
import type { ExternalEvents } from '../../history/external-events';
import { flushBuffered } from '../../history/buffered-events';
import type { EventName, NewEvent, Payloads } from '../../messages';
import { ExecStatus, ParentClosePolicy, RetryState, timestampMs, WftFailedCause } from '../../proto';
import type { Run } from '../../state/run';
import type { RunRegistry } from '../../state/run-registry';
import type { Queries } from '../query/queries';
import type { SignalAndCancel } from './signal-and-cancel';

export type CloseStatus = 'COMPLETED' | 'FAILED' | 'CANCELED' | 'TERMINATED' | 'CONTINUED_AS_NEW' | 'TIMED_OUT';

export interface CloseDeps {
  clock: { now(): number; workChanged(): void };
  registry: Pick<RunRegistry, 'openRuns' | 'runs' | 'currentRun'>;
  events: Pick<ExternalEvents, 'add'>;
  signals: Pick<SignalAndCancel, 'requestCancel'>;
  /** Queries still waiting are answered from the closed run's full history (legacy query task). */
  queries: Pick<Queries, 'dispatchLegacy'>;
}

/** Something that holds state for open runs and lets it go when a run closes. */
export interface RunCloseListener {
  runClosed(run: Run): void;
}

export interface Termination {
  reason?: string;
  details?: Payloads;
  identity?: string;
}

export class RunCloser {
  private readonly listeners: RunCloseListener[] = [];

  constructor(private readonly deps: CloseDeps) {}

  /** Tells `listener` about every run that closes (activity timers, open updates, schedules). */
  addListener(listener: RunCloseListener): void {
    this.listeners.push(listener);
  }

  terminate(run: Run, t: Termination): void {
    if (!run.open) throw notFound('workflow execution already completed');
    this.closeByServer(run, { type: 'WORKFLOW_EXECUTION_TERMINATED', attrs: { reason: t.reason, details: t.details, identity: t.identity } }, 'TERMINATED');
  }

  /**
   * Run timeout or execution timeout (timer armed at start). Like the real server: when the
   * execution timeout has passed no retry is possible (TIMEOUT); a run timeout would be retried
   * per the retry policy, which this server does not do (RETRY_POLICY_NOT_SET).
   */
  timeout(run: Run): void {
    if (!run.open) return;
    const expiresAt = timestampMs(run.startAttributes.workflowExecutionExpirationTime) ?? 0;
    const expired = expiresAt > 0 && expiresAt <= this.deps.clock.now();
    const retryState = RetryState.v(expired ? 'TIMEOUT' : 'RETRY_POLICY_NOT_SET');
    this.closeByServer(run, { type: 'WORKFLOW_EXECUTION_TIMED_OUT', attrs: { retryState } }, 'TIMED_OUT');
  }

  /** Server-initiated close: force-fail a started task, flush the buffer, then the terminal event. */
  private closeByServer(run: Run, terminal: NewEvent, status: CloseStatus): void {
    const now = this.deps.clock.now();
    if (run.wft.state === 'started') {
      run.append(
        'WORKFLOW_TASK_FAILED',
        {
          scheduledEventId: run.wft.scheduledEventId,
          startedEventId: run.wft.startedEventId,
          cause: WftFailedCause.v('FORCE_CLOSE_COMMAND'),
          identity: 'server',
        },
        now,
      );
      run.wft.timeout?.cancel();
      run.wft.state = 'none';
      flushBuffered(run, now);
    }
    run.appendEvent(terminal, now);
    this.close(run, status);
  }

  /**
   * Marks the run closed (the terminal event is already written) and releases everything it held.
   * `chained`: a retry run takes over, so the parent is not told yet.
   */
  close(run: Run, status: CloseStatus, chained = false): void {
    run.status = ExecStatus.v(status);
    run.closeTime = this.deps.clock.now();
    this.deps.registry.openRuns.delete(run);
    run.wft.timeout?.cancel();
    const attachedQueries = [...run.wft.queries.values(), ...run.pendingQueries];
    run.wft = { ...run.wft, state: 'none', queries: new Map() };
    run.pendingQueries = [];
    run.buffered = [];
    for (const t of run.timers.values()) t.handle.cancel();
    run.timers.clear();
    for (const t of run.runTimers) t.cancel();
    for (const l of this.listeners) l.runClosed(run);
    for (const w of [...run.waiters]) w();
    for (const q of attachedQueries) this.deps.queries.dispatchLegacy(run, q);
    this.applyParentClosePolicy(run);
    // A run that continues as new or retries hands its parent over to the next run.
    if (status !== 'CONTINUED_AS_NEW' && !chained) this.notifyParent(run);
    this.deps.clock.workChanged();
  }

  private applyParentClosePolicy(run: Run): void {
    for (const child of run.children.values()) {
      if (!child.runId) continue;
      // The child may have continued as new: its chain still starts with the run we started.
      const childRun = this.deps.registry.currentRun(child.namespace, child.workflowId);
      if (!childRun?.open || childRun.firstRunId !== child.runId) continue;
      const policy = child.parentClosePolicy || ParentClosePolicy.v('TERMINATE');
      const why = { reason: 'by parent close policy', identity: 'server' };
      if (policy === ParentClosePolicy.v('TERMINATE')) this.terminate(childRun, why);
      else if (policy === ParentClosePolicy.v('REQUEST_CANCEL')) this.deps.signals.requestCancel(childRun, why);
    }
  }

  private notifyParent(run: Run): void {
    const p = run.parent;
    if (!p) return;
    const parent = this.deps.registry.runs.get(p.runId);
    if (!parent?.open) return;
    const child = parent.children.get(p.initiatedEventId);
    if (!child) return;
    const last = run.lastEvent;
    const common = {
      namespace: run.namespace,
      workflowExecution: { workflowId: run.workflowId, runId: run.runId },
      workflowType: { name: run.workflowType },
      initiatedEventId: child.initiatedEventId,
    };
    const closed = <E extends EventName>(type: E, attrs: Extract<NewEvent, { type: E }>['attrs']) =>
      this.deps.events.add(parent, { events: [{ type, attrs: { ...common, ...attrs } } as NewEvent], childClosed: child.initiatedEventId });
    switch (ExecStatus.name(run.status)) {
      case 'COMPLETED':
        return closed('CHILD_WORKFLOW_EXECUTION_COMPLETED', { result: run.attributesOf(last, 'WORKFLOW_EXECUTION_COMPLETED')?.result });
      case 'FAILED': {
        const a = run.attributesOf(last, 'WORKFLOW_EXECUTION_FAILED');
        return closed('CHILD_WORKFLOW_EXECUTION_FAILED', { failure: a?.failure, retryState: a?.retryState });
      }
      case 'CANCELED':
        return closed('CHILD_WORKFLOW_EXECUTION_CANCELED', { details: run.attributesOf(last, 'WORKFLOW_EXECUTION_CANCELED')?.details });
      case 'TERMINATED':
        return closed('CHILD_WORKFLOW_EXECUTION_TERMINATED', {});
      case 'TIMED_OUT':
        return closed('CHILD_WORKFLOW_EXECUTION_TIMED_OUT', { retryState: run.attributesOf(last, 'WORKFLOW_EXECUTION_TIMED_OUT')?.retryState });
    }
  }
}
