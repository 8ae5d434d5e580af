// Activity lifecycle on the server: scheduling with normalised timeouts and retry policy, dispatch
// to pollers, heartbeats, server-side retries and the four timeouts.
//
// Like the real server, ActivityTaskStarted is written lazily together with the closing event, and
// intermediate attempts leave no trace in history (brief 4.4). Every timer is keyed by attempt so a
// stale timer from an earlier attempt does nothing.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { randomUUID } from 'node:crypto';
import type { Engine } from './engine';
import { invalidArgument, notFound } from './errors';
import { duration, durationMs, RetryState, TimeoutType, timestamp } from './proto';
import type { ActivityState, Run } from './run';
import { encodeToken } from './tokens';
import { retryDecision, RetryDecision, withRetryDefaults } from './retry-policy';


export class Activities {
  constructor(private readonly engine: Engine) {
    engine.onRunClosed.push((run) => this.releaseRun(run));
    engine.onRestore.push((run) => this.restore(run));
  }

  queueKey(ns: string, queue: string): string {
    return `${ns}/${queue}`;
  }

  /** Validation used before a workflow task completion is applied (keeps completions atomic). */
  static validateSchedule(a: any): string | undefined {
    if (!a?.activityId) return 'ActivityId is not set on command.';
    if (!a.activityType?.name) return 'ActivityType is not set on command.';
    if (!durationMs(a.scheduleToCloseTimeout) && !durationMs(a.startToCloseTimeout)) {
      return 'A valid StartToClose or ScheduleToCloseTimeout is not set on command.';
    }
    return undefined;
  }

  /**
   * ScheduleActivityTask command. With `eagerIdentity` (the worker asked for eager execution and
   * reserved a slot) the first attempt is handed straight back in the completion response instead
   * of going through the task queue; returns that poll response.
   */
  schedule(run: Run, a: any, wtc: number, eagerIdentity?: string): any {
    const runTimeoutMs = durationMs(run.startRequest.workflowRunTimeout);
    let s2c = durationMs(a.scheduleToCloseTimeout);
    let s2s = durationMs(a.scheduleToStartTimeout);
    let stc = durationMs(a.startToCloseTimeout);
    let hb = durationMs(a.heartbeatTimeout);
    if (s2c > 0) {
      s2s = s2s > 0 ? Math.min(s2s, s2c) : s2c;
      stc = stc > 0 ? Math.min(stc, s2c) : s2c;
    } else {
      s2c = runTimeoutMs;
      s2s = s2s || runTimeoutMs;
    }
    if (runTimeoutMs > 0) {
      s2c = Math.min(s2c || runTimeoutMs, runTimeoutMs);
      s2s = Math.min(s2s || runTimeoutMs, runTimeoutMs);
      stc = Math.min(stc, runTimeoutMs);
    }
    if (hb > stc) hb = stc;
    const retryPolicy = withRetryDefaults(a.retryPolicy);
    const attrs = {
      activityId: a.activityId,
      activityType: a.activityType,
      taskQueue: { name: a.taskQueue?.name || run.taskQueue, kind: 1 },
      header: a.header,
      input: a.input,
      scheduleToCloseTimeout: duration(s2c),
      scheduleToStartTimeout: duration(s2s),
      startToCloseTimeout: duration(stc),
      heartbeatTimeout: duration(hb),
      workflowTaskCompletedEventId: wtc,
      retryPolicy,
      priority: a.priority,
    };
    const now = this.engine.now();
    const ev = run.append('ACTIVITY_TASK_SCHEDULED', attrs, now);
    const act: ActivityState = {
      scheduledEventId: ev.eventId,
      activityId: a.activityId,
      activityType: a.activityType.name,
      taskQueue: attrs.taskQueue.name,
      attrs,
      attempt: 1,
      state: 'queued',
      firstScheduledTime: now,
      attemptScheduledTime: now,
      startedTime: 0,
      startedIdentity: '',
      cancelRequested: false,
      cancelRequestedEventId: 0,
      attemptTimers: [],
      scheduleToCloseMs: s2c,
      scheduleToStartMs: s2s,
      startToCloseMs: stc,
      heartbeatMs: hb,
    };
    run.activities.set(act.scheduledEventId, act);
    if (s2c > 0) act.scheduleToCloseTimer = this.engine.clock.after(s2c, () => this.timeoutScheduleToClose(run, act));
    if (eagerIdentity !== undefined) return this.start(run, act, act.attempt, eagerIdentity);
    this.enqueue(run, act);
    return undefined;
  }

