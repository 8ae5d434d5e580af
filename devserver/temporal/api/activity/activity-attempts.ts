// Activity lifecycle on the server: dispatch of attempts to pollers, server-side retries and the
// four timeouts (PROTOCOL.md, "Activities").
//
// Like the real server, ActivityTaskStarted is written lazily together with the closing event, and
// intermediate attempts leave no trace in history. Every timer is keyed by attempt so a
// stale timer from an earlier attempt does nothing.
import { randomUUID } from 'node:crypto';
import type { TimerHandle } from '../../clock';
import type { ExternalEvents } from '../../history/external-events';
import type { EventAttributes, Failure, NewEvent, PollActivityTaskResponse } from '../../messages';
import { durationMs, RetryState, TimeoutType, timestamp } from '../../proto';
import { retryDecision, RetryDecision } from '../../retry-policy';
import type { ActivityState, Run } from '../../state/run';
import { queueKey, TaskQueues } from '../../task-queues';
import { encodeToken } from '../../tokens';
import { normaliseTimeouts, ScheduleActivityCommand, scheduledAttributes } from './schedule-activity';

type TimeoutName = 'SCHEDULE_TO_START' | 'START_TO_CLOSE' | 'HEARTBEAT' | 'SCHEDULE_TO_CLOSE';
/** The closing event of an activity, without the ids the close fills in. */
type ActivityClose =
  | { type: 'ACTIVITY_TASK_COMPLETED'; attrs: EventAttributes<'ACTIVITY_TASK_COMPLETED'> }
  | { type: 'ACTIVITY_TASK_FAILED'; attrs: EventAttributes<'ACTIVITY_TASK_FAILED'> }
  | { type: 'ACTIVITY_TASK_CANCELED'; attrs: EventAttributes<'ACTIVITY_TASK_CANCELED'> }
  | { type: 'ACTIVITY_TASK_TIMED_OUT'; attrs: EventAttributes<'ACTIVITY_TASK_TIMED_OUT'> };

export interface ActivityAttemptDeps {
  clock: { now(): number; at(due: number, fn: () => void): TimerHandle; after(ms: number, fn: () => void): TimerHandle; workChanged(): void };
  queues: TaskQueues<PollActivityTaskResponse>;
  events: Pick<ExternalEvents, 'add'>;
}

export class ActivityAttempts {
  private readonly heartbeatTimer = new WeakMap<ActivityState, TimerHandle>();

  constructor(private readonly deps: ActivityAttemptDeps) {}

  /**
   * ScheduleActivityTask command. With `eagerIdentity` (the worker asked for eager execution and
   * reserved a slot) the first attempt is handed straight back in the completion response instead
   * of going through the task queue; returns that poll response.
   */
  schedule(run: Run, a: ScheduleActivityCommand, wtc: number, eagerIdentity?: string): PollActivityTaskResponse | undefined {
    const t = normaliseTimeouts(a, durationMs(run.startRequest.workflowRunTimeout));
    const attrs = scheduledAttributes(a, t, run.taskQueue, wtc);
    const now = this.deps.clock.now();
    const ev = run.append('ACTIVITY_TASK_SCHEDULED', attrs, now);
    const act: ActivityState = {
      scheduledEventId: ev.eventId,
      activityId: a.activityId ?? '',
      activityType: a.activityType?.name ?? '',
      taskQueue: attrs.taskQueue?.name ?? run.taskQueue,
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
      ...t,
    };
    run.activities.set(act.scheduledEventId, act);
    if (t.scheduleToCloseMs > 0) act.scheduleToCloseTimer = this.deps.clock.after(t.scheduleToCloseMs, () => this.timeoutScheduleToClose(run, act));
    if (eagerIdentity !== undefined) return this.start(run, act, act.attempt, eagerIdentity);
    this.enqueue(run, act);
    return undefined;
  }

  private enqueue(run: Run, act: ActivityState): void {
    run.touch();
    act.state = 'queued';
    act.attemptScheduledTime = this.deps.clock.now();
    const attempt = act.attempt;
    if (act.scheduleToStartMs > 0 && (act.scheduleToCloseMs === 0 || act.scheduleToStartMs < act.scheduleToCloseMs)) {
      act.attemptTimers.push(this.deps.clock.after(act.scheduleToStartMs, () => {
        if (this.isCurrent(run, act, attempt, 'queued')) this.closeWithTimeout(run, act, 'SCHEDULE_TO_START', false);
      }));
    }
    this.deps.queues.add(queueKey(run.namespace, act.taskQueue), {
      take: (identity) => this.start(run, act, attempt, identity),
    });
  }

  private isCurrent(run: Run, act: ActivityState, attempt: number, state: ActivityState['state']): boolean {
    return run.open && run.activities.get(act.scheduledEventId) === act && act.attempt === attempt && act.state === state;
  }

