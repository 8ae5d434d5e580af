// Activity lifecycle on the server: dispatch of attempts to pollers, server-side retries, the four
// timeouts, and what operators do to a pending activity (pause, unpause, reset); the same for an
// activity a workflow scheduled and for a standalone one (packages/temporal-server/PROTOCOL.md#activities).
//
// Like the real server, a workflow activity's ActivityTaskStarted is written lazily together with
// the closing event, and intermediate attempts leave no trace in history. Every queued task and
// timer belongs to one dispatch (the activity's stamp) and does nothing once the activity moved on.
import { randomUUID } from 'node:crypto';
import type { TimerHandle } from '../../clock';
import type { ExternalEvents } from '../../history/external-events';
import type { EventAttributes, Failure, NewEvent, PollActivityTaskResponse } from '../../messages';
import { durationMs, RetryState, TimeoutType, timestamp } from '../../proto';
import { retryDecision, RetryDecision } from '../../retry-policy';
import type { ActivityExecution } from '../../state/activity-execution';
import type { ActivityOwner, ActivityPause, ActivityState, ScheduledActivity } from '../../state/activity-state';
import type { Run } from '../../state/run';
import { queueKey, TaskQueues } from '../../task-queues';
import { encodeToken } from '../../tokens';
import { recordStandaloneOutcome } from '../standalone/outcome';
import type { ActivityClose } from './activity-close';
import { ActivityTimeoutsMs, normaliseTimeouts, ScheduleActivityCommand, scheduledAttributes } from './schedule-activity';

type TimeoutName = 'SCHEDULE_TO_START' | 'START_TO_CLOSE' | 'HEARTBEAT' | 'SCHEDULE_TO_CLOSE';

/** A workflow run or a standalone activity execution. */
export type Owner = Run | ActivityExecution;

export interface ActivityAttemptDeps {
  clock: { now(): number; at(due: number, fn: () => void): TimerHandle; after(ms: number, fn: () => void): TimerHandle; workChanged(): void };
  queues: TaskQueues<PollActivityTaskResponse>;
  /** Where a workflow activity's outcome goes: events on its run. */
  events: Pick<ExternalEvents, 'add'>;
}

/** What a heartbeat tells the worker (RecordActivityTaskHeartbeatResponse). */
export interface HeartbeatAnswer {
  cancelRequested: boolean;
  activityPaused: boolean;
  activityReset: boolean;
}

export interface UnpauseOptions {
  resetAttempts?: boolean;
  resetHeartbeat?: boolean;
  jitterMs?: number;
}

export interface ResetOptions {
  resetHeartbeat?: boolean;
  keepPaused?: boolean;
  jitterMs?: number;
}

