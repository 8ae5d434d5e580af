// QueryWorkflow delivery (packages/temporal-server/PROTOCOL.md#queries): a query rides on a scheduled workflow task, waits for a
// started one to finish, or goes out as a legacy query task when no task is pending (or the run
// is closed). Answers come back in RespondWorkflowTaskCompleted.query_results or
// RespondQueryTaskCompleted.
import { randomUUID } from 'node:crypto';
import { status as Status } from '@grpc/grpc-js';
import { failedPrecondition, queryFailed, RpcError } from '../../errors';
import type { PollWorkflowTaskResponse, QueryWorkflowRequest, QueryWorkflowResponse, WorkflowQueryResult } from '../../messages';
import { ExecStatus, QueryRejectCondition, QueryResultType, TaskQueueKind } from '../../proto';
import type { PendingQuery, Run } from '../../state/run';
import type { RunRegistry } from '../../state/run-registry';
import { queueKey, TaskQueues } from '../../task-queues';
import { encodeToken } from '../../tokens';

const QUERY_TIMEOUT_MS = 15_000;
/** How long a query waits for a poller to show up before failing with "no worker". */
const NO_POLLER_GRACE_MS = 1_500;

export interface QueryDeps {
  registry: Pick<RunRegistry, 'resolveRun'>;
  /** The workflow task queues: legacy query tasks travel on them. */
  queues: TaskQueues<PollWorkflowTaskResponse>;
}

export class Queries {
  /** Legacy query tasks handed out (or queued), by query id. */
  readonly legacy = new Map<string, PendingQuery>();

  constructor(private readonly deps: QueryDeps) {}

  query(ns: string, req: QueryWorkflowRequest): Promise<QueryWorkflowResponse> {
    const { queues } = this.deps;
    const run = this.deps.registry.resolveRun(ns, req.execution);
    const rejectCondition = req.queryRejectCondition ?? 0;
    if (!run.open) {
      const cleanly = run.status === ExecStatus.v('COMPLETED');
      if (rejectCondition === QueryRejectCondition.v('NOT_OPEN') || (rejectCondition === QueryRejectCondition.v('NOT_COMPLETED_CLEANLY') && !cleanly)) {
        return Promise.resolve({ queryRejected: { status: run.status } });
      }
    }
    if (run.lastCompletedStartedId === 0 && !(run.open && run.wft.state !== 'none')) {
      throw failedPrecondition('workflow has not completed its first workflow task; cannot query it');
    }
    return new Promise((resolve, reject) => {
      const q: PendingQuery = {
        id: randomUUID(),
        query: req.query,
        settled: false,
        resolve: (r) => {
          if (!q.settled) {
            q.settled = true;
            clearTimeout(timer);
            resolve(r);
          }
        },
        reject: (e) => {
          if (!q.settled) {
            q.settled = true;
            clearTimeout(timer);
            reject(e);
          }
        },
      };
      const timer = setTimeout(
        () => q.reject(new RpcError(Status.DEADLINE_EXCEEDED, `query "${req.query?.queryType}" timed out waiting for a worker`)),
        QUERY_TIMEOUT_MS,
      );
      // Fail fast (instead of at the deadline) when nobody polls the workflow's task queue.
      // A grace period covers a worker that is just starting its pollers.
      const key = queueKey(ns, run.taskQueue);
      const noWorker = () => failedPrecondition(`no worker is polling task queue "${run.taskQueue}"; cannot answer query "${req.query?.queryType}"`);
      if (!queues.hasPoller(key, NO_POLLER_GRACE_MS)) {
        setTimeout(() => {
          if (!queues.hasPoller(key, NO_POLLER_GRACE_MS)) q.reject(noWorker());
        }, NO_POLLER_GRACE_MS);
      }
      if (!run.open || run.wft.state === 'none') this.dispatchLegacy(run, q);
      else if (run.wft.state === 'scheduled') run.wft.queries.set(q.id, q);
      else run.pendingQueries.push(q);
    });
  }

  /** Queries that arrived during a started task: ride on the next task, or go as legacy tasks. */
  redeliverPending(run: Run): void {
    const pending = run.pendingQueries.splice(0);
    for (const q of pending) {
      if (run.open && run.wft.state === 'scheduled') run.wft.queries.set(q.id, q);
      else if (run.open && run.wft.state === 'started') run.pendingQueries.push(q);
      else this.dispatchLegacy(run, q);
    }
  }

  /**
   * Settles the queries that rode on a completed workflow task; unanswered ones wait for the next
   * task (or, once the run is closed, go out as legacy tasks).
   */
  answerAttached(run: Run, results: Record<string, WorkflowQueryResult>, attached: Map<string, PendingQuery>): void {
    for (const [id, q] of attached) {
      const r = results[id];
      if (!r) {
        run.pendingQueries.push(q);
        continue;
      }
      if (r.resultType === QueryResultType.v('ANSWERED')) q.resolve({ queryResult: r.answer ?? { payloads: [] } });
      else q.reject(queryFailed(r.errorMessage || 'query failed', r.failure));
    }
    if (!run.open) {
      for (const q of run.pendingQueries.splice(0)) this.dispatchLegacy(run, q);
    }
  }

  dispatchLegacy(run: Run, q: PendingQuery): void {
    if (q.settled) return;
    this.legacy.set(q.id, q);
    this.deps.queues.add(queueKey(run.namespace, run.taskQueue), {
      take: () => {
        if (q.settled) {
          this.legacy.delete(q.id);
          return undefined;
        }
        return {
          taskToken: encodeToken({ k: 'query', ns: run.namespace, runId: run.runId, queryId: q.id }),
          workflowExecution: run.execution,
          workflowType: { name: run.workflowType },
          previousStartedEventId: run.lastCompletedStartedId,
          startedEventId: 0,
          attempt: 1,
          history: { events: run.history },
          query: q.query,
          workflowExecutionTaskQueue: { name: run.taskQueue, kind: TaskQueueKind.NORMAL },
        };
      },
    });
  }
}
