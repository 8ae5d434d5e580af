// DescribeWorkflowExecution: configuration, execution info, pending activities and children.
import type { temporal } from '@temporalio/proto';
import type { Plain } from '../../messages';
import { duration, PendingActivityState, TaskQueueKind, timestamp } from '../../proto';
import type { Run } from '../../state/run';
import { executionInfo } from './execution-info';

export type DescribeResponse = Plain<temporal.api.workflowservice.v1.IDescribeWorkflowExecutionResponse>;

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
    pendingActivities: [...run.activities.values()].map((a) => ({
      activityId: a.activityId,
      activityType: { name: a.activityType },
      state: a.state === 'started' ? PendingActivityState.STARTED : PendingActivityState.SCHEDULED,
      heartbeatDetails: a.heartbeatDetails,
      attempt: a.attempt,
      maximumAttempts: a.attrs.retryPolicy?.maximumAttempts,
      scheduledTime: timestamp(a.attemptScheduledTime),
      lastFailure: a.lastFailure,
      lastWorkerIdentity: a.startedIdentity,
    })),
    pendingChildren: [...run.children.values()].map((c) => ({ workflowId: c.workflowId, runId: c.runId, workflowTypeName: c.workflowType, initiatedId: c.initiatedEventId, parentClosePolicy: c.parentClosePolicy })),
  };
}
