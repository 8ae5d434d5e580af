// Conversion between a live standalone ActivityExecution and the plain record a store keeps. Timer
// handles, queued tasks and waiters are runtime-only: they are re-created on restore.
import type { StartActivityRequest } from '../messages';
import { ActivityExecution, type ActivityCancellation, type ActivityExecutionStatus, type ActivityOutcome } from './activity-execution';
import type { ActivityState } from './activity-state';
import { jsonWithBytes, parseJsonWithBytes } from './run-state';

type StoredActivity = Omit<ActivityState, 'attemptTimers' | 'scheduleToCloseTimer' | 'retryTimer'>;

export interface StoredActivityExecution {
  v: 1;
  seq: number;
  namespace: string;
  activityId: string;
  runId: string;
  request: StartActivityRequest;
  scheduleTime: number;
  act: StoredActivity;
  status: ActivityExecutionStatus;
  closeTime: number;
  outcome?: ActivityOutcome;
  cancellation?: ActivityCancellation;
  terminateRequestId?: string;
  searchAttributes: ActivityExecution['searchAttributes'];
  requestIds: string[];
}

export function activityExecutionToJson(exec: ActivityExecution): string {
  const { attemptTimers: _a, scheduleToCloseTimer: _s, retryTimer: _r, ...act } = exec.act;
  const stored: StoredActivityExecution = {
    v: 1,
    seq: exec.seq,
    namespace: exec.namespace,
    activityId: exec.activityId,
    runId: exec.runId,
    request: exec.request,
    scheduleTime: exec.scheduleTime,
    act,
    status: exec.status,
    closeTime: exec.closeTime,
    outcome: exec.outcome,
    cancellation: exec.cancellation,
    terminateRequestId: exec.terminateRequestId,
    searchAttributes: exec.searchAttributes,
    requestIds: [...exec.requestIds],
  };
  return jsonWithBytes(stored);
}

/** Rebuilds the data part of an execution; the caller re-arms its timers and re-queues its task. */
export function activityExecutionFromJson(text: string): ActivityExecution {
  const s = parseJsonWithBytes(text) as StoredActivityExecution;
  const exec = new ActivityExecution(s.namespace, s.activityId, s.runId, s.request, s.scheduleTime, { ...s.act, attemptTimers: [] });
  exec.seq = s.seq;
  exec.status = s.status;
  exec.closeTime = s.closeTime;
  exec.outcome = s.outcome;
  exec.cancellation = s.cancellation;
  exec.terminateRequestId = s.terminateRequestId;
  exec.searchAttributes = s.searchAttributes;
  exec.requestIds = new Set(s.requestIds);
  return exec;
}
