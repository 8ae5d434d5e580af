// The workflow engine: owns every run, the task queues and the clock, and implements the
// lifecycle operations the RPC layer exposes (start, signal, cancel, terminate, workflow task
// dispatch/failure/timeouts, queries, closing runs and notifying parents).
//
// Invariants kept here (see the protocol brief, section 3): event ids are contiguous; nothing but
// workflow-task events is written while a workflow task is started (everything else is buffered
// and flushed after the task closes); every close cancels the run's timers.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { randomUUID } from 'node:crypto';
import { VirtualClock } from './clock';
import { alreadyStarted, invalidArgument, namespaceNotFound, notFound, RpcError } from './errors';
import {
  ConflictPolicy, ContinueAsNewInitiator, duration, durationMs, ExecStatus, ParentClosePolicy, RetryState, ReusePolicy,
  historySizeBytes, timestamp, timestampMs, WftFailedCause,
} from './proto';
import { BufferedEvent, PendingQuery, Run } from './run';
import { retryDecision, withRetryDefaults } from './retry-policy';
import type { RunPersistence } from './persistence';
import { Queries } from './queries';
import { TaskQueues } from './task-queues';
import { encodeToken } from './tokens';
import { status as Status } from '@grpc/grpc-js';

export const DEFAULT_WFT_TIMEOUT_MS = 10_000;
const SUGGEST_CONTINUE_AS_NEW_EVENTS = 4_000;
const SUGGEST_CONTINUE_AS_NEW_BYTES = 4 * 1024 * 1024;
const MAX_WFT_TIMEOUT_MS = 120_000;

export interface EngineOptions {
  timeSkipping: boolean;
  namespaces: string[];
}

export interface StartExtras {
  /** Pre-allocated run id (continue-as-new writes it into the old run's last event first). */
  runId?: string;
  signal?: { signalName: string; input?: any; header?: any; identity?: string };
  parent?: { namespace: string; workflowId: string; runId: string; initiatedEventId: number; parentClosePolicy: number; root?: any };
  continued?: { fromRunId: string; firstRunId: string; initiator: number; expirationTime?: number; lastCompletionResult?: any; continuedFailure?: any; backoffMs?: number; attempt?: number };
}

export class Engine {
  readonly clock: VirtualClock;
  readonly namespaces = new Set<string>();
  readonly runs = new Map<string, Run>();
  /** namespace/workflowId -> latest run id for that workflow id. */
  private current = new Map<string, string>();
  private openRuns = new Set<Run>();
  readonly wftQueues = new TaskQueues<any>();
  readonly activityQueues = new TaskQueues<any>();
  readonly searchAttributeTypes = new Map<string, number>();
  /** Protocol messages (update requests) to attach to a workflow task being started. */
  taskMessages?: (run: Run, startedEventId: number) => any[];
  /** Hooks filled in by the activity module (kept separate to keep files small). */
  onRunClosed: ((run: Run) => void)[] = [];
  readonly queries = new Queries(this);

  constructor(readonly options: EngineOptions) {
    this.clock = new VirtualClock(options.timeSkipping, () => this.hasOutstandingWork());
    for (const ns of options.namespaces) this.namespaces.add(ns);
  }

  now(): number {
    return this.clock.now();
  }

