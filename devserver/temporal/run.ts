// In-memory state of one workflow run: its event history (the source of truth the SDK replays)
// plus the mutable state derived from it (workflow task, activities, timers, children, buffer).
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { TimerHandle } from './clock';
import { eventAttributesKey, EventType, timestamp } from './proto';

export type HistoryEvent = { eventId: number; eventTime: { seconds: number; nanos: number }; eventType: number; taskId: number } & Record<string, any>;

export interface PendingQuery {
  id: string;
  query: any; // temporal.api.query.v1.WorkflowQuery
  resolve(result: any): void;
  reject(err: Error): void;
  settled: boolean;
}

export interface WorkflowTaskState {
  state: 'none' | 'scheduled' | 'started';
  scheduledEventId: number;
  startedEventId: number;
  attempt: number;
  scheduledTime: number;
  startedTime: number;
  timeout?: TimerHandle;
  /** Queries that ride along with this task (delivered in the poll response's `queries` map). */
  queries: Map<string, PendingQuery>;
}

export interface ActivityState {
  scheduledEventId: number;
  activityId: string;
  activityType: string;
  taskQueue: string;
  attrs: any; // ActivityTaskScheduled attributes (timeouts and retry policy already normalised)
  attempt: number;
  /** queued: waiting for a worker; started: a worker has it; backoff: waiting for a retry; closing: close event buffered. */
  state: 'queued' | 'started' | 'backoff' | 'closing';
  firstScheduledTime: number;
  attemptScheduledTime: number;
  startedTime: number;
  startedIdentity: string;
  heartbeatDetails?: any;
  lastFailure?: any;
  cancelRequested: boolean;
  cancelRequestedEventId: number;
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

export interface UpdateState {
  updateId: string;
  request: any; // temporal.api.update.v1.Request
  /** requested: waiting for the worker; accepted: Accepted event written; completed: outcome known. */
  state: 'requested' | 'accepted' | 'completed';
  /** started_event_id of the workflow task that last carried the request (0 = never delivered). */
  deliveredIn: number;
  acceptedEventId: number;
  outcome?: any;
  waiters: Set<() => void>;
}

export interface ChildState {
  initiatedEventId: number;
  namespace: string;
  workflowId: string;
  workflowType: string;
  runId?: string;
  startedEventId?: number;
  parentClosePolicy: number;
}

export interface ParentRef {
  namespace: string;
  workflowId: string;
  runId: string;
  initiatedEventId: number;
}

/**
 * A non-command event (or a pair, for activities) that arrives from outside the workflow: written
 * at once, or buffered while a workflow task is started and written after it closes. Plain data,
 * so a run's state can be stored and restored.
 */
export interface BufferedEvent {
  events: { type: string; attrs: any }[];
  /** Activity close: the second event's started_event_id is the first (ActivityTaskStarted) event. */
  linkStarted?: boolean;
  /** Activity close: forget this activity (scheduled event id) once written. */
  activityDone?: number;
  /** ChildWorkflowExecutionStarted for this initiated event id: remember the started event id. */
  childStarted?: number;
  /** Child closed: fill started_event_id from the child record and forget the child. */
  childClosed?: number;
  timerId?: string;
  timerStartedEventId?: number;
}

export class Run {
  history: HistoryEvent[] = [];
  status = 1; // RUNNING
  closeTime = 0;
  executionTime = 0;
  startTime: number;
  memo: Record<string, any> = {};
  searchAttributes: Record<string, any> = {};
  wft: WorkflowTaskState = { state: 'none', scheduledEventId: 0, startedEventId: 0, attempt: 1, scheduledTime: 0, startedTime: 0, queries: new Map() };
  /** started_event_id of the last completed workflow task (previous_started_event_id for polls). */
  lastCompletedStartedId = 0;
  buffered: BufferedEvent[] = [];
  activities = new Map<number, ActivityState>();
  timers = new Map<string, { startedEventId: number; due: number; handle: TimerHandle }>();
  children = new Map<number, ChildState>();
  pendingQueries: PendingQuery[] = [];
  updates = new Map<string, UpdateState>();
  requestIds = new Set<string>();
  cancelRequested = false;
  /** First workflow task withheld until a start delay elapses. */
  startDelayPending = false;
  runTimers: TimerHandle[] = [];
  parent?: ParentRef;
  parentClosePolicy = 0;
  /** Callbacks waiting for the history to grow or the run to close (history long polls). */
  waiters = new Set<() => void>();
  /** Creation order across all runs (the latest run of a workflow id is the current one). */
  seq = 0;
  /** Called whenever the run's state changes (the engine stores changed runs when persistent). */
  onTouch?: () => void;

  constructor(
    readonly namespace: string,
    readonly workflowId: string,
    readonly runId: string,
    readonly firstRunId: string,
    readonly workflowType: string,
    readonly taskQueue: string,
    readonly startRequest: any,
    now: number,
  ) {
    this.startTime = now;
  }

  get open(): boolean {
    return this.status === 1;
  }

  get execution() {
    return { workflowId: this.workflowId, runId: this.runId };
  }

  get lastEventId(): number {
    return this.history.length;
  }

  append(shortType: string, attributes: any, timeMs: number): HistoryEvent {
    const eventId = this.history.length + 1;
    const event: HistoryEvent = {
      eventId,
      eventTime: timestamp(timeMs),
      eventType: EventType.v(shortType),
      taskId: eventId,
      [eventAttributesKey(shortType)]: attributes,
    };
    this.history.push(event);
    this.touch();
    if (this.waiters.size) for (const w of [...this.waiters]) w();
    return event;
  }

  touch(): void {
    this.onTouch?.();
  }

  attributesOf(event: HistoryEvent): any {
    const name = EventType.name(event.eventType)!;
    return event[eventAttributesKey(name)];
  }
}
