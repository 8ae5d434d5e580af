// ScheduleActivityTask command: validation (done before a completion is applied, so completions
// stay atomic) and the server-side normalisation of timeouts and retry policy, which standalone
// activities share (packages/temporal-server/PROTOCOL.md#activities).
import type { CommandAttributes, Duration } from '../../messages';
import { duration, durationMs, TaskQueueKind } from '../../proto';
import { withRetryDefaults } from '../../retry-policy';
import type { ScheduledActivity } from '../../state/run';

export type ScheduleActivityCommand = CommandAttributes<'SCHEDULE_ACTIVITY_TASK'>;
/** What a ScheduleActivityTask command and a StartActivityExecution request both say about the activity. */
export type ActivitySpec = Pick<
  ScheduleActivityCommand,
  | 'activityId'
  | 'activityType'
  | 'taskQueue'
  | 'header'
  | 'input'
  | 'retryPolicy'
  | 'priority'
  | 'scheduleToCloseTimeout'
  | 'scheduleToStartTimeout'
  | 'startToCloseTimeout'
  | 'heartbeatTimeout'
>;

/** Returns why the command is invalid, or undefined. */
export function validateScheduleActivity(a: ScheduleActivityCommand | undefined): string | undefined {
  if (!a?.activityId) return 'ActivityId is not set on command.';
  if (!a.activityType?.name) return 'ActivityType is not set on command.';
  if (!durationMs(a.scheduleToCloseTimeout) && !durationMs(a.startToCloseTimeout)) {
    return 'A valid StartToClose or ScheduleToCloseTimeout is not set on command.';
  }
  return undefined;
}

export interface ActivityTimeoutsMs {
  scheduleToCloseMs: number;
  scheduleToStartMs: number;
  startToCloseMs: number;
  heartbeatMs: number;
}

/**
 * Timeouts as the real server normalises them: schedule-to-close bounds the others; without it
 * the run timeout stands in; everything is capped at the run timeout, heartbeat at start-to-close.
 */
export function normaliseTimeouts(a: ActivitySpec, runTimeoutMs: number): ActivityTimeoutsMs {
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
  return { scheduleToCloseMs: s2c, scheduleToStartMs: s2s, startToCloseMs: stc, heartbeatMs: hb };
}

/** The ActivityTaskScheduled attributes written for a (validated) command. */
export function scheduledAttributes(a: ActivitySpec, t: ActivityTimeoutsMs, defaultTaskQueue: string, wtc: number): ScheduledActivity {
  const d = (ms: number): Duration => duration(ms);
  return {
    activityId: a.activityId,
    activityType: a.activityType,
    taskQueue: { name: a.taskQueue?.name || defaultTaskQueue, kind: TaskQueueKind.NORMAL },
    header: a.header,
    input: a.input,
    scheduleToCloseTimeout: d(t.scheduleToCloseMs),
    scheduleToStartTimeout: d(t.scheduleToStartMs),
    startToCloseTimeout: d(t.startToCloseMs),
    heartbeatTimeout: d(t.heartbeatMs),
    workflowTaskCompletedEventId: wtc,
    retryPolicy: withRetryDefaults(a.retryPolicy),
    priority: a.priority,
  };
}
