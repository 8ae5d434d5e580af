// A standalone activity as DescribeActivityExecution, PollActivityExecution and the list RPCs show
// it: status and run state as the real server derives them, timeouts, attempt, heartbeat and
// retry details, and the outcome once closed.
import type {
  ActivityExecutionInfo,
  ActivityExecutionListInfo,
  ActivityExecutionOutcome,
  DescribeActivityRequest,
  DescribeActivityResponse,
} from '../../messages';
import { ActivityStatus, duration, PendingActivityState, timestamp } from '../../proto';
import type { ActivityExecution } from '../../state/activity-execution';

const STATUS_NAMES: Record<string, string> = {
  RUNNING: 'Running',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  CANCELED: 'Canceled',
  TERMINATED: 'Terminated',
  TIMED_OUT: 'TimedOut',
  PAUSED: 'Paused',
};

/** ActivityExecutionStatus: an open activity held by a pause is PAUSED, otherwise RUNNING until it closes. */
export function activityStatus(exec: ActivityExecution): number {
  if (exec.open && exec.act.paused && exec.act.state !== 'started') return ActivityStatus.v('PAUSED');
  return ActivityStatus.v(exec.status);
}

/** The visibility name of an activity status ('Running', 'Paused', 'Completed', ...). */
export function activityStatusName(status: number): string {
  return STATUS_NAMES[ActivityStatus.name(status) ?? ''] ?? String(status);
}

/** PendingActivityState of an open activity; unspecified once it is closed. */
function runState(exec: ActivityExecution): number {
  if (!exec.open) return 0;
  const act = exec.act;
  if (exec.cancellation) return PendingActivityState.CANCEL_REQUESTED;
  if (act.paused) return act.state === 'started' ? PendingActivityState.PAUSE_REQUESTED : PendingActivityState.PAUSED;
  return act.state === 'started' ? PendingActivityState.STARTED : PendingActivityState.SCHEDULED;
}

/** When the first attempt may be dispatched: the start time plus the start delay. */
function executionTime(exec: ActivityExecution): number {
  return exec.act.firstScheduledTime;
}

export function outcomeOf(exec: ActivityExecution): ActivityExecutionOutcome | undefined {
  if (exec.open || !exec.outcome) return undefined;
  if (exec.status === 'COMPLETED') return { result: exec.outcome.result ?? { payloads: [] } };
  return { failure: exec.outcome.failure, retryState: exec.outcome.retryState };
}

export function executionInfo(exec: ActivityExecution, req: DescribeActivityRequest = {}): ActivityExecutionInfo {
  const act = exec.act;
  const a = act.attrs;
  const closed = !exec.open;
  const waitingForRetry = exec.open && act.state === 'backoff' && act.attempt > 1 && act.retryDue !== undefined;
  return {
    activityId: exec.activityId,
    runId: exec.runId,
    activityType: a.activityType,
    status: activityStatus(exec),
    runState: runState(exec),
    taskQueue: act.taskQueue,
    scheduleToCloseTimeout: a.scheduleToCloseTimeout,
    scheduleToStartTimeout: a.scheduleToStartTimeout,
    startToCloseTimeout: a.startToCloseTimeout,
    heartbeatTimeout: a.heartbeatTimeout,
    retryPolicy: a.retryPolicy,
    heartbeatDetails: req.includeHeartbeatDetails ? act.heartbeatDetails : undefined,
    lastHeartbeatTime: act.lastHeartbeatTime ? timestamp(act.lastHeartbeatTime) : undefined,
    lastStartedTime: act.startedTime ? timestamp(act.startedTime) : undefined,
    attempt: act.attempt,
    executionDuration: closed ? duration(exec.closeTime - exec.scheduleTime) : undefined,
    scheduleTime: timestamp(exec.scheduleTime),
    expirationTime: act.scheduleToCloseMs > 0 ? timestamp(act.firstScheduledTime + act.scheduleToCloseMs) : undefined,
    closeTime: closed ? timestamp(exec.closeTime) : undefined,
    lastFailure: req.includeLastFailure ? act.lastFailure : undefined,
    lastWorkerIdentity: act.startedIdentity || undefined,
    currentRetryInterval: waitingForRetry && act.lastAttemptCompleteTime ? duration(act.retryDue! - act.lastAttemptCompleteTime) : undefined,
    lastAttemptCompleteTime: act.lastAttemptCompleteTime ? timestamp(act.lastAttemptCompleteTime) : undefined,
    nextAttemptScheduleTime: waitingForRetry ? timestamp(act.retryDue!) : undefined,
    priority: a.priority,
    searchAttributes: { indexedFields: exec.searchAttributes },
    header: a.header,
    userMetadata: exec.request.userMetadata,
    canceledReason: exec.cancellation?.reason,
    totalHeartbeatCount: act.heartbeatCount,
    startDelay: exec.request.startDelay,
    executionTime: timestamp(executionTime(exec)),
  };
}

export function describeActivity(exec: ActivityExecution, req: DescribeActivityRequest, longPollToken: Buffer): DescribeActivityResponse {
  return {
    runId: exec.runId,
    info: executionInfo(exec, req),
    input: req.includeInput ? exec.act.attrs.input : undefined,
    outcome: req.includeOutcome ? outcomeOf(exec) : undefined,
    longPollToken,
  };
}

export function listInfo(exec: ActivityExecution): ActivityExecutionListInfo {
  const closed = !exec.open;
  return {
    activityId: exec.activityId,
    runId: exec.runId,
    activityType: exec.act.attrs.activityType,
    scheduleTime: timestamp(exec.scheduleTime),
    closeTime: closed ? timestamp(exec.closeTime) : undefined,
    status: activityStatus(exec),
    searchAttributes: { indexedFields: exec.searchAttributes },
    taskQueue: exec.act.taskQueue,
    executionDuration: closed ? duration(exec.closeTime - exec.scheduleTime) : undefined,
    executionTime: timestamp(executionTime(exec)),
  };
}
