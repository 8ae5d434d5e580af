// UpdateActivityOptions / UpdateActivityExecutionOptions: an operator changes a pending activity's
// task queue, timeouts, retry policy or priority (the fields an update mask names), or restores the
// options it was scheduled with. The merged options are validated and normalised as a new
// ScheduleActivityTask would be (packages/temporal-server/PROTOCOL.md#activities).
import { invalidArgument } from '../../errors';
import type { Duration, Plain, Priority, RetryPolicy } from '../../messages';
import type { temporal } from '@temporalio/proto';
import { duration, durationMs, TaskQueueKind } from '../../proto';
import { withRetryDefaults } from '../../retry-policy';
import type { ActivityState, ScheduledActivity } from '../../state/activity-state';
import type { ActivityAttempts, Owner } from './activity-attempts';
import { ActivityTimeoutsMs, normaliseTimeouts } from './schedule-activity';

export type ActivityOptions = Plain<temporal.api.activity.v1.IActivityOptions>;

/** The options an activity runs with now. */
export function currentOptions(act: ActivityState): ActivityOptions {
  const a = act.attrs;
  return {
    taskQueue: { name: act.taskQueue, kind: TaskQueueKind.NORMAL },
    scheduleToCloseTimeout: a.scheduleToCloseTimeout,
    scheduleToStartTimeout: a.scheduleToStartTimeout,
    startToCloseTimeout: a.startToCloseTimeout,
    heartbeatTimeout: a.heartbeatTimeout,
    retryPolicy: a.retryPolicy,
    priority: a.priority,
  };
}

/** A field mask path in the form clients send it: snake_case, camelCase, or a sub-field. */
function normalisePath(path: string): string {
  return path.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** `from`'s fields that the mask names, over `into` (a retry policy sub-field replaces just that field). */
export function mergeOptions(into: ActivityOptions, from: ActivityOptions, paths: string[]): ActivityOptions {
  const out: ActivityOptions = { ...into, retryPolicy: { ...into.retryPolicy } };
  for (const raw of paths) {
    const path = normalisePath(raw);
    const [field, sub] = path.split('.');
    switch (field) {
      case 'taskQueue': {
        const name = from.taskQueue?.name;
        if (!name) throw invalidArgument('TaskQueue is not set');
        out.taskQueue = { name, kind: TaskQueueKind.NORMAL };
        break;
      }
      case 'scheduleToCloseTimeout':
      case 'scheduleToStartTimeout':
      case 'startToCloseTimeout':
      case 'heartbeatTimeout':
        out[field] = from[field] as Duration | undefined;
        break;
      case 'retryPolicy':
        if (!sub) out.retryPolicy = from.retryPolicy ?? {};
        else (out.retryPolicy as Record<string, unknown>)[sub] = (from.retryPolicy as Record<string, unknown> | undefined)?.[sub];
        break;
      case 'priority':
        out.priority = from.priority as Priority | undefined;
        break;
      case 'startDelay':
        out.startDelay = from.startDelay;
        break;
      default:
        throw invalidArgument(`unknown activity option in update mask: ${raw}`);
    }
  }
  return out;
}

/** The attributes and timeouts an activity gets from `options`, normalised as a new schedule would be. */
export function applyOptions(act: ActivityState, options: ActivityOptions, runTimeoutMs: number): { attrs: ScheduledActivity; timeouts: ActivityTimeoutsMs } {
  if (!durationMs(options.scheduleToCloseTimeout) && !durationMs(options.startToCloseTimeout)) {
    throw invalidArgument(
      `a valid StartToCloseTimeout or ScheduleToCloseTimeout must be set on the activity. ActivityId=${act.activityId} ActivityType=${act.activityType}`,
    );
  }
  const timeouts = normaliseTimeouts(options, runTimeoutMs);
  const d = (ms: number): Duration => duration(ms);
  return {
    timeouts,
    attrs: {
      ...act.attrs,
      taskQueue: { name: options.taskQueue?.name || act.taskQueue, kind: TaskQueueKind.NORMAL },
      scheduleToCloseTimeout: d(timeouts.scheduleToCloseMs),
      scheduleToStartTimeout: d(timeouts.scheduleToStartMs),
      startToCloseTimeout: d(timeouts.startToCloseMs),
      heartbeatTimeout: d(timeouts.heartbeatMs),
      retryPolicy: withRetryDefaults(options.retryPolicy as RetryPolicy | undefined),
      priority: options.priority,
    },
  };
}

/** The timeouts normalised attributes carry. */
function timeoutsOf(attrs: ScheduledActivity): ActivityTimeoutsMs {
  return {
    scheduleToCloseMs: durationMs(attrs.scheduleToCloseTimeout),
    scheduleToStartMs: durationMs(attrs.scheduleToStartTimeout),
    startToCloseMs: durationMs(attrs.startToCloseTimeout),
    heartbeatMs: durationMs(attrs.heartbeatTimeout),
  };
}

export interface OptionsRequest {
  activityOptions?: ActivityOptions;
  updateMask?: { paths?: string[] };
  restoreOriginal?: boolean;
}

/** Applies an options request to one activity; returns the options it runs with afterwards. */
export function changeOptions(
  attempts: Pick<ActivityAttempts, 'updateOptions' | 'restoreOptions'>,
  owner: Owner,
  act: ActivityState,
  req: OptionsRequest,
  runTimeoutMs: number,
): ActivityOptions {
  if (req.restoreOriginal) {
    if (act.originalAttrs) attempts.restoreOptions(owner, act, { attrs: act.originalAttrs, timeouts: timeoutsOf(act.originalAttrs) });
    return currentOptions(act);
  }
  if (!req.activityOptions) throw invalidArgument('ActivityOptions are not provided');
  if (!req.updateMask) throw invalidArgument('UpdateMask is not provided');
  const merged = mergeOptions(currentOptions(act), req.activityOptions, req.updateMask.paths ?? []);
  attempts.updateOptions(owner, act, applyOptions(act, merged, runTimeoutMs));
  return currentOptions(act);
}
