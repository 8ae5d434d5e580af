// How a standalone activity ends: the closing event a workflow activity would get becomes the
// execution's status and outcome, which PollActivityExecution and Describe return.
import type { Failure, Payloads } from '../../messages';
import type { ActivityExecution, ActivityExecutionStatus, ActivityOutcome } from '../../state/activity-execution';
import type { ActivityClose } from '../activity/activity-close';

/** Marks the execution closed with `status` and `outcome`, and wakes whoever waits for it. */
export function closeExecution(exec: ActivityExecution, status: ActivityExecutionStatus, outcome: ActivityOutcome, now: number): void {
  exec.status = status;
  exec.outcome = outcome;
  exec.closeTime = now;
  exec.touch();
}

export function recordStandaloneOutcome(exec: ActivityExecution, closing: ActivityClose, now: number): void {
  switch (closing.type) {
    case 'ACTIVITY_TASK_COMPLETED':
      return closeExecution(exec, 'COMPLETED', { result: closing.attrs.result }, now);
    case 'ACTIVITY_TASK_FAILED':
      return closeExecution(exec, 'FAILED', { failure: closing.attrs.failure, retryState: closing.attrs.retryState }, now);
    case 'ACTIVITY_TASK_TIMED_OUT':
      return closeExecution(exec, 'TIMED_OUT', { failure: closing.attrs.failure, retryState: closing.attrs.retryState }, now);
    case 'ACTIVITY_TASK_CANCELED':
      return closeExecution(exec, 'CANCELED', { failure: canceledFailure(exec, closing.attrs.details) }, now);
  }
}

/** The failure a canceled standalone activity reports (the real server's wording). */
export function canceledFailure(exec: ActivityExecution, details: Payloads | undefined): Failure {
  return { message: 'Activity canceled', canceledFailureInfo: { details, identity: exec.cancellation?.identity } };
}
