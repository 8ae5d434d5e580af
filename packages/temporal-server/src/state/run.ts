// In-memory state of one workflow run: its event history (the source of truth the SDK replays)
// plus the mutable state derived from it (workflow task, activities, timers, children, buffer).
import type { TimerHandle } from '../clock';
import type {
  EventAttributes,
  EventName,
  HistoryEvent,
  NewEvent,
  Payload,
  QueryWorkflowResponse,
  StartWorkflowRequest,
  UpdateOutcome,
  UpdateRequest,
  UserMetadata,
  WorkflowQuery,
} from '../messages';
import { encodedEventSize } from '../history/encoded-events';
import { eventAttributesKey, EventType, ExecStatus, timestamp } from '../proto';
import type { ActivityOwner, ActivityState } from './activity-state';

export type { ActivityState, ScheduledActivity } from './activity-state';

const RUNNING = ExecStatus.v('RUNNING');

export interface PendingQuery {
  id: string;
  query: WorkflowQuery | undefined;
  resolve(result: QueryWorkflowResponse): void;
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

export interface UpdateState {
  updateId: string;
  request: UpdateRequest;
  /** requested: waiting for the worker; accepted: Accepted event written; completed: outcome known. */
  state: 'requested' | 'accepted' | 'completed';
  /** started_event_id of the workflow task that last carried the request (0 = never delivered). */
  deliveredIn: number;
  acceptedEventId: number;
  outcome?: UpdateOutcome;
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

/** The start request as kept on the run, plus the normalised workflow task timeout. */
export type RunStartRequest = StartWorkflowRequest & { wftTimeoutMs?: number };

/**
 * A non-command event (or a pair, for activities) that arrives from outside the workflow: written
 * at once, or buffered while a workflow task is started and written after it closes. Plain data,
 * so a run's state can be stored and restored.
 */
export interface BufferedEvent {
  events: NewEvent[];
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

export class Run implements ActivityOwner {
  readonly kind = 'workflow';
  history: HistoryEvent[] = [];
  status = RUNNING;
  closeTime = 0;
  executionTime = 0;
  startTime: number;
  memo: Record<string, Payload> = {};
  searchAttributes: Record<string, Payload> = {};
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
  /** Called whenever the run's state changes (the store writes changed runs when persistent). */
  onTouch?: () => void;
  /** Encoded size of history[0 .. sizedEvents), kept as the history grows (historySizeBytes). */
  private sizedEvents = 0;
  private sizedBytes = 0;

  constructor(
    readonly namespace: string,
    readonly workflowId: string,
    readonly runId: string,
    readonly firstRunId: string,
    readonly workflowType: string,
    readonly taskQueue: string,
    readonly startRequest: RunStartRequest,
    now: number,
  ) {
    this.startTime = now;
  }

  get open(): boolean {
    return this.status === RUNNING;
  }

  holds(act: ActivityState): boolean {
    return this.activities.get(act.scheduledEventId) === act;
  }

  get execution() {
    return { workflowId: this.workflowId, runId: this.runId };
  }

  get lastEventId(): number {
    return this.history.length;
  }

  /**
   * Appends one event of type `type` with its matching attributes message; `userMetadata` is the
   * summary/details the start request or the command carried for it.
   */
  append<E extends EventName>(type: E, attributes: EventAttributes<E>, timeMs: number, userMetadata?: UserMetadata): HistoryEvent {
    return this.appendEvent({ type, attrs: attributes } as NewEvent, timeMs, userMetadata);
  }

  appendEvent(e: NewEvent, timeMs: number, userMetadata?: UserMetadata): HistoryEvent {
    const eventId = this.history.length + 1;
    const event: HistoryEvent = {
      eventId,
      eventTime: timestamp(timeMs),
      eventType: EventType.v(e.type),
      taskId: eventId,
      [eventAttributesKey(e.type)]: e.attrs,
    };
    if (userMetadata) event.userMetadata = userMetadata;
    this.history.push(event);
    this.touch();
    if (this.waiters.size) for (const w of [...this.waiters]) w();
    return event;
  }

  touch(): void {
    this.onTouch?.();
  }

  /** Attributes of `event` if it is of type `type`, else undefined. */
  attributesOf<E extends EventName>(event: HistoryEvent | undefined, type: E): EventAttributes<E> | undefined {
    if (!event || event.eventType !== EventType.v(type)) return undefined;
    return (event as Record<string, unknown>)[eventAttributesKey(type)] as EventAttributes<E> | undefined;
  }

  /** The WorkflowExecutionStarted attributes (event 1). */
  get startAttributes(): EventAttributes<'WORKFLOW_EXECUTION_STARTED'> {
    return this.attributesOf(this.history[0], 'WORKFLOW_EXECUTION_STARTED') ?? {};
  }

  /**
   * Encoded size of the history (what the real server reports as history_size_bytes), counted
   * once per event as the history grows, as the real server keeps it in its mutable state.
   * Events are measured when first asked, after the completion that wrote them set their metadata.
   */
  historySizeBytes(): number {
    for (; this.sizedEvents < this.history.length; this.sizedEvents++) this.sizedBytes += encodedEventSize(this.history[this.sizedEvents]);
    return this.sizedBytes;
  }

  get lastEvent(): HistoryEvent | undefined {
    return this.history[this.history.length - 1];
  }
}
