// Workflow task dispatch (packages/temporal-server/PROTOCOL.md#workflow-tasks): scheduling a task, handing it to a poller (writing
// WorkflowTaskStarted and building the poll response), and the failure paths: a failed or
// timed-out attempt is written to history and attempt + 1 is scheduled.
import { randomUUID } from 'node:crypto';
import type { TimerHandle } from '../../clock';
import { notFound } from '../../errors';
import { flushBuffered } from '../../history/buffered-events';
import type { Failure, PollWorkflowTaskResponse, WorkflowQuery } from '../../messages';
import { duration, TaskQueueKind, timestamp, TimeoutType } from '../../proto';
import type { PendingQuery, Run } from '../../state/run';
import type { RunRegistry } from '../../state/run-registry';
import { queueKey, TaskQueues } from '../../task-queues';
import { encodeToken } from '../../tokens';
import { updateRequestMessages } from '../update/update-messages';

// The real server suggests continue-as-new past 4K events or 4 MB (limit.historyCount /
// limit.historySize.suggestContinueAsNew); workflows read it as continueAsNewSuggested.
const SUGGEST_CONTINUE_AS_NEW_EVENTS = 4_000;
const SUGGEST_CONTINUE_AS_NEW_BYTES = 4 * 1024 * 1024;

export interface WorkflowTaskDeps {
  clock: { now(): number; after(ms: number, fn: () => void): TimerHandle };
  queues: TaskQueues<PollWorkflowTaskResponse>;
  registry: Pick<RunRegistry, 'runs'>;
}

export class WorkflowTasks {
  constructor(private readonly deps: WorkflowTaskDeps) {}

  schedule(run: Run, attempt = 1): void {
    this.writeScheduled(run, attempt);
    this.enqueue(run);
  }

  /**
   * Eager workflow start: the first task is scheduled and at once started for the client that
   * started the workflow (its worker shares the connection), instead of waiting in the queue.
   */
  startEagerly(run: Run, identity: string): PollWorkflowTaskResponse {
    const scheduledEventId = this.writeScheduled(run, 1);
    return this.start(run, scheduledEventId, identity)!;
  }

  private writeScheduled(run: Run, attempt: number): number {
    const now = this.deps.clock.now();
    const ev = run.append(
      'WORKFLOW_TASK_SCHEDULED',
      {
        taskQueue: { name: run.taskQueue, kind: TaskQueueKind.NORMAL },
        startToCloseTimeout: duration(run.startRequest.wftTimeoutMs ?? 0),
        attempt,
      },
      now,
    );
    const scheduledEventId = ev.eventId;
    const carried = run.wft.state === 'none' ? run.wft.queries : new Map<string, PendingQuery>();
    run.wft = { state: 'scheduled', scheduledEventId, startedEventId: 0, attempt, scheduledTime: now, startedTime: 0, queries: carried };
    for (const q of run.pendingQueries.splice(0)) run.wft.queries.set(q.id, q);
    return scheduledEventId;
  }

  /** Puts the run's scheduled task on its queue (also used when resuming a restored run). */
  enqueue(run: Run): void {
    const scheduledEventId = run.wft.scheduledEventId;
    this.deps.queues.add(queueKey(run.namespace, run.taskQueue), {
      take: (identity) => this.start(run, scheduledEventId, identity),
    });
  }

  /** A poller takes the task: write WorkflowTaskStarted and build the poll response. */
  private start(run: Run, scheduledEventId: number, identity: string): PollWorkflowTaskResponse | undefined {
    const wft = run.wft;
    if (!run.open || wft.state !== 'scheduled' || wft.scheduledEventId !== scheduledEventId) return undefined;
    const now = this.deps.clock.now();
    const sizeBytes = run.historySizeBytes();
    const started = run.append(
      'WORKFLOW_TASK_STARTED',
      {
        scheduledEventId,
        identity,
        requestId: randomUUID(),
        historySizeBytes: sizeBytes,
        suggestContinueAsNew: run.history.length >= SUGGEST_CONTINUE_AS_NEW_EVENTS || sizeBytes >= SUGGEST_CONTINUE_AS_NEW_BYTES,
      },
      now,
    );
    wft.state = 'started';
    wft.startedEventId = started.eventId;
    wft.startedTime = now;
    const attempt = wft.attempt;
    wft.timeout = this.deps.clock.after(run.startRequest.wftTimeoutMs ?? 0, () => this.timeout(run, scheduledEventId, attempt));
    const queries: Record<string, WorkflowQuery> = {};
    for (const [id, q] of wft.queries) if (!q.settled && q.query) queries[id] = q.query;
    return {
      taskToken: encodeToken({ k: 'wft', ns: run.namespace, runId: run.runId, scheduledEventId, attempt }),
      workflowExecution: run.execution,
      workflowType: { name: run.workflowType },
      previousStartedEventId: run.lastCompletedStartedId,
      startedEventId: started.eventId,
      attempt,
      history: { events: run.history },
      workflowExecutionTaskQueue: { name: run.taskQueue, kind: TaskQueueKind.NORMAL },
      scheduledTime: timestamp(wft.scheduledTime),
      startedTime: timestamp(now),
      queries,
      messages: updateRequestMessages(run, started.eventId),
    };
  }

  /** Validates a workflow task token against the run's started task. */
  startedTaskFor(token: { runId: string; scheduledEventId: number; attempt: number }): Run {
    const run = this.deps.registry.runs.get(token.runId);
    if (!run) throw notFound('workflow execution not found');
    if (!run.open) throw notFound('workflow execution already completed');
    const wft = run.wft;
    if (wft.state !== 'started' || wft.scheduledEventId !== token.scheduledEventId || wft.attempt !== token.attempt) {
      throw notFound('workflow task not found (timed out or already completed)');
    }
    return run;
  }

  private timeout(run: Run, scheduledEventId: number, attempt: number): void {
    const wft = run.wft;
    if (!run.open || wft.state !== 'started' || wft.scheduledEventId !== scheduledEventId || wft.attempt !== attempt) return;
    this.timedOut(run);
  }

  /** Writes WorkflowTaskTimedOut for the started task and retries it (also: lost on restart). */
  timedOut(run: Run): void {
    run.append(
      'WORKFLOW_TASK_TIMED_OUT',
      { scheduledEventId: run.wft.scheduledEventId, startedEventId: run.wft.startedEventId, timeoutType: TimeoutType.v('START_TO_CLOSE') },
      this.deps.clock.now(),
    );
    this.retry(run);
  }

  /** After a failed or timed-out attempt: flush the buffer and schedule attempt + 1. */
  retry(run: Run, nextAttempt = run.wft.attempt + 1): void {
    run.wft.timeout?.cancel();
    const queries = run.wft.queries;
    run.wft = { ...run.wft, state: 'none', queries };
    flushBuffered(run, this.deps.clock.now());
    this.schedule(run, nextAttempt);
  }

  fail(run: Run, cause: number, failure: Failure | undefined, identity: string | undefined): void {
    run.append(
      'WORKFLOW_TASK_FAILED',
      {
        scheduledEventId: run.wft.scheduledEventId,
        startedEventId: run.wft.startedEventId,
        cause,
        failure,
        identity,
      },
      this.deps.clock.now(),
    );
    this.retry(run);
  }
}