  private enqueue(run: Run, act: ActivityState): void {
    run.touch();
    act.state = 'queued';
    act.attemptScheduledTime = this.engine.now();
    const attempt = act.attempt;
    if (act.scheduleToStartMs > 0 && (act.scheduleToCloseMs === 0 || act.scheduleToStartMs < act.scheduleToCloseMs)) {
      act.attemptTimers.push(this.engine.clock.after(act.scheduleToStartMs, () => {
        if (this.isCurrent(run, act, attempt, 'queued')) this.closeWithTimeout(run, act, 'SCHEDULE_TO_START', false);
      }));
    }
    this.engine.activityQueues.add(this.queueKey(run.namespace, act.taskQueue), {
      take: (identity) => this.start(run, act, attempt, identity),
    });
  }

  private isCurrent(run: Run, act: ActivityState, attempt: number, state: ActivityState['state']): boolean {
    return run.open && run.activities.get(act.scheduledEventId) === act && act.attempt === attempt && act.state === state;
  }

  private start(run: Run, act: ActivityState, attempt: number, identity: string): any {
    if (!this.isCurrent(run, act, attempt, 'queued')) return undefined;
    const now = this.engine.now();
    this.clearAttemptTimers(act);
    run.touch();
    act.state = 'started';
    act.startedTime = now;
    act.startedIdentity = identity;
    if (act.startToCloseMs > 0) {
      act.attemptTimers.push(this.engine.clock.after(act.startToCloseMs, () => {
        if (this.isCurrent(run, act, attempt, 'started')) this.attemptTimedOut(run, act, 'START_TO_CLOSE');
      }));
    }
    this.armHeartbeatTimer(run, act);
    const a = act.attrs;
    return {
      taskToken: encodeToken({ k: 'act', runId: run.runId, scheduledEventId: act.scheduledEventId, attempt }),
      workflowNamespace: run.namespace,
      workflowType: { name: run.workflowType },
      workflowExecution: run.execution,
      activityType: a.activityType,
      activityId: a.activityId,
      header: a.header,
      input: a.input,
      heartbeatDetails: act.heartbeatDetails,
      scheduledTime: timestamp(act.firstScheduledTime),
      currentAttemptScheduledTime: timestamp(act.attemptScheduledTime),
      startedTime: timestamp(now),
      attempt,
      scheduleToCloseTimeout: a.scheduleToCloseTimeout,
      startToCloseTimeout: a.startToCloseTimeout,
      heartbeatTimeout: a.heartbeatTimeout,
      retryPolicy: a.retryPolicy,
      priority: a.priority,
    };
  }

  private heartbeatTimer = new WeakMap<ActivityState, { cancel(): void }>();

  private armHeartbeatTimer(run: Run, act: ActivityState): void {
    this.heartbeatTimer.get(act)?.cancel();
    if (act.heartbeatMs <= 0) return;
    const attempt = act.attempt;
    this.heartbeatTimer.set(act, this.engine.clock.after(act.heartbeatMs, () => {
      if (this.isCurrent(run, act, attempt, 'started')) this.attemptTimedOut(run, act, 'HEARTBEAT');
    }));
  }

  private clearAttemptTimers(act: ActivityState): void {
    for (const t of act.attemptTimers.splice(0)) t.cancel();
    this.heartbeatTimer.get(act)?.cancel();
    act.retryTimer?.cancel();
  }

