// Handlers of temporal.api.workflowservice.v1.WorkflowService (and the small OperatorService
// subset) on top of the engine. Each handler gets the decoded request (plain object) and the
// gRPC call (for cancellation of long polls) and returns the response object.
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { ServerUnaryCall } from '@grpc/grpc-js';
import { Activities } from './activities';
import { Updates } from './updates';
import type { Engine } from './engine';
import { invalidArgument, notFound } from './errors';
import { duration, HistoryFilter, QueryResultType, timestamp } from './proto';
import type { Run } from './run';
import { decodeToken } from './tokens';
import { countExecutions, executionInfo, listExecutions } from './visibility';
import { WorkflowTaskCompletion } from './workflow-task-completion';
import { queryFailed, RpcError } from './errors';
import { status as Status } from '@grpc/grpc-js';

export type Handler = (req: any, call: ServerUnaryCall<any, any>) => any;

export interface ServiceOptions {
  longPollMs: number;
  historyLongPollMs: number;
}

export const SERVER_VERSION = '1.24.0-salon-devserver';

function onCancelled(call: ServerUnaryCall<any, any>) {
  return (cb: () => void) => call.on('cancelled', cb);
}

export function workflowServiceHandlers(engine: Engine, opts: ServiceOptions): Record<string, Handler> {
  const activities = new Activities(engine);
  const updates = new Updates(engine);
  const completion = new WorkflowTaskCompletion(engine, activities, updates);
  const ns = (req: any) => engine.checkNamespace(req.namespace);

  const namespaceInfo = (name: string) => ({
    namespaceInfo: { name, state: 1, id: `ns-${name}`, description: 'salon dev server namespace', capabilities: {}, limits: {} },
    config: { workflowExecutionRetentionTtl: duration(24 * 3600 * 1000), historyArchivalState: 2, visibilityArchivalState: 2 },
    isGlobalNamespace: false,
  });

  const history = async (req: any, call: ServerUnaryCall<any, any>) => {
    const name = ns(req);
    let token: { runId: string; next: number } | undefined;
    if (req.nextPageToken?.length) {
      try {
        token = JSON.parse(Buffer.from(req.nextPageToken).toString());
      } catch {
        throw invalidArgument('invalid next_page_token');
      }
    }
    const run = token ? engine.runs.get(token.runId) : engine.resolveRun(name, req.execution);
    if (!run) throw notFound('workflow execution not found');
    const waitFor = (ready: () => boolean): Promise<void> => new Promise((resolve) => {
      if (ready()) return resolve();
      const done = () => {
        if (!ready() && !call.cancelled && !stopped) return;
        run.waiters.delete(done);
        clearTimeout(timer);
        resolve();
      };
      let stopped = false;
      const timer = setTimeout(() => { stopped = true; done(); }, opts.historyLongPollMs);
      call.on('cancelled', done);
      run.waiters.add(done);
    });
    if (req.historyEventFilterType === HistoryFilter.v('CLOSE_EVENT')) {
      if (run.open && req.waitNewEvent) await waitFor(() => !run.open || engine.stopping);
      if (!run.open) return { history: { events: [run.history[run.history.length - 1]] } };
      return { history: { events: [] }, nextPageToken: Buffer.from(JSON.stringify({ runId: run.runId, next: 0 })) };
    }
    const start = token?.next ?? 0;
    if (req.waitNewEvent && run.open) await waitFor(() => run.history.length > start || !run.open || engine.stopping);
    const size = req.maximumPageSize > 0 ? req.maximumPageSize : Infinity;
    const end = Math.min(run.history.length, start + size);
    const events = run.history.slice(start, end);
    const more = end < run.history.length || (req.waitNewEvent && run.open);
    return { history: { events }, nextPageToken: more ? Buffer.from(JSON.stringify({ runId: run.runId, next: end })) : undefined };
  };

  const describe = (req: any) => {
    const run: Run = engine.resolveRun(ns(req), req.execution);
    const start = run.startRequest;
    return {
      executionConfig: {
        taskQueue: { name: run.taskQueue, kind: 1 },
        workflowExecutionTimeout: start.workflowExecutionTimeout,
        workflowRunTimeout: start.workflowRunTimeout,
        defaultWorkflowTaskTimeout: duration(start.wftTimeoutMs),
        userMetadata: start.userMetadata,
      },
      workflowExecutionInfo: executionInfo(run),
      pendingActivities: [...run.activities.values()].map((a) => ({
        activityId: a.activityId,
        activityType: { name: a.activityType },
        state: a.state === 'started' ? 2 : 1,
        heartbeatDetails: a.heartbeatDetails,
        attempt: a.attempt,
        maximumAttempts: a.attrs.retryPolicy.maximumAttempts,
        scheduledTime: timestamp(a.attemptScheduledTime),
        lastFailure: a.lastFailure,
        lastWorkerIdentity: a.startedIdentity,
      })),
      pendingChildren: [...run.children.values()].map((c) => ({ workflowId: c.workflowId, runId: c.runId, workflowTypeName: c.workflowType, initiatedId: c.initiatedEventId, parentClosePolicy: c.parentClosePolicy })),
    };
  };

  const pollWorkflowTask = async (req: any, call: ServerUnaryCall<any, any>) => {
    const name = ns(req);
    // Sticky queues are accepted but never used: every task goes to the normal queue with full history.
    if (req.taskQueue?.kind === 2) {
      await new Promise<void>((resolve) => {
        const finish = () => {
          clearTimeout(t);
          engine.stopWaiters.delete(finish);
          resolve();
        };
        const t = setTimeout(finish, opts.longPollMs);
        call.on('cancelled', finish);
        engine.stopWaiters.add(finish);
      });
      return {};
    }
    if (!req.taskQueue?.name) throw invalidArgument('task_queue is required');
    const resp = await engine.wftQueues.poll(engine.wftQueueKey(name, req.taskQueue.name), req.identity ?? '', opts.longPollMs, () => call.cancelled, onCancelled(call));
    return resp ?? {};
  };

  const pollActivityTask = async (req: any, call: ServerUnaryCall<any, any>) => {
    const name = ns(req);
    if (!req.taskQueue?.name) throw invalidArgument('task_queue is required');
    const resp = await engine.activityQueues.poll(activities.queueKey(name, req.taskQueue.name), req.identity ?? '', opts.longPollMs, () => call.cancelled, onCancelled(call));
    return resp ?? {};
  };

  const activityByToken = (req: any) => {
    const token = decodeToken(req.taskToken);
    if (token.k !== 'act') throw notFound('not an activity task token');
    return activities.byToken(token);
  };
  const activityById = (req: any) => activities.byId(ns(req), req.workflowId, req.runId, req.activityId);

  const start = (req: any) => {
    const r = engine.startWorkflow(ns(req), req);
    return { runId: r.runId, started: r.started };
  };

  const signalWithStart = (req: any) => {
    const name = ns(req);
    const existing = engine.currentRun(name, req.workflowId);
    const conflict = req.workflowIdConflictPolicy ?? 0;
    // UNSPECIFIED behaves like USE_EXISTING for signal-with-start (brief 8.4).
    if (existing?.open && conflict !== 2 /* FAIL */ && conflict !== 3 /* TERMINATE_EXISTING */ && req.workflowIdReusePolicy !== 3 /* TERMINATE_IF_RUNNING */) {
      engine.signal(existing, req.signalName, req.signalInput, req.header, req.identity, undefined, req.requestId);
      return { runId: existing.runId, started: false };
    }
    const r = engine.startWorkflow(name, req, { signal: { signalName: req.signalName, input: req.signalInput, header: req.header, identity: req.identity } });
    return { runId: r.runId, started: r.started };
  };

  const handlers: Record<string, Handler> = {
    GetSystemInfo: () => ({
      serverVersion: SERVER_VERSION,
      capabilities: {
        signalAndQueryHeader: true,
        internalErrorDifferentiation: true,
        activityFailureIncludeHeartbeat: true,
        encodedFailureAttributes: true,
        upsertMemo: true,
        sdkMetadata: true,
      },
    }),
    DescribeNamespace: (req: any) => {
      const name = req.namespace || 'default';
      if (!engine.namespaces.has(name)) engine.checkNamespace(name);
      return namespaceInfo(name);
    },
    ListNamespaces: () => ({ namespaces: [...engine.namespaces].map(namespaceInfo) }),
    RegisterNamespace: (req: any) => {
      if (!req.namespace) throw invalidArgument('namespace is required');
      if (engine.namespaces.has(req.namespace)) throw new RpcError(Status.ALREADY_EXISTS, `Namespace ${req.namespace} already exists.`);
      engine.namespaces.add(req.namespace);
      return {};
    },
    GetClusterInfo: () => ({ serverVersion: SERVER_VERSION, clusterName: 'salon-devserver', clusterId: 'salon-devserver', historyShardCount: 1, persistenceStore: 'memory', visibilityStore: 'memory', supportedClients: {} }),
    StartWorkflowExecution: start,
    SignalWithStartWorkflowExecution: signalWithStart,
    SignalWorkflowExecution: (req: any) => {
      const run = engine.resolveRun(ns(req), req.workflowExecution);
      if (!req.signalName) throw invalidArgument('signal_name is required');
      engine.signal(run, req.signalName, req.input, req.header, req.identity, undefined, req.requestId);
      return {};
    },
    RequestCancelWorkflowExecution: (req: any) => {
      const run = engine.resolveRun(ns(req), req.workflowExecution, req.firstExecutionRunId);
      engine.requestCancel(run, req.reason, req.identity);
      return {};
    },
    TerminateWorkflowExecution: (req: any) => {
      const run = engine.resolveRun(ns(req), req.workflowExecution, req.firstExecutionRunId);
      engine.terminate(run, req.reason, req.details, req.identity);
      return {};
    },
    GetWorkflowExecutionHistory: history,
    DescribeWorkflowExecution: describe,
    ListWorkflowExecutions: (req: any) => listExecutions(engine, ns(req), req),
    ListOpenWorkflowExecutions: (req: any) => ({ executions: listExecutions(engine, ns(req), { query: 'ExecutionStatus = "Running"' }).executions }),
    ListClosedWorkflowExecutions: (req: any) => ({ executions: listExecutions(engine, ns(req), { query: 'ExecutionStatus != "Running"' }).executions }),
    ScanWorkflowExecutions: (req: any) => listExecutions(engine, ns(req), req),
    CountWorkflowExecutions: (req: any) => countExecutions(engine, ns(req), req),
    GetSearchAttributes: () => ({ keys: Object.fromEntries(engine.searchAttributeTypes) }),
    QueryWorkflow: (req: any) => engine.queries.query(ns(req), req),
    PollWorkflowTaskQueue: pollWorkflowTask,
    RespondWorkflowTaskCompleted: (req: any) => completion.completed(req),
    RespondWorkflowTaskFailed: (req: any) => { completion.failed(req); return {}; },
    RespondQueryTaskCompleted: (req: any) => {
      const token = decodeToken(req.taskToken);
      if (token.k !== 'query') throw notFound('not a query task token');
      const q = engine.queries.legacy.get(token.queryId);
      if (!q) throw notFound('query not found or already answered');
      engine.queries.legacy.delete(token.queryId);
      if (req.completedType === QueryResultType.v('ANSWERED')) q.resolve({ queryResult: req.queryResult ?? { payloads: [] } });
      else q.reject(queryFailed(req.errorMessage || 'query failed', req.failure));
      return {};
    },
    ResetStickyTaskQueue: () => ({}),
    ShutdownWorker: () => ({}),
    PollActivityTaskQueue: pollActivityTask,
    RecordActivityTaskHeartbeat: (req: any) => {
      const { run, act } = activityByToken(req);
      return activities.heartbeat(run, act, req.details);
    },
    RecordActivityTaskHeartbeatById: (req: any) => {
      const { run, act } = activityById(req);
      return activities.heartbeat(run, act, req.details);
    },
    RespondActivityTaskCompleted: (req: any) => { const { run, act } = activityByToken(req); activities.completed(run, act, req.result, req.identity); return {}; },
    RespondActivityTaskCompletedById: (req: any) => { const { run, act } = activityById(req); activities.completed(run, act, req.result, req.identity); return {}; },
    RespondActivityTaskFailed: (req: any) => { const { run, act } = activityByToken(req); activities.failed(run, act, req.failure, req.lastHeartbeatDetails, req.identity); return {}; },
    RespondActivityTaskFailedById: (req: any) => { const { run, act } = activityById(req); activities.failed(run, act, req.failure, req.lastHeartbeatDetails, req.identity); return {}; },
    RespondActivityTaskCanceled: (req: any) => { const { run, act } = activityByToken(req); activities.canceled(run, act, req.details, req.identity); return {}; },
    RespondActivityTaskCanceledById: (req: any) => { const { run, act } = activityById(req); activities.canceled(run, act, req.details, req.identity); return {}; },
    UpdateWorkflowExecution: (req: any, call: ServerUnaryCall<any, any>) => updates.update(ns(req), req, call),
    PollWorkflowExecutionUpdate: (req: any, call: ServerUnaryCall<any, any>) => updates.poll(ns(req), req, call),
  };
  return handlers;
}

export function operatorServiceHandlers(engine: Engine): Record<string, Handler> {
  return {
    AddSearchAttributes: (req: any) => {
      for (const [k, v] of Object.entries<number>(req.searchAttributes ?? {})) engine.searchAttributeTypes.set(k, v);
      return {};
    },
    ListSearchAttributes: () => ({ customAttributes: Object.fromEntries(engine.searchAttributeTypes), systemAttributes: {}, storageSchema: {} }),
  };
}
