// DescribeWorkflowExecution: configuration, execution info, pending activities and children.
import type { temporal } from '@temporalio/proto';
import type { PendingActivityInfo, Plain } from '../../messages';
import { duration, PendingActivityState, TaskQueueKind, timestamp } from '../../proto';
import type { ActivityState } from '../../state/activity-state';
import type { Run } from '../../state/run';
import { executionInfo } from './execution-info';

export type DescribeResponse = Plain<temporal.api.workflowservice.v1.IDescribeWorkflowExecutionResponse>;

/** A pending activity's state as the real server reports it: a paused one is PAUSED, or PAUSE_REQUESTED while a worker still runs it. */
function pendingState(a: ActivityState): number {
  if (a.cancelRequested) return PendingActivityState.CANCEL_REQUESTED;
  if (a.paused) return a.state === 'started' ? PendingActivityState.PAUSE_REQUESTED : PendingActivityState.PAUSED;
  return a.state === 'started' ? PendingActivityState.STARTED : PendingActivityState.SCHEDULED;
}

export function pendingActivity(a: ActivityState): PendingActivityInfo {
  const waitingForRetry = a.state === 'backoff' && a.attempt > 1 && a.retryDue !== undefined;
  return {
    activityId: a.activityId,
    activityType: { name: a.activityType },
    state: pendingState(a),
    heartbeatDetails: a.heartbeatDetails,
    lastHeartbeatTime: a.lastHeartbeatTime ? timestamp(a.lastHeartbeatTime) : undefined,
    lastStartedTime: a.startedTime ? timestamp(a.startedTime) : undefined,
    attempt: a.attempt,
    maximumAttempts: a.attrs.retryPolicy?.maximumAttempts,
    scheduledTime: timestamp(a.attemptScheduledTime),
    expirationTime: a.scheduleToCloseMs > 0 ? timestamp(a.firstScheduledTime + a.scheduleToCloseMs) : undefined,
    lastFailure: a.lastFailure,
    lastWorkerIdentity: a.startedIdentity,
    lastAttemptCompleteTime: a.lastAttemptCompleteTime ? timestamp(a.lastAttemptCompleteTime) : undefined,
    nextAttemptScheduleTime: waitingForRetry ? timestamp(a.retryDue!) : undefined,
    currentRetryInterval: waitingForRetry && a.lastAttemptCompleteTime ? duration(a.retryDue! - a.lastAttemptCompleteTime) : undefined,
    paused: !!a.paused,
    pauseInfo: a.paused ? { pauseTime: timestamp(a.paused.time), manual: { identity: a.paused.identity, reason: a.paused.reason } } : undefined,
    priority: a.attrs.priority,
  };
}

export function describeRun(run: Run): DescribeResponse {
  const start = run.startRequest;
  return {
    executionConfig: {
      taskQueue: { name: run.taskQueue, kind: TaskQueueKind.NORMAL },
      workflowExecutionTimeout: start.workflowExecutionTimeout,
      workflowRunTimeout: start.workflowRunTimeout,
      defaultWorkflowTaskTimeout: duration(start.wftTimeoutMs ?? 0),
      userMetadata: start.userMetadata,
    },
    workflowExecutionInfo: executionInfo(run),
    pendingActivities: [...run.activities.values()].map(pendingActivity),
    pendingChildren: [...run.children.values()].map((c) => ({
      workflowId: c.workflowId,
      runId: c.runId,
      workflowTypeName: c.workflowType,
      initiatedId: c.initiatedEventId,
      parentClosePolicy: c.parentClosePolicy,
    })),
  };
}
