// QueryWorkflow delivery (brief 4.8): a query rides on a scheduled workflow task, waits for a
// started one to finish, or goes out as a legacy query task when no task is pending (or the run
// is closed). Answers come back in RespondWorkflowTaskCompleted.query_results or
// RespondQueryTaskCompleted.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { randomUUID } from 'node:crypto';
import { status as Status } from '@grpc/grpc-js';
import type { Engine } from './engine';
import { failedPrecondition, RpcError } from './errors';
import { ExecStatus, QueryRejectCondition } from './proto';
import type { PendingQuery, Run } from './run';
import { encodeToken } from './tokens';

const QUERY_TIMEOUT_MS = 15_000;
/** How long a query waits for a poller to show up before failing with "no worker". */
const NO_POLLER_GRACE_MS = 1_500;

export class Queries {
  /** Legacy query tasks handed out (or queued), by query id. */
  readonly legacy = new Map<string, PendingQuery>();

  constructor(private readonly engine: Engine) {}

  query(ns: string, req: any): Promise<any> {
    const engine = this.engine;
    const run = engine.resolveRun(ns, req.execution);
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
        resolve: (r) => { if (!q.settled) { q.settled = true; clearTimeout(timer); resolve(r); } },
        reject: (e) => { if (!q.settled) { q.settled = true; clearTimeout(timer); reject(e); } },
      };
      const timer = setTimeout(() => q.reject(new RpcError(Status.DEADLINE_EXCEEDED, `query "${req.query?.queryType}" timed out waiting for a worker`)), QUERY_TIMEOUT_MS);
      // Fail fast (instead of at the deadline) when nobody polls the workflow's task queue.
      // A grace period covers a worker that is just starting its pollers.
      const key = engine.wftQueueKey(ns, run.taskQueue);
      const noWorker = () => failedPrecondition(`no worker is polling task queue "${run.taskQueue}"; cannot answer query "${req.query?.queryType}"`);
      if (!engine.wftQueues.hasPoller(key, NO_POLLER_GRACE_MS)) {
        setTimeout(() => { if (!engine.wftQueues.hasPoller(key, NO_POLLER_GRACE_MS)) q.reject(noWorker()); }, NO_POLLER_GRACE_MS);
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

  dispatchLegacy(run: Run, q: PendingQuery): void {
    if (q.settled) return;
    this.legacy.set(q.id, q);
    this.engine.wftQueues.add(this.engine.wftQueueKey(run.namespace, run.taskQueue), {
      take: () => {
        if (q.settled) {
          this.legacy.delete(q.id);
          return undefined;
        }
        return {
          taskToken: encodeToken({ k: 'query', runId: run.runId, queryId: q.id }),
          workflowExecution: run.execution,
          workflowType: { name: run.workflowType },
          previousStartedEventId: run.lastCompletedStartedId,
          startedEventId: 0,
          attempt: 1,
          history: { events: run.history },
          query: q.query,
          workflowExecutionTaskQueue: { name: run.taskQueue, kind: 1 },
        };
      },
    });
  }
}