  // ---------------------------------------------------------------- lookups

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
  resolveRun(ns: string, execution: any, firstExecutionRunId?: string): Run {
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

  // ---------------------------------------------------------------- time skipping

  /** Work a worker has or could take: time must not skip past it (brief 7.1). */
  private hasOutstandingWork(): boolean {
    for (const run of this.openRuns) {
      if (run.wft.state !== 'none') return true;
      for (const a of run.activities.values()) if (a.state === 'queued' || a.state === 'started') return true;
    }
    return false;
  }

  // ---------------------------------------------------------------- start

  startWorkflow(ns: string, req: any, extras: StartExtras = {}): { runId: string; started: boolean } {
    const workflowId: string = req.workflowId;
    if (!workflowId) throw invalidArgument('workflow_id is required');
    if (!req.workflowType?.name) throw invalidArgument('workflow_type is required');
    if (!req.taskQueue?.name) throw invalidArgument('task_queue is required');
    if (req.cronSchedule) throw new RpcError(Status.UNIMPLEMENTED, 'cron_schedule is not supported by this dev server');

    const existing = this.currentRun(ns, workflowId);
    if (existing && req.requestId && existing.requestIds.has(req.requestId)) return { runId: existing.runId, started: true };

    let reuse = req.workflowIdReusePolicy ?? 0;
    let conflict = req.workflowIdConflictPolicy ?? 0;
    if (reuse === ReusePolicy.v('TERMINATE_IF_RUNNING')) {
      if (conflict) throw invalidArgument('TERMINATE_IF_RUNNING reuse policy cannot be combined with a conflict policy');
      conflict = ConflictPolicy.v('TERMINATE_EXISTING');
      reuse = ReusePolicy.v('ALLOW_DUPLICATE');
    }
    if (reuse === ReusePolicy.v('REJECT_DUPLICATE') && conflict === ConflictPolicy.v('TERMINATE_EXISTING')) {
      throw invalidArgument('REJECT_DUPLICATE reuse policy cannot be combined with TERMINATE_EXISTING conflict policy');
    }
    if (existing?.open) {
      if (conflict === ConflictPolicy.v('USE_EXISTING')) {
        if (req.requestId) existing.requestIds.add(req.requestId);
        return { runId: existing.runId, started: false };
      }
      if (conflict === ConflictPolicy.v('TERMINATE_EXISTING')) {
        this.terminate(existing, 'terminated by new runID', undefined, 'server');
      } else {
        throw alreadyStarted(workflowId, [...existing.requestIds][0] ?? '', existing.runId);
      }
    } else if (existing) {
      const s = existing.status;
      if (reuse === ReusePolicy.v('REJECT_DUPLICATE') ||
        (reuse === ReusePolicy.v('ALLOW_DUPLICATE_FAILED_ONLY') && (s === ExecStatus.v('COMPLETED') || s === ExecStatus.v('CONTINUED_AS_NEW')))) {
        throw alreadyStarted(workflowId, [...existing.requestIds][0] ?? '', existing.runId);
      }
    }
    const run = this.createRun(ns, req, extras);
    return { runId: run.runId, started: true };
  }

  createRun(ns: string, req: any, extras: StartExtras): Run {
    const now = this.now();
    const runId = extras.runId ?? randomUUID();
    const firstRunId = extras.continued?.firstRunId ?? runId;
    const run = new Run(ns, req.workflowId, runId, firstRunId, req.workflowType.name, req.taskQueue.name, req, now);
    this.track(run);
    if (req.requestId) run.requestIds.add(req.requestId);
    run.memo = { ...(req.memo?.fields ?? {}) };
    run.searchAttributes = { ...(req.searchAttributes?.indexedFields ?? {}) };

    let wftTimeoutMs = durationMs(req.workflowTaskTimeout) || DEFAULT_WFT_TIMEOUT_MS;
    wftTimeoutMs = Math.min(wftTimeoutMs, MAX_WFT_TIMEOUT_MS);
    const runTimeoutMs = durationMs(req.workflowRunTimeout);
    const execTimeoutMs = durationMs(req.workflowExecutionTimeout);
    const expiration = extras.continued?.expirationTime ?? (execTimeoutMs ? now + execTimeoutMs : 0);
    const backoffMs = extras.continued?.backoffMs ?? durationMs(req.workflowStartDelay);
    run.executionTime = now + backoffMs;
    run.startRequest.wftTimeoutMs = wftTimeoutMs;
    if (extras.parent) {
      run.parent = { namespace: extras.parent.namespace, workflowId: extras.parent.workflowId, runId: extras.parent.runId, initiatedEventId: extras.parent.initiatedEventId };
      run.parentClosePolicy = extras.parent.parentClosePolicy;
    }

    run.append('WORKFLOW_EXECUTION_STARTED', {
      workflowType: req.workflowType,
      taskQueue: { name: req.taskQueue.name, kind: 1 },
      input: req.input,
      header: req.header,
      identity: req.identity,
      workflowExecutionTimeout: execTimeoutMs ? duration(execTimeoutMs) : undefined,
      workflowRunTimeout: runTimeoutMs ? duration(runTimeoutMs) : undefined,
      workflowTaskTimeout: duration(wftTimeoutMs),
      attempt: extras.continued?.attempt ?? 1,
      firstExecutionRunId: firstRunId,
      originalExecutionRunId: runId,
      continuedExecutionRunId: extras.continued?.fromRunId,
      initiator: extras.continued?.initiator,
      lastCompletionResult: extras.continued?.lastCompletionResult,
      continuedFailure: extras.continued?.continuedFailure,
      workflowExecutionExpirationTime: expiration ? timestamp(expiration) : undefined,
      firstWorkflowTaskBackoff: backoffMs ? duration(backoffMs) : undefined,
      memo: req.memo,
      searchAttributes: req.searchAttributes,
      retryPolicy: req.retryPolicy,
      parentWorkflowNamespace: extras.parent?.namespace,
      parentWorkflowExecution: extras.parent ? { workflowId: extras.parent.workflowId, runId: extras.parent.runId } : undefined,
      parentInitiatedEventId: extras.parent?.initiatedEventId,
      rootWorkflowExecution: extras.parent?.root,
      priority: req.priority,
      userMetadata: req.userMetadata,
    }, now);

    this.runs.set(runId, run);
    this.current.set(`${ns}/${req.workflowId}`, runId);
    this.openRuns.add(run);

    if (extras.signal) {
      run.append('WORKFLOW_EXECUTION_SIGNALED', { signalName: extras.signal.signalName, input: extras.signal.input, header: extras.signal.header, identity: extras.signal.identity }, now);
    }
    if (backoffMs > 0) run.startDelayPending = true;
    else this.scheduleWorkflowTask(run);
    this.armRunTimers(run);
    return run;
  }

  /** Start delay and run/execution timeouts, derived from the start event. */
  private armRunTimers(run: Run): void {
    const start = run.attributesOf(run.history[0]);
    if (run.startDelayPending) {
      run.runTimers.push(this.clock.at(run.executionTime, () => {
        if (!run.open) return;
        run.startDelayPending = false;
        run.touch();
        if (run.wft.state === 'none') this.scheduleWorkflowTask(run);
      }));
    }
    const runTimeoutMs = durationMs(start.workflowRunTimeout);
    const expiration = timestampMs(start.workflowExecutionExpirationTime) ?? 0;
    const timeoutAt = Math.min(runTimeoutMs ? run.executionTime + runTimeoutMs : Infinity, expiration || Infinity);
    if (timeoutAt !== Infinity) run.runTimers.push(this.clock.at(timeoutAt, () => this.timeoutRun(run)));
  }

  // ---------------------------------------------------------------- retention

  /**
   * Forgets runs closed more than `retentionMs` ago (the namespace retention DescribeNamespace
   * reports). Returns the forgotten run ids so a store can delete them too.
   */
  purgeClosedRuns(retentionMs: number): string[] {
    const cutoff = this.now() - retentionMs;
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

  // ---------------------------------------------------------------- persistence hooks

  /** Set when runs are stored (dev-server role with a database). */
  persistence?: RunPersistence;
  private seq = 0;
  /** Hooks run for each open run after a restore (the activity module re-arms its timers). */
  onRestore: ((run: Run) => void)[] = [];

  private track(run: Run): void {
    if (!run.seq) run.seq = ++this.seq;
    this.seq = Math.max(this.seq, run.seq);
    this.persistence?.track(run);
  }

  /** Puts a restored run back into the indexes and resumes its timers and queued tasks. */
  adoptRestoredRun(run: Run): void {
    this.track(run);
    this.runs.set(run.runId, run);
    this.current.set(`${run.namespace}/${run.workflowId}`, run.runId);
    this.namespaces.add(run.namespace);
  }

  resumeRestoredRun(run: Run): void {
    this.openRuns.add(run);
    this.armRunTimers(run);
    for (const [timerId, t] of [...run.timers]) this.armUserTimer(run, timerId, t.startedEventId, t.due);
    if (run.wft.state === 'scheduled') this.enqueueWorkflowTask(run);
    for (const h of this.onRestore) h(run);
    if (run.wft.state === 'started') {
      // The worker that had this task is gone with the old process: the task is lost.
      run.append('WORKFLOW_TASK_TIMED_OUT', { scheduledEventId: run.wft.scheduledEventId, startedEventId: run.wft.startedEventId, timeoutType: 1 }, this.now());
      this.retryWorkflowTask(run);
    }
    this.clock.workChanged();
  }

  // ---------------------------------------------------------------- events from outside the run

  /**
   * Adds a non-command event (signal, timer fired, activity result, child result, cancel request).
   * Buffered while a workflow task is started; otherwise written now and a workflow task scheduled.
   */
  addExternalEvent(run: Run, b: BufferedEvent): void {
    if (!run.open) return;
    if (run.wft.state === 'started') {
      run.buffered.push(b);
      run.touch();
      return;
    }
    this.writeExternalEvent(run, b);
    if (run.wft.state === 'none' && !run.startDelayPending) this.scheduleWorkflowTask(run);
  }

  /** (Re-)arms a user timer; TimerFired goes through the buffer like any external event. */
  armUserTimer(run: Run, timerId: string, startedEventId: number, due: number): void {
    const handle = this.clock.at(due, () => {
      const t = run.timers.get(timerId);
      if (!run.open || !t || t.startedEventId !== startedEventId) return;
      run.timers.delete(timerId);
      this.addExternalEvent(run, {
        events: [{ type: 'TIMER_FIRED', attrs: { timerId, startedEventId } }],
        timerId, timerStartedEventId: startedEventId,
      });
    });
    run.timers.set(timerId, { startedEventId, due, handle });
  }

  /** Shorthand for a single event. */
  addExternalEventOf(run: Run, type: string, attrs: any): void {
    this.addExternalEvent(run, { events: [{ type, attrs }] });
  }

  private writeExternalEvent(run: Run, b: BufferedEvent): void {
    let previous = 0;
    for (const [i, ev] of b.events.entries()) {
      const attrs = { ...ev.attrs };
      if (b.linkStarted && i === 1 && previous) attrs.startedEventId = previous;
      if (b.childClosed !== undefined) attrs.startedEventId = run.children.get(b.childClosed)?.startedEventId;
      previous = run.append(ev.type, attrs, this.now()).eventId;
    }
    if (b.activityDone !== undefined) run.activities.delete(b.activityDone);
    if (b.childStarted !== undefined) {
      const child = run.children.get(b.childStarted);
      if (child) child.startedEventId = previous;
    }
    if (b.childClosed !== undefined) run.children.delete(b.childClosed);
  }

  /** Writes buffered events; returns whether there were any. */
  flushBuffered(run: Run): boolean {
    if (!run.buffered.length) return false;
    const items = run.buffered.splice(0);
    for (const b of items) this.writeExternalEvent(run, b);
    return true;
  }

  signal(run: Run, signalName: string, input: any, header: any, identity: string | undefined, external?: any, requestId?: string): void {
    if (!run.open) throw notFound('workflow execution already completed');
    if (requestId) {
      if (run.requestIds.has(`signal:${requestId}`)) return;
      run.requestIds.add(`signal:${requestId}`);
    }
    this.addExternalEventOf(run, 'WORKFLOW_EXECUTION_SIGNALED', { signalName, input, header, identity, externalWorkflowExecution: external });
  }

  requestCancel(run: Run, reason: string | undefined, identity: string | undefined, external?: { initiatedEventId: number; execution: any }): void {
    if (!run.open || run.cancelRequested) return;
    run.cancelRequested = true;
    this.addExternalEventOf(run, 'WORKFLOW_EXECUTION_CANCEL_REQUESTED', {
      cause: reason, identity,
      externalInitiatedEventId: external?.initiatedEventId,
      externalWorkflowExecution: external?.execution,
    });
  }

  terminate(run: Run, reason: string | undefined, details: any, identity: string | undefined): void {
    if (!run.open) throw notFound('workflow execution already completed');
    this.closeByServer(run, 'WORKFLOW_EXECUTION_TERMINATED', { reason, details, identity }, 'TERMINATED');
  }

  private timeoutRun(run: Run): void {
    if (!run.open) return;
    this.closeByServer(run, 'WORKFLOW_EXECUTION_TIMED_OUT', { retryState: RetryState.v('RETRY_POLICY_NOT_SET') }, 'TIMED_OUT');
  }

  /** Server-initiated close: force-fail a started task, flush the buffer, then the terminal event. */
  private closeByServer(run: Run, eventType: string, attrs: any, status: string): void {
    if (run.wft.state === 'started') {
      run.append('WORKFLOW_TASK_FAILED', {
        scheduledEventId: run.wft.scheduledEventId,
        startedEventId: run.wft.startedEventId,
        cause: WftFailedCause.v('FORCE_CLOSE_COMMAND'),
        identity: 'server',
      }, this.now());
      run.wft.timeout?.cancel();
      run.wft.state = 'none';
      this.flushBuffered(run);
    }
    run.append(eventType, attrs, this.now());
    this.closeRun(run, status);
  }

  /** Marks the run closed (the terminal event is already written) and releases everything it held. */
  closeRun(run: Run, status: string, chained = false): void {
    run.status = ExecStatus.v(status);
    run.closeTime = this.now();
    this.openRuns.delete(run);
    run.wft.timeout?.cancel();
    const attachedQueries = [...run.wft.queries.values(), ...run.pendingQueries];
    run.wft = { ...run.wft, state: 'none', queries: new Map() };
    run.pendingQueries = [];
    run.buffered = [];
    for (const t of run.timers.values()) t.handle.cancel();
    run.timers.clear();
    for (const t of run.runTimers) t.cancel();
    for (const h of this.onRunClosed) h(run);
    for (const w of [...run.waiters]) w();
    // Queries still waiting are answered from the closed run's full history.
    for (const q of attachedQueries) this.queries.dispatchLegacy(run, q);
    this.applyParentClosePolicy(run);
    // A run that continues as new or retries hands its parent over to the next run.
    if (status !== 'CONTINUED_AS_NEW' && !chained) this.notifyParent(run);
    this.clock.workChanged();
  }

  private applyParentClosePolicy(run: Run): void {
    for (const child of run.children.values()) {
      if (!child.runId) continue;
      // The child may have continued as new: its chain still starts with the run we started.
      const childRun = this.currentRun(child.namespace, child.workflowId);
      if (!childRun?.open || childRun.firstRunId !== child.runId) continue;
      const policy = child.parentClosePolicy || ParentClosePolicy.v('TERMINATE');
      if (policy === ParentClosePolicy.v('TERMINATE')) this.terminate(childRun, 'by parent close policy', undefined, 'server');
      else if (policy === ParentClosePolicy.v('REQUEST_CANCEL')) this.requestCancel(childRun, 'by parent close policy', 'server');
    }
  }

  private notifyParent(run: Run): void {
    const p = run.parent;
    if (!p) return;
    const parent = this.runs.get(p.runId);
    if (!parent?.open) return;
    const child = parent.children.get(p.initiatedEventId);
    if (!child) return;
    const last = run.history[run.history.length - 1];
    const lastAttrs = run.attributesOf(last);
    const common = {
      namespace: run.namespace,
      workflowExecution: { workflowId: run.workflowId, runId: run.runId },
      workflowType: { name: run.workflowType },
      initiatedEventId: child.initiatedEventId,
    };
    const status = ExecStatus.name(run.status);
    const closed = (type: string, attrs: any) => this.addExternalEvent(parent, { events: [{ type, attrs: { ...common, ...attrs } }], childClosed: child.initiatedEventId });
    switch (status) {
      case 'COMPLETED': return closed('CHILD_WORKFLOW_EXECUTION_COMPLETED', { result: lastAttrs.result });
      case 'FAILED': return closed('CHILD_WORKFLOW_EXECUTION_FAILED', { failure: lastAttrs.failure, retryState: lastAttrs.retryState });
      case 'CANCELED': return closed('CHILD_WORKFLOW_EXECUTION_CANCELED', { details: lastAttrs.details });
      case 'TERMINATED': return closed('CHILD_WORKFLOW_EXECUTION_TERMINATED', {});
      case 'TIMED_OUT': return closed('CHILD_WORKFLOW_EXECUTION_TIMED_OUT', { retryState: lastAttrs.retryState });
    }
  }

  // ---------------------------------------------------------------- workflow retries

  /**
   * Writes WorkflowExecutionFailed for `failure`; when the start request's retry policy allows
   * another attempt, the event names the next run and that run starts after the backoff.
   */
  failRun(run: Run, failure: any, wtc: number): void {
    const start = run.startRequest;
    const startAttrs = run.attributesOf(run.history[0]);
    const attempt = startAttrs.attempt ?? 1;
    const expiresAt = timestampMs(startAttrs.workflowExecutionExpirationTime) ?? 0;
    const decision = start.retryPolicy
      ? retryDecision(withRetryDefaults(start.retryPolicy), attempt, failure, this.now(), expiresAt)
      : { retryState: RetryState.v('RETRY_POLICY_NOT_SET'), delayMs: undefined };
    const newRunId = decision.delayMs !== undefined ? randomUUID() : undefined;
    run.append('WORKFLOW_EXECUTION_FAILED', { failure, retryState: decision.retryState, newExecutionRunId: newRunId, workflowTaskCompletedEventId: wtc }, this.now());
    this.closeRun(run, 'FAILED', !!newRunId);
    if (!newRunId) return;
    this.createRun(run.namespace, { ...start, requestId: undefined, workflowStartDelay: undefined }, {
      runId: newRunId,
      continued: {
        fromRunId: run.runId, firstRunId: run.firstRunId, initiator: ContinueAsNewInitiator.v('RETRY'),
        expirationTime: expiresAt || undefined, continuedFailure: failure, backoffMs: decision.delayMs, attempt: attempt + 1,
      },
      parent: run.parent ? { ...run.parent, parentClosePolicy: run.parentClosePolicy } : undefined,
    });
  }

  // ---------------------------------------------------------------- workflow tasks

  wftQueueKey(ns: string, queue: string): string {
    return `${ns}/${queue}`;
  }

  scheduleWorkflowTask(run: Run, attempt = 1): void {
    const now = this.now();
    const ev = run.append('WORKFLOW_TASK_SCHEDULED', {
      taskQueue: { name: run.taskQueue, kind: 1 },
      startToCloseTimeout: duration(run.startRequest.wftTimeoutMs),
      attempt,
    }, now);
    const scheduledEventId = ev.eventId;
    const carried = run.wft.state === 'none' ? run.wft.queries : new Map<string, PendingQuery>();
    run.wft = { state: 'scheduled', scheduledEventId, startedEventId: 0, attempt, scheduledTime: now, startedTime: 0, queries: carried };
    for (const q of run.pendingQueries.splice(0)) run.wft.queries.set(q.id, q);
    this.enqueueWorkflowTask(run);
  }

  private enqueueWorkflowTask(run: Run): void {
    const scheduledEventId = run.wft.scheduledEventId;
    this.wftQueues.add(this.wftQueueKey(run.namespace, run.taskQueue), {
      take: (identity) => this.startWorkflowTask(run, scheduledEventId, identity),
    });
  }

  /** A poller takes the task: write WorkflowTaskStarted and build the poll response. */
  private startWorkflowTask(run: Run, scheduledEventId: number, identity: string): any {
    const wft = run.wft;
    if (!run.open || wft.state !== 'scheduled' || wft.scheduledEventId !== scheduledEventId) return undefined;
    const now = this.now();
    // The real server suggests continue-as-new past 4K events or 4 MB (limit.historyCount /
    // limit.historySize.suggestContinueAsNew); workflows read it as continueAsNewSuggested.
    const sizeBytes = historySizeBytes(run.history);
    const started = run.append('WORKFLOW_TASK_STARTED', {
      scheduledEventId,
      identity,
      requestId: randomUUID(),
      historySizeBytes: sizeBytes,
      suggestContinueAsNew: run.history.length >= SUGGEST_CONTINUE_AS_NEW_EVENTS || sizeBytes >= SUGGEST_CONTINUE_AS_NEW_BYTES,
    }, now);
    wft.state = 'started';
    wft.startedEventId = started.eventId;
    wft.startedTime = now;
    const attempt = wft.attempt;
    wft.timeout = this.clock.after(run.startRequest.wftTimeoutMs, () => this.timeoutWorkflowTask(run, scheduledEventId, attempt));
    const queries: Record<string, any> = {};
    for (const [id, q] of wft.queries) if (!q.settled) queries[id] = q.query;
    return {
      taskToken: encodeToken({ k: 'wft', runId: run.runId, scheduledEventId, attempt }),
      workflowExecution: run.execution,
      workflowType: { name: run.workflowType },
      previousStartedEventId: run.lastCompletedStartedId,
      startedEventId: started.eventId,
      attempt,
      history: { events: run.history },
      workflowExecutionTaskQueue: { name: run.taskQueue, kind: 1 },
      scheduledTime: timestamp(wft.scheduledTime),
      startedTime: timestamp(now),
      queries,
      messages: this.taskMessages?.(run, started.eventId) ?? [],
    };
  }

  /** Validates a workflow task token against the run's started task. */
  startedTaskFor(token: { runId: string; scheduledEventId: number; attempt: number }): Run {
    const run = this.runs.get(token.runId);
    if (!run) throw notFound('workflow execution not found');
    if (!run.open) throw notFound('workflow execution already completed');
    const wft = run.wft;
    if (wft.state !== 'started' || wft.scheduledEventId !== token.scheduledEventId || wft.attempt !== token.attempt) {
      throw notFound('workflow task not found (timed out or already completed)');
    }
    return run;
  }

  private timeoutWorkflowTask(run: Run, scheduledEventId: number, attempt: number): void {
    const wft = run.wft;
    if (!run.open || wft.state !== 'started' || wft.scheduledEventId !== scheduledEventId || wft.attempt !== attempt) return;
    run.append('WORKFLOW_TASK_TIMED_OUT', { scheduledEventId, startedEventId: wft.startedEventId, timeoutType: 1 /* START_TO_CLOSE */ }, this.now());
    this.retryWorkflowTask(run);
  }

  /** After a failed or timed-out attempt: flush the buffer and schedule attempt + 1. */
  retryWorkflowTask(run: Run, nextAttempt = run.wft.attempt + 1): void {
    run.wft.timeout?.cancel();
    const queries = run.wft.queries;
    run.wft = { ...run.wft, state: 'none', queries };
    this.flushBuffered(run);
    this.scheduleWorkflowTask(run, nextAttempt);
  }

  failWorkflowTask(run: Run, cause: number, failure: any, identity: string | undefined): void {
    run.append('WORKFLOW_TASK_FAILED', {
      scheduledEventId: run.wft.scheduledEventId,
      startedEventId: run.wft.startedEventId,
      cause, failure, identity,
    }, this.now());
    this.retryWorkflowTask(run);
  }

  // ---------------------------------------------------------------- misc


  stopping = false;
  /** Long polls that are not in a task queue (sticky polls) register here to end at shutdown. */
  readonly stopWaiters = new Set<() => void>();

  shutdown(): void {
    this.stopping = true;
    for (const w of this.stopWaiters) w();
    this.clock.stop();
    this.wftQueues.releaseAll();
    this.activityQueues.releaseAll();
    for (const run of this.runs.values()) for (const w of [...run.waiters]) w();
  }
}
