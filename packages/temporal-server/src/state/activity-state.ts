// One activity's attempts as the server tracks them, whoever owns it: a workflow run (scheduled by
// a command, its outcome written to the run's history) or a standalone activity execution (started
// by a client, its outcome kept on the execution). Plain data, so it can be stored and restored.
import type { EventAttributes, Failure, Payloads } from '../messages';
import type { TimerHandle } from '../clock';

/** ActivityTaskScheduled attributes with timeouts and retry policy already normalised. */
export type ScheduledActivity = EventAttributes<'ACTIVITY_TASK_SCHEDULED'>;

export interface ActivityPause {
  time: number;
  identity?: string;
  reason?: string;
  /** The pause request's id: the same request again is not an error. */
  requestId?: string;
}

export interface ActivityState {
  /** The ActivityTaskScheduled event (workflow activities); 1 for a standalone activity. */
  scheduledEventId: number;
  activityId: string;
  activityType: string;
  taskQueue: string;
  attrs: ScheduledActivity;
  /** The attributes it was scheduled with, kept once its options are changed (restore brings them back). */
  originalAttrs?: ScheduledActivity;
  attempt: number;
  /**
   * queued: waiting for a worker; started: a worker has it; backoff: waiting for a retry (or a
   * start delay); paused: held back until unpaused; closing: its outcome is being written.
   */
  state: 'queued' | 'started' | 'backoff' | 'paused' | 'closing';
  /**
   * Counts dispatches: a queued task, a timer or a retry belongs to the dispatch it was made for
   * and does nothing once the activity moved on (retried, paused, reset).
   */
  stamp?: number;
  firstScheduledTime: number;
  attemptScheduledTime: number;
  startedTime: number;
  startedIdentity: string;
  heartbeatDetails?: Payloads;
  lastHeartbeatTime?: number;
  heartbeatCount?: number;
  lastFailure?: Failure;
  lastAttemptCompleteTime?: number;
  cancelRequested: boolean;
  cancelRequestedEventId: number;
  /** Set while paused (PauseActivity); a running attempt learns it from its heartbeat response. */
  paused?: ActivityPause;
  /** ResetActivity on a running attempt: its heartbeat responses say so until the next attempt. */
  resetRequested?: boolean;
  /** ResetActivity with reset_heartbeat on a running attempt: the next attempt starts without details. */
  clearHeartbeatOnRetry?: boolean;
  attemptTimers: TimerHandle[];
  scheduleToCloseTimer?: TimerHandle;
  retryTimer?: TimerHandle;
  /** When the pending retry (state 'backoff') is due. */
  retryDue?: number;
  scheduleToCloseMs: number;
  scheduleToStartMs: number;
  startToCloseMs: number;
  heartbeatMs: number;
}

/** What owns an activity: a workflow run or a standalone activity execution. */
export interface ActivityOwner {
  readonly kind: 'workflow' | 'standalone';
  readonly namespace: string;
  /** Still running (a closed owner's activities are gone). */
  readonly open: boolean;
  /** Whether `act` is still one of this owner's current activities. */
  holds(act: ActivityState): boolean;
  /** The owner's state changed (the store writes it). */
  touch(): void;
}