  // ------------------------------------------------------------ worker reports

  /** Finds the started activity a task token names, or NOT_FOUND. */
  byToken(token: { runId: string; scheduledEventId: number; attempt: number }): { run: Run; act: ActivityState } {
    const run = this.engine.runs.get(token.runId);
    if (!run?.open) throw notFound('workflow execution already completed');
    const act = run.activities.get(token.scheduledEventId);
    if (!act || act.state !== 'started' || act.attempt !== token.attempt) throw notFound('activity task not found');
    return { run, act };
  }

  byId(ns: string, workflowId: string, runId: string | undefined, activityId: string): { run: Run; act: ActivityState } {
    const run = this.engine.resolveRun(ns, { workflowId, runId });
    if (!run.open) throw notFound('workflow execution already completed');
    for (const act of run.activities.values()) {
      if (act.activityId === activityId && act.state === 'started') return { run, act };
    }
    throw notFound(`activity ${activityId} not found or not started`);
  }

  heartbeat(run: Run, act: ActivityState, details: any): { cancelRequested: boolean } {
    if (details) {
      act.heartbeatDetails = details;
      run.touch();
    }
    this.armHeartbeatTimer(run, act);
    return { cancelRequested: act.cancelRequested };
  }

  completed(run: Run, act: ActivityState, result: any, identity: string | undefined): void {
    this.close(run, act, true, 'ACTIVITY_TASK_COMPLETED', { result, identity });
  }

  failed(run: Run, act: ActivityState, failure: any, lastHeartbeatDetails: any, identity: string | undefined): void {
    if (lastHeartbeatDetails) act.heartbeatDetails = lastHeartbeatDetails;
    const decision = this.retryDecision(act, failure);
    if (decision.delayMs !== undefined) return this.retryLater(run, act, failure, decision.delayMs);
    this.close(run, act, true, 'ACTIVITY_TASK_FAILED', { failure, identity, retryState: decision.retryState });
  }

  canceled(run: Run, act: ActivityState, details: any, identity: string | undefined): void {
    if (!act.cancelRequested) throw invalidArgument('activity cancellation was not requested');
    this.close(run, act, true, 'ACTIVITY_TASK_CANCELED', { details, identity, latestCancelRequestedEventId: act.cancelRequestedEventId });
  }

  /** RequestCancelActivityTask command. Returns true when the activity was canceled on the spot. */
  requestCancel(run: Run, scheduledEventId: number, wtc: number): boolean {
    const act = run.activities.get(scheduledEventId)!;
    const req = run.append('ACTIVITY_TASK_CANCEL_REQUESTED', { scheduledEventId, workflowTaskCompletedEventId: wtc }, this.engine.now());
    if (act.state === 'queued' || act.state === 'backoff') {
      this.clearAttemptTimers(act);
      act.scheduleToCloseTimer?.cancel();
      run.activities.delete(scheduledEventId);
      run.append('ACTIVITY_TASK_CANCELED', {
        scheduledEventId, latestCancelRequestedEventId: req.eventId, startedEventId: 0, identity: 'server',
      }, this.engine.now());
      return true;
    }
    act.cancelRequested = true;
    act.cancelRequestedEventId = req.eventId;
    return false;
  }

  // ------------------------------------------------------------ retries and timeouts

  private retryDecision(act: ActivityState, failure: any): RetryDecision {
    if (act.cancelRequested) return { retryState: RetryState.v('CANCEL_REQUESTED') };
    const expiresAt = act.scheduleToCloseMs > 0 ? act.firstScheduledTime + act.scheduleToCloseMs : 0;
    return retryDecision(act.attrs.retryPolicy, act.attempt, failure, this.engine.now(), expiresAt);
  }

  private retryLater(run: Run, act: ActivityState, failure: any, delayMs: number): void {
    this.clearAttemptTimers(act);
    act.lastFailure = failure;
    act.state = 'backoff';
    act.attempt++;
    this.armRetry(run, act, this.engine.now() + delayMs);
    this.engine.clock.workChanged();
  }