/** A fresh activity record: attempt 1, nothing dispatched yet. */
export function newActivityState(scheduledEventId: number, attrs: ScheduledActivity, t: ActivityTimeoutsMs, firstScheduledTime: number): ActivityState {
  return {
    scheduledEventId,
    activityId: attrs.activityId ?? '',
    activityType: attrs.activityType?.name ?? '',
    taskQueue: attrs.taskQueue?.name ?? '',
    attrs,
    attempt: 1,
    state: 'queued',
    stamp: 0,
    firstScheduledTime,
    attemptScheduledTime: firstScheduledTime,
    startedTime: 0,
    startedIdentity: '',
    cancelRequested: false,
    cancelRequestedEventId: 0,
    attemptTimers: [],
    ...t,
  };
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
    const act = newActivityState(ev.eventId, attrs, t, now);
    run.activities.set(act.scheduledEventId, act);
    return this.begin(run, act, { eagerIdentity });
  }

  /**
   * Starts tracking a new activity of `owner`: its schedule-to-close timer, then the first attempt
   * now, after `delayMs` (a standalone activity's start delay), or eagerly for `eagerIdentity`.
   */
  begin(owner: Owner, act: ActivityState, opts: { delayMs?: number; eagerIdentity?: string } = {}): PollActivityTaskResponse | undefined {
    this.armScheduleToClose(owner, act);
    if (opts.eagerIdentity !== undefined) {
      const stamp = this.nextDispatch(owner, act);
      return this.start(owner, act, stamp, opts.eagerIdentity);
    }
    if (opts.delayMs) this.waitThenDispatch(owner, act, this.deps.clock.now() + opts.delayMs);
    else this.enqueue(owner, act);
    return undefined;
  }

  /** A new dispatch of the current attempt: its state is 'queued' and older tasks and timers go stale. */
  private nextDispatch(owner: Owner, act: ActivityState): number {
    owner.touch();
    act.state = 'queued';
    act.stamp = (act.stamp ?? 0) + 1;
    act.attemptScheduledTime = this.deps.clock.now();
    return act.stamp;
  }

  private enqueue(owner: Owner, act: ActivityState): void {
    const stamp = this.nextDispatch(owner, act);
    if (act.scheduleToStartMs > 0 && (act.scheduleToCloseMs === 0 || act.scheduleToStartMs < act.scheduleToCloseMs)) {
      act.attemptTimers.push(
        this.deps.clock.after(act.scheduleToStartMs, () => {
          if (this.isCurrent(owner, act, stamp, 'queued')) this.closeWithTimeout(owner, act, 'SCHEDULE_TO_START', false);
        }),
      );
    }
    this.deps.queues.add(queueKey(owner.namespace, act.taskQueue), {
      take: (identity) => this.start(owner, act, stamp, identity),
    });
    this.deps.clock.workChanged();
  }

  private isCurrent(owner: Owner, act: ActivityState, stamp: number, state: ActivityState['state']): boolean {
    return owner.open && owner.holds(act) && (act.stamp ?? 0) === stamp && act.state === state;
  }

  private start(owner: Owner, act: ActivityState, stamp: number, identity: string): PollActivityTaskResponse | undefined {
    if (!this.isCurrent(owner, act, stamp, 'queued')) return undefined;
    const now = this.deps.clock.now();
    this.clearAttemptTimers(act);
    owner.touch();
    act.state = 'started';
    act.startedTime = now;
    act.startedIdentity = identity;
    this.armRunningTimers(owner, act);
    const a = act.attrs;
    return {
      ...taskIdentity(owner, act),
      activityType: a.activityType,
      activityId: a.activityId,
      header: a.header,
      input: a.input,
      heartbeatDetails: act.heartbeatDetails,
      scheduledTime: timestamp(act.firstScheduledTime),
      currentAttemptScheduledTime: timestamp(act.attemptScheduledTime),
      startedTime: timestamp(now),
      attempt: act.attempt,
      scheduleToCloseTimeout: a.scheduleToCloseTimeout,
      startToCloseTimeout: a.startToCloseTimeout,
      heartbeatTimeout: a.heartbeatTimeout,
      retryPolicy: a.retryPolicy,
      priority: a.priority,
    };
  }

  /** Start-to-close (from the attempt's start) and heartbeat timeouts of a running attempt. */
  private armRunningTimers(owner: Owner, act: ActivityState): void {
    const stamp = act.stamp ?? 0;
    if (act.startToCloseMs > 0) {
      act.attemptTimers.push(
        this.deps.clock.at(act.startedTime + act.startToCloseMs, () => {
          if (this.isCurrent(owner, act, stamp, 'started')) this.attemptTimedOut(owner, act, 'START_TO_CLOSE');
        }),
      );
    }
    this.armHeartbeatTimer(owner, act);
  }

  /** (Re-)starts the heartbeat timeout of the running attempt (at start and on each heartbeat). */
  private armHeartbeatTimer(owner: Owner, act: ActivityState): void {
    this.heartbeatTimer.get(act)?.cancel();
    if (act.heartbeatMs <= 0 || act.paused) return;
    const stamp = act.stamp ?? 0;
    this.heartbeatTimer.set(
      act,
      this.deps.clock.after(act.heartbeatMs, () => {
        if (this.isCurrent(owner, act, stamp, 'started')) this.attemptTimedOut(owner, act, 'HEARTBEAT');
      }),
    );
  }

  private armScheduleToClose(owner: Owner, act: ActivityState): void {
    act.scheduleToCloseTimer?.cancel();
    act.scheduleToCloseTimer = undefined;
    if (act.scheduleToCloseMs <= 0 || act.paused) return;
    act.scheduleToCloseTimer = this.deps.clock.at(act.firstScheduledTime + act.scheduleToCloseMs, () => this.timeoutScheduleToClose(owner, act));
  }

  private clearAttemptTimers(act: ActivityState): void {
    for (const t of act.attemptTimers.splice(0)) t.cancel();
    this.heartbeatTimer.get(act)?.cancel();
    act.retryTimer?.cancel();
  }

  /** Every timer of the activity, the schedule-to-close one included. */
  private clearAllTimers(act: ActivityState): void {
    this.clearAttemptTimers(act);
    act.scheduleToCloseTimer?.cancel();
    act.scheduleToCloseTimer = undefined;
  }

  // ------------------------------------------------------------ what the worker reports

  /** A heartbeat of the running attempt: keeps its details and tells it what happened meanwhile. */
  heartbeat(owner: Owner, act: ActivityState, details: ActivityState['heartbeatDetails']): HeartbeatAnswer {
    if (details) act.heartbeatDetails = details;
    act.lastHeartbeatTime = this.deps.clock.now();
    act.heartbeatCount = (act.heartbeatCount ?? 0) + 1;
    owner.touch();
    this.armHeartbeatTimer(owner, act);
    return { cancelRequested: act.cancelRequested, activityPaused: !!act.paused, activityReset: !!act.resetRequested };
  }

  /** The worker finished the attempt. */
  completed(owner: Owner, act: ActivityState, result: EventAttributes<'ACTIVITY_TASK_COMPLETED'>['result'], identity: string | undefined): void {
    this.close(owner, act, true, { type: 'ACTIVITY_TASK_COMPLETED', attrs: { result, identity } });
  }

  /** A failed attempt (reported by the worker): retry per policy, hold it while paused, or close as failed. */
  failed(owner: Owner, act: ActivityState, failure: Failure | undefined, identity: string | undefined): void {
    const decision = this.retryDecision(act, failure);
    if (decision.delayMs !== undefined) return this.retryLater(owner, act, failure, decision.delayMs);
    this.close(owner, act, true, { type: 'ACTIVITY_TASK_FAILED', attrs: { failure, identity, retryState: decision.retryState } });
  }

  /**
   * A cancellation was asked for (RequestCancelActivityTask, RequestCancelActivityExecution). An
   * activity no worker holds is cancelled on the spot (returns true; the caller writes the
   * outcome); a running one learns it from its next heartbeat response.
   */
  requestCancel(act: ActivityState): boolean {
    if (act.state === 'started') {
      act.cancelRequested = true;
      return false;
    }
    this.clearAllTimers(act);
    act.state = 'closing';
    this.deps.clock.workChanged();
    return true;
  }

  /** RequestCancelActivityTask command of a workflow. Returns true when it was canceled on the spot. */
  requestCancelByCommand(run: Run, scheduledEventId: number, wtc: number): boolean {
    const act = run.activities.get(scheduledEventId)!;
    const req = run.append('ACTIVITY_TASK_CANCEL_REQUESTED', { scheduledEventId, workflowTaskCompletedEventId: wtc }, this.deps.clock.now());
    act.cancelRequestedEventId = req.eventId;
    if (!this.requestCancel(act)) return false;
    run.activities.delete(scheduledEventId);
    run.append(
      'ACTIVITY_TASK_CANCELED',
      {
        scheduledEventId,
        latestCancelRequestedEventId: req.eventId,
        startedEventId: 0,
        identity: 'server',
      },
      this.deps.clock.now(),
    );
    return true;
  }

  /** Stops everything for an activity whose owner ends it another way (a terminated standalone activity). */
  abandon(act: ActivityState): void {
    this.clearAllTimers(act);
    act.state = 'closing';
    this.deps.clock.workChanged();
  }

  private retryDecision(act: ActivityState, failure: Failure | undefined): RetryDecision {
    if (act.cancelRequested) return { retryState: RetryState.v('CANCEL_REQUESTED') };
    // A paused activity that fails or times out waits for its unpause, whatever its policy says.
    if (act.paused) return { retryState: RetryState.v('IN_PROGRESS'), delayMs: 0 };
    const expiresAt = act.scheduleToCloseMs > 0 ? act.firstScheduledTime + act.scheduleToCloseMs : 0;
    return retryDecision(act.attrs.retryPolicy ?? {}, act.attempt, failure, this.deps.clock.now(), expiresAt);
  }

  private retryLater(owner: Owner, act: ActivityState, failure: Failure | undefined, delayMs: number): void {
    this.clearAttemptTimers(act);
    const now = this.deps.clock.now();
    act.lastFailure = failure;
    act.lastAttemptCompleteTime = now;
    act.attempt++;
    act.resetRequested = false;
    if (act.clearHeartbeatOnRetry) {
      act.heartbeatDetails = undefined;
      act.lastHeartbeatTime = undefined;
      act.clearHeartbeatOnRetry = false;
    }
    if (act.paused) this.hold(owner, act);
    else this.waitThenDispatch(owner, act, now + delayMs);
    this.deps.clock.workChanged();
  }

  /** Waits (state 'backoff') until `due`, then queues the attempt. */
  private waitThenDispatch(owner: Owner, act: ActivityState, due: number): void {
    owner.touch();
    act.state = 'backoff';
    act.retryDue = due;
    const stamp = act.stamp ?? 0;
    act.retryTimer = this.deps.clock.at(due, () => {
      if (this.isCurrent(owner, act, stamp, 'backoff')) this.enqueue(owner, act);
    });
  }

  /** Holds a paused activity that no worker runs: no task, no timer, until it is unpaused. */
  private hold(owner: Owner, act: ActivityState): void {
    owner.touch();
    act.state = 'paused';
    act.stamp = (act.stamp ?? 0) + 1;
    this.clearAllTimers(act);
  }

  // ------------------------------------------------------------ pause, unpause, reset

  /**
   * PauseActivity: an activity waiting for a worker or a retry is held; a running attempt keeps
   * running (it may still complete) and learns of the pause from its heartbeat response. While
   * paused, no timeout fires. Pausing twice is an error unless it is the same request.
   */
  pause(owner: Owner, act: ActivityState, pause: ActivityPause): 'paused' | 'already' {
    if (act.paused) return act.paused.requestId && act.paused.requestId === pause.requestId ? 'paused' : 'already';
    act.paused = pause;
    if (act.state === 'started') {
      this.clearAllTimers(act);
      owner.touch();
    } else if (act.state === 'queued' || act.state === 'backoff') {
      this.hold(owner, act);
    }
    this.deps.clock.workChanged();
    return 'paused';
  }

  /** UnpauseActivity: a held activity is dispatched now (after `jitterMs`); a running one gets its timers back. */
  unpause(owner: Owner, act: ActivityState, opts: UnpauseOptions = {}): void {
    if (!act.paused) return;
    act.paused = undefined;
    if (opts.resetAttempts) act.attempt = 1;
    if (opts.resetHeartbeat) {
      act.heartbeatDetails = undefined;
      act.lastHeartbeatTime = undefined;
    }
    this.resume(owner, act, opts.jitterMs);
  }

  /** After a pause ends: timers again, and a held activity goes back to the queue. */
  private resume(owner: Owner, act: ActivityState, jitterMs = 0): void {
    owner.touch();
    this.armScheduleToClose(owner, act);
    if (act.state === 'started') this.armRunningTimers(owner, act);
    else if (act.state === 'paused') this.dispatchSoon(owner, act, jitterMs);
    this.deps.clock.workChanged();
  }

  /** Queues the activity now, or after a random part of `jitterMs`. */
  private dispatchSoon(owner: Owner, act: ActivityState, jitterMs = 0): void {
    this.clearAttemptTimers(act);
    act.stamp = (act.stamp ?? 0) + 1;
    if (jitterMs > 0) this.waitThenDispatch(owner, act, this.deps.clock.now() + Math.floor(Math.random() * jitterMs));
    else this.enqueue(owner, act);
  }

  /**
   * ResetActivity: back to attempt 1. A running attempt keeps running and learns of the reset from
   * its heartbeat response; its retry (if any) is attempt 2. A paused activity is unpaused unless
   * `keepPaused`; one waiting for a worker or a retry is dispatched at once.
   */
  reset(owner: Owner, act: ActivityState, opts: ResetOptions = {}): void {
    act.attempt = 1;
    owner.touch();
    if (act.state === 'started') {
      act.resetRequested = true;
      if (opts.resetHeartbeat) act.clearHeartbeatOnRetry = true;
    } else if (opts.resetHeartbeat) {
      act.heartbeatDetails = undefined;
      act.lastHeartbeatTime = undefined;
    }
    if (act.paused && !opts.keepPaused) {
      act.paused = undefined;
      this.resume(owner, act, opts.jitterMs);
      return;
    }
    if (act.paused || act.state === 'started') return;
    this.dispatchSoon(owner, act, opts.jitterMs);
    this.deps.clock.workChanged();
  }

  // ------------------------------------------------------------ changing options

  /**
   * UpdateActivityOptions: the activity runs with `next` from now on. A waiting activity is queued
   * again (on its new task queue), a retry keeps its due time, a running attempt gets timeouts from
   * the new values; the schedule-to-close deadline moves with its timeout.
   */
  updateOptions(owner: Owner, act: ActivityState, next: { attrs: ScheduledActivity; timeouts: ActivityTimeoutsMs }): void {
    act.originalAttrs ??= act.attrs;
    this.setOptions(owner, act, next);
  }

  /** Back to the options it was scheduled with. */
  restoreOptions(owner: Owner, act: ActivityState, original: { attrs: ScheduledActivity; timeouts: ActivityTimeoutsMs }): void {
    act.originalAttrs = undefined;
    this.setOptions(owner, act, original);
  }

  private setOptions(owner: Owner, act: ActivityState, next: { attrs: ScheduledActivity; timeouts: ActivityTimeoutsMs }): void {
    act.attrs = next.attrs;
    act.taskQueue = next.attrs.taskQueue?.name ?? act.taskQueue;
    Object.assign(act, next.timeouts);
    owner.touch();
    this.armScheduleToClose(owner, act);
    if (act.state === 'queued') {
      this.clearAttemptTimers(act);
      this.enqueue(owner, act);
    } else if (act.state === 'backoff') {
      this.clearAttemptTimers(act);
      act.stamp = (act.stamp ?? 0) + 1;
      this.waitThenDispatch(owner, act, act.retryDue ?? this.deps.clock.now());
    } else if (act.state === 'started') {
      this.clearAttemptTimers(act);
      this.armRunningTimers(owner, act);
    }
    this.deps.clock.workChanged();
  }

  /**
   * After a restart: re-arm the timers of every open activity of `owner`. An attempt that was
   * running when the server stopped is lost (its worker's completion would be refused), so it
   * times out now and retries per its policy.
   */
  restore(owner: Owner): void {
    const acts = owner.kind === 'workflow' ? [...owner.activities.values()] : [owner.act];
    for (const act of acts) {
      act.attemptTimers = [];
      act.retryTimer = undefined;
      act.scheduleToCloseTimer = undefined;
      act.stamp ??= 0;
      this.armScheduleToClose(owner, act);
      if (act.state === 'queued') this.enqueue(owner, act);
      else if (act.state === 'backoff') this.waitThenDispatch(owner, act, act.retryDue ?? this.deps.clock.now());
      else if (act.state === 'started') this.attemptTimedOut(owner, act, 'START_TO_CLOSE');
    }
  }

  // ------------------------------------------------------------ timeouts and closing

  private timeoutFailure(type: TimeoutName, act: ActivityState, cause?: Failure): Failure {
    return {
      message: `activity ${type} timeout`,
      source: 'Server',
      cause,
      timeoutFailureInfo: { timeoutType: TimeoutType.v(type), lastHeartbeatDetails: act.heartbeatDetails },
    };
  }

  /** Start-to-close or heartbeat timeout of a running attempt: retry per policy or close. */
  private attemptTimedOut(owner: Owner, act: ActivityState, type: 'START_TO_CLOSE' | 'HEARTBEAT'): void {
    const failure = this.timeoutFailure(type, act);
    const decision = this.retryDecision(act, failure);
    if (decision.delayMs !== undefined) return this.retryLater(owner, act, failure, decision.delayMs);
    this.closeWithTimeout(owner, act, type, true, decision.retryState);
  }

  private timeoutScheduleToClose(owner: Owner, act: ActivityState): void {
    if (!owner.open || !owner.holds(act) || act.state === 'closing' || act.paused) return;
    this.closeWithTimeout(owner, act, 'SCHEDULE_TO_CLOSE', act.state === 'started', RetryState.v('TIMEOUT'), act.lastFailure);
  }

  private closeWithTimeout(
    owner: Owner,
    act: ActivityState,
    type: TimeoutName,
    wasStarted: boolean,
    retryState = RetryState.v('TIMEOUT'),
    cause?: Failure,
  ): void {
    const failure = this.timeoutFailure(type, act, cause);
    this.close(owner, act, wasStarted, { type: 'ACTIVITY_TASK_TIMED_OUT', attrs: { failure, retryState } });
  }

  /**
   * The activity is over. A workflow's gets (lazily) ActivityTaskStarted and the closing event,
   * buffered if a workflow task is running; a standalone one records its outcome.
   */
  close(owner: Owner, act: ActivityState, wasStarted: boolean, closing: ActivityClose): void {
    this.clearAllTimers(act);
    act.state = 'closing';
    if (owner.kind === 'standalone') {
      recordStandaloneOutcome(owner, closing, this.deps.clock.now());
    } else {
      const events: NewEvent[] = [];
      if (wasStarted) {
        events.push({
          type: 'ACTIVITY_TASK_STARTED',
          attrs: {
            scheduledEventId: act.scheduledEventId,
            identity: act.startedIdentity,
            requestId: randomUUID(),
            attempt: act.attempt,
            lastFailure: act.lastFailure,
          },
        });
      }
      events.push({ type: closing.type, attrs: { scheduledEventId: act.scheduledEventId, startedEventId: 0, ...closing.attrs } } as NewEvent);
      this.deps.events.add(owner, { events, linkStarted: wasStarted, activityDone: act.scheduledEventId });
    }
    this.deps.clock.workChanged();
  }

  /** The run closed: stop every activity timer it had. */
  runClosed(run: Run): void {
    for (const act of run.activities.values()) this.clearAllTimers(act);
    run.activities.clear();
  }
}

/** The poll-response fields that name the activity's owner, and the task token. */
function taskIdentity(owner: Owner, act: ActivityState): PollActivityTaskResponse {
  if (owner.kind === 'standalone') {
    return { taskToken: encodeToken({ k: 'sact', ns: owner.namespace, runId: owner.runId, attempt: act.attempt }), activityRunId: owner.runId };
  }
  return {
    taskToken: encodeToken({ k: 'act', ns: owner.namespace, runId: owner.runId, scheduledEventId: act.scheduledEventId, attempt: act.attempt }),
    workflowNamespace: owner.namespace,
    workflowType: { name: owner.workflowType },
    workflowExecution: owner.execution,
  };
}