  private start(run: Run, act: ActivityState, attempt: number, identity: string): PollActivityTaskResponse | undefined {
    if (!this.isCurrent(run, act, attempt, 'queued')) return undefined;
    const now = this.deps.clock.now();
    this.clearAttemptTimers(act);
    run.touch();
    act.state = 'started';
    act.startedTime = now;
    act.startedIdentity = identity;
    if (act.startToCloseMs > 0) {
      act.attemptTimers.push(this.deps.clock.after(act.startToCloseMs, () => {
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

  /** (Re-)starts the heartbeat timeout of the running attempt (at start and on each heartbeat). */
  armHeartbeatTimer(run: Run, act: ActivityState): void {
    this.heartbeatTimer.get(act)?.cancel();
    if (act.heartbeatMs <= 0) return;
    const attempt = act.attempt;
    this.heartbeatTimer.set(act, this.deps.clock.after(act.heartbeatMs, () => {
      if (this.isCurrent(run, act, attempt, 'started')) this.attemptTimedOut(run, act, 'HEARTBEAT');
    }));
  }

  private clearAttemptTimers(act: ActivityState): void {
    for (const t of act.attemptTimers.splice(0)) t.cancel();
    this.heartbeatTimer.get(act)?.cancel();
    act.retryTimer?.cancel();
  }

  // ------------------------------------------------------------ outcomes of an attempt

  /** A failed attempt (reported by the worker): retry per policy or close as failed. */
  failed(run: Run, act: ActivityState, failure: Failure | undefined, identity: string | undefined): void {
    const decision = this.retryDecision(act, failure);
    if (decision.delayMs !== undefined) return this.retryLater(run, act, failure, decision.delayMs);
    this.close(run, act, true, { type: 'ACTIVITY_TASK_FAILED', attrs: { failure, identity, retryState: decision.retryState } });
  }

  /** RequestCancelActivityTask command. Returns true when the activity was canceled on the spot. */
  requestCancel(run: Run, scheduledEventId: number, wtc: number): boolean {
    const act = run.activities.get(scheduledEventId)!;
    const req = run.append('ACTIVITY_TASK_CANCEL_REQUESTED', { scheduledEventId, workflowTaskCompletedEventId: wtc }, this.deps.clock.now());
    if (act.state === 'queued' || act.state === 'backoff') {
      this.clearAttemptTimers(act);
      act.scheduleToCloseTimer?.cancel();
      run.activities.delete(scheduledEventId);
      run.append('ACTIVITY_TASK_CANCELED', {
        scheduledEventId, latestCancelRequestedEventId: req.eventId, startedEventId: 0, identity: 'server',
      }, this.deps.clock.now());
      return true;
    }
    act.cancelRequested = true;
    act.cancelRequestedEventId = req.eventId;
    return false;
  }

  private retryDecision(act: ActivityState, failure: Failure | undefined): RetryDecision {
    if (act.cancelRequested) return { retryState: RetryState.v('CANCEL_REQUESTED') };
    const expiresAt = act.scheduleToCloseMs > 0 ? act.firstScheduledTime + act.scheduleToCloseMs : 0;
    return retryDecision(act.attrs.retryPolicy ?? {}, act.attempt, failure, this.deps.clock.now(), expiresAt);
  }

  private retryLater(run: Run, act: ActivityState, failure: Failure | undefined, delayMs: number): void {
    this.clearAttemptTimers(act);
    act.lastFailure = failure;
    act.state = 'backoff';
    act.attempt++;
    this.armRetry(run, act, this.deps.clock.now() + delayMs);
    this.deps.clock.workChanged();
  }

  private armRetry(run: Run, act: ActivityState, due: number): void {
    run.touch();
    act.retryDue = due;
    const attempt = act.attempt;
    act.retryTimer = this.deps.clock.at(due, () => {
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
        act.scheduleToCloseTimer = this.deps.clock.at(act.firstScheduledTime + act.scheduleToCloseMs, () => this.timeoutScheduleToClose(run, act));
      }
      if (act.state === 'queued') this.enqueue(run, act);
      else if (act.state === 'backoff') this.armRetry(run, act, act.retryDue ?? this.deps.clock.now());
      else if (act.state === 'started') this.attemptTimedOut(run, act, 'START_TO_CLOSE');
    }
  }

  private timeoutFailure(type: TimeoutName, act: ActivityState, cause?: Failure): Failure {
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

  private closeWithTimeout(run: Run, act: ActivityState, type: TimeoutName, wasStarted: boolean, retryState = RetryState.v('TIMEOUT'), cause?: Failure): void {
    const failure = this.timeoutFailure(type, act, cause);
    this.close(run, act, wasStarted, { type: 'ACTIVITY_TASK_TIMED_OUT', attrs: { failure, retryState } });
  }

  /** Writes (lazily) ActivityTaskStarted and the closing event, buffered if a workflow task is running. */
  close(run: Run, act: ActivityState, wasStarted: boolean, closing: ActivityClose): void {
    this.clearAttemptTimers(act);
    act.scheduleToCloseTimer?.cancel();
    act.state = 'closing';
    const events: NewEvent[] = [];
    if (wasStarted) {
      events.push({
        type: 'ACTIVITY_TASK_STARTED',
        attrs: { scheduledEventId: act.scheduledEventId, identity: act.startedIdentity, requestId: randomUUID(), attempt: act.attempt, lastFailure: act.lastFailure },
      });
    }
    events.push({ type: closing.type, attrs: { scheduledEventId: act.scheduledEventId, startedEventId: 0, ...closing.attrs } } as NewEvent);
    this.deps.events.add(run, { events, linkStarted: wasStarted, activityDone: act.scheduledEventId });
    this.deps.clock.workChanged();
  }

  /** The run closed: stop every activity timer it had. */
  runClosed(run: Run): void {
    for (const act of run.activities.values()) {
      this.clearAttemptTimers(act);
      act.scheduleToCloseTimer?.cancel();
    }
    run.activities.clear();
  }
}