  private armRetry(run: Run, act: ActivityState, due: number): void {
    run.touch();
    act.retryDue = due;
    const attempt = act.attempt;
    act.retryTimer = this.engine.clock.at(due, () => {
      if (this.isCurrent(run, act, attempt, 'backoff')) this.enqueue(run, act);
    });
  }

  /**
   * After a restart: re-arm the timers of every open activity. An attempt that was running when
   * the server stopped is lost (its worker's completion would be refused), so it times out now
   * and retries per its policy.
   */
  restore(run: Run): void {
    for (const act of run.activities.values()) {
      act.attemptTimers = [];
      act.retryTimer = undefined;
      act.scheduleToCloseTimer = undefined;
      if (act.scheduleToCloseMs > 0) {
        act.scheduleToCloseTimer = this.engine.clock.at(act.firstScheduledTime + act.scheduleToCloseMs, () => this.timeoutScheduleToClose(run, act));
      }
      if (act.state === 'queued') this.enqueue(run, act);
      else if (act.state === 'backoff') this.armRetry(run, act, act.retryDue ?? this.engine.now());
      else if (act.state === 'started') this.attemptTimedOut(run, act, 'START_TO_CLOSE');
    }
  }

  private timeoutFailure(type: string, act: ActivityState, cause?: any): any {
    return {
      message: `activity ${type} timeout`,
      source: 'Server',
      cause,
      timeoutFailureInfo: { timeoutType: TimeoutType.v(type), lastHeartbeatDetails: act.heartbeatDetails },
    };
  }

  /** Start-to-close or heartbeat timeout of a running attempt: retry per policy or close. */
  private attemptTimedOut(run: Run, act: ActivityState, type: 'START_TO_CLOSE' | 'HEARTBEAT'): void {
    const failure = this.timeoutFailure(type, act);
    const decision = this.retryDecision(act, failure);
    if (decision.delayMs !== undefined) return this.retryLater(run, act, failure, decision.delayMs);
    this.closeWithTimeout(run, act, type, true, decision.retryState);
  }

  private timeoutScheduleToClose(run: Run, act: ActivityState): void {
    if (!run.open || run.activities.get(act.scheduledEventId) !== act || act.state === 'closing') return;
    this.closeWithTimeout(run, act, 'SCHEDULE_TO_CLOSE', act.state === 'started', RetryState.v('TIMEOUT'), act.lastFailure);
  }

  private closeWithTimeout(run: Run, act: ActivityState, type: string, wasStarted: boolean, retryState = RetryState.v('TIMEOUT'), cause?: any): void {
    const failure = this.timeoutFailure(type, act, cause);
    this.close(run, act, wasStarted, 'ACTIVITY_TASK_TIMED_OUT', { failure, retryState });
  }

  /** Writes (lazily) ActivityTaskStarted and the closing event, buffered if a workflow task is running. */
  private close(run: Run, act: ActivityState, wasStarted: boolean, type: string, attrs: any): void {
    this.clearAttemptTimers(act);
    act.scheduleToCloseTimer?.cancel();
    act.state = 'closing';
    const events: { type: string; attrs: any }[] = [];
    if (wasStarted) {
      events.push({
        type: 'ACTIVITY_TASK_STARTED',
        attrs: { scheduledEventId: act.scheduledEventId, identity: act.startedIdentity, requestId: randomUUID(), attempt: act.attempt, lastFailure: act.lastFailure },
      });
    }
    events.push({ type, attrs: { scheduledEventId: act.scheduledEventId, startedEventId: 0, ...attrs } });
    this.engine.addExternalEvent(run, { events, linkStarted: wasStarted, activityDone: act.scheduledEventId });
    this.engine.clock.workChanged();
  }

  private releaseRun(run: Run): void {
    for (const act of run.activities.values()) {
      this.clearAttemptTimers(act);
      act.scheduleToCloseTimer?.cancel();
    }
    run.activities.clear();
  }
}
