// RespondWorkflowTaskCompleted / RespondWorkflowTaskFailed: turn the worker's commands into history
// events, in command order, then flush events buffered while the task ran (brief 4.2 and 4.3).
//
// A completion is applied atomically: commands are validated before anything is written, and a
// closing command that would hide buffered events from the workflow is rejected with
// UnhandledCommand so the workflow sees them on the next task.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { randomUUID } from 'node:crypto';
import { status as Status } from '@grpc/grpc-js';
import { Activities } from './activities';
import type { Updates } from './updates';
import type { Engine } from './engine';
import { invalidArgument, notFound, queryFailed, RpcError } from './errors';
import {
  CancelExternalFailedCause, CommandType, ContinueAsNewInitiator, durationMs, ExternalFailedCause, payloadToJson,
  QueryResultType, StartChildFailedCause, timestampMs, WftFailedCause,
} from './proto';
import type { ChildState, PendingQuery, Run } from './run';
import { decodeToken } from './tokens';

const CLOSING = new Set(['COMPLETE_WORKFLOW_EXECUTION', 'FAIL_WORKFLOW_EXECUTION', 'CANCEL_WORKFLOW_EXECUTION', 'CONTINUE_AS_NEW_WORKFLOW_EXECUTION']);

function commandName(cmd: any): string {
  return CommandType.name(cmd.commandType ?? 0) ?? 'UNSPECIFIED';
}

function serverFailure(message: string): any {
  return { message, source: 'Server', serverFailureInfo: { nonRetryable: true } };
}

/** Returns [cause, message] for the first invalid command, or undefined. */
function validateCommands(run: Run, commands: any[]): [string, string] | undefined {
  const activityIds = new Set([...run.activities.values()].map((a) => a.activityId));
  const timers = new Set([...run.timers.keys(), ...run.buffered.filter((b) => b.timerId).map((b) => b.timerId!)]);
  for (const cmd of commands) {
    const name = commandName(cmd);
    switch (name) {
      case 'SCHEDULE_ACTIVITY_TASK': {
        const a = cmd.scheduleActivityTaskCommandAttributes;
        const err = Activities.validateSchedule(a);
        if (err) return ['BAD_SCHEDULE_ACTIVITY_ATTRIBUTES', err];
        if (activityIds.has(a.activityId)) return ['BAD_SCHEDULE_ACTIVITY_ATTRIBUTES', `Activity with id ${a.activityId} is already open`];
        activityIds.add(a.activityId);
        break;
      }
      case 'REQUEST_CANCEL_ACTIVITY_TASK': {
        const id = cmd.requestCancelActivityTaskCommandAttributes?.scheduledEventId;
        if (!run.activities.has(id)) return ['BAD_REQUEST_CANCEL_ACTIVITY_ATTRIBUTES', `no open activity scheduled by event ${id}`];
        break;
      }
      case 'START_TIMER': {
        const a = cmd.startTimerCommandAttributes;
        if (!a?.timerId) return ['BAD_START_TIMER_ATTRIBUTES', 'TimerId is not set'];
        if (timers.has(a.timerId)) return ['BAD_START_TIMER_ATTRIBUTES', `Timer ${a.timerId} already started`];
        timers.add(a.timerId);
        break;
      }
      case 'CANCEL_TIMER': {
        const id = cmd.cancelTimerCommandAttributes?.timerId;
        if (!timers.has(id)) return ['BAD_CANCEL_TIMER_ATTRIBUTES', `Timer ${id} is not open`];
        timers.delete(id);
        break;
      }
      case 'START_CHILD_WORKFLOW_EXECUTION': {
        const a = cmd.startChildWorkflowExecutionCommandAttributes;
        if (!a?.workflowId || !a.workflowType?.name) return ['BAD_START_CHILD_EXECUTION_ATTRIBUTES', 'WorkflowId and WorkflowType are required'];
        break;
      }
      case 'COMPLETE_WORKFLOW_EXECUTION': case 'FAIL_WORKFLOW_EXECUTION': case 'CANCEL_WORKFLOW_EXECUTION':
      case 'CONTINUE_AS_NEW_WORKFLOW_EXECUTION': case 'RECORD_MARKER': case 'PROTOCOL_MESSAGE': case 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES':
      case 'MODIFY_WORKFLOW_PROPERTIES': case 'SIGNAL_EXTERNAL_WORKFLOW_EXECUTION': case 'REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION':
        break;
      default:
        return ['UNHANDLED_COMMAND', `command ${name} is not supported by this dev server`];
    }
  }
  return undefined;
}

export class WorkflowTaskCompletion {
  constructor(private readonly engine: Engine, private readonly activities: Activities, private readonly updates: Updates) {}

  failed(req: any): void {
    const token = decodeToken(req.taskToken);
    if (token.k !== 'wft') throw notFound('not a workflow task token');
    const run = this.engine.startedTaskFor(token);
    this.engine.failWorkflowTask(run, req.cause ?? WftFailedCause.v('UNHANDLED_COMMAND'), req.failure, req.identity);
  }

  completed(req: any): any {
    const token = decodeToken(req.taskToken);
    if (token.k !== 'wft') throw notFound('not a workflow task token');
    const engine = this.engine;
    const run = engine.startedTaskFor(token);
    const commands: any[] = req.commands ?? [];
    const closeIdx = commands.findIndex((c) => CLOSING.has(commandName(c)));
    if (closeIdx >= 0 && closeIdx !== commands.length - 1) throw invalidArgument('a workflow-closing command must be the last command');

    const bad = validateCommands(run, commands);
    if (bad) {
      engine.failWorkflowTask(run, WftFailedCause.v(bad[0]), serverFailure(bad[1]), req.identity);
      throw invalidArgument(bad[1]);
    }
    if (closeIdx >= 0) {
      const cancelled = new Set(commands.filter((c) => commandName(c) === 'CANCEL_TIMER').map((c) => c.cancelTimerCommandAttributes.timerId));
      const unseen = run.buffered.filter((b) => !(b.timerId && cancelled.has(b.timerId)));
      if (unseen.length || this.updates.hasUnseen(run, run.wft.startedEventId)) {
        // Keep attempt 1: this is not the workflow's fault (brief 4.6).
        run.append('WORKFLOW_TASK_FAILED', {
          scheduledEventId: run.wft.scheduledEventId, startedEventId: run.wft.startedEventId,
          cause: WftFailedCause.v('UNHANDLED_COMMAND'), failure: serverFailure('UnhandledCommand'), identity: req.identity,
        }, engine.now());
        engine.retryWorkflowTask(run, 1);
        throw invalidArgument('UnhandledCommand');
      }
    }

    const wft = run.wft;
    const wtc = run.append('WORKFLOW_TASK_COMPLETED', {
      scheduledEventId: wft.scheduledEventId,
      startedEventId: wft.startedEventId,
      identity: req.identity,
      binaryChecksum: req.binaryChecksum,
      workerVersion: req.workerVersionStamp,
      sdkMetadata: req.sdkMetadata,
      meteringMetadata: req.meteringMetadata,
    }, engine.now()).eventId;
    wft.timeout?.cancel();
    run.lastCompletedStartedId = wft.startedEventId;
    const attachedQueries = wft.queries;
    wft.queries = new Map();
    // wft.state stays 'started' while commands run, so anything arriving meanwhile is buffered.

    let needNewTask = !!req.forceCreateNewWorkflowTask;
    const afterwards: (() => void)[] = [];
    const eagerActivities: any[] = [];
    // Protocol messages (update answers) are applied where their ProtocolMessage command sits.
    const messages = new Map<string, any>((req.messages ?? []).map((m: any) => [m.id, m]));
    for (const cmd of commands) {
      if (commandName(cmd) === 'PROTOCOL_MESSAGE') {
        const id = cmd.protocolMessageCommandAttributes?.messageId;
        const m = messages.get(id);
        messages.delete(id);
        if (m) this.updates.apply(run, m, wtc);
        continue;
      }
      needNewTask = this.apply(run, cmd, wtc, req.identity, afterwards, eagerActivities) || needNewTask;
      if (!run.open) break;
    }
    if (run.open) for (const m of messages.values()) this.updates.apply(run, m, wtc);
    if (run.open && this.updates.hasPending(run)) needNewTask = true;
    this.answerQueries(run, req.queryResults ?? {}, attachedQueries);
    if (run.open) {
      run.wft = { ...run.wft, state: 'none', queries: new Map() };
      if (engine.flushBuffered(run)) needNewTask = true;
      if (needNewTask && run.wft.state === 'none') engine.scheduleWorkflowTask(run);
      engine.queries.redeliverPending(run);
    }
    for (const f of afterwards) f();
    engine.clock.workChanged();
    return { activityTasks: run.open ? eagerActivities : [] };
  }

  private answerQueries(run: Run, results: Record<string, any>, attached: Map<string, PendingQuery>): void {
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
      for (const q of run.pendingQueries.splice(0)) this.engine.queries.dispatchLegacy(run, q);
    }
  }

  /** Applies one command; returns true when it requires a new workflow task. */
  private apply(run: Run, cmd: any, wtc: number, identity: string, afterwards: (() => void)[], eager: any[]): boolean {
    const engine = this.engine;
    const now = engine.now();
    const name = commandName(cmd);
    switch (name) {
      case 'SCHEDULE_ACTIVITY_TASK': {
        const a = cmd.scheduleActivityTaskCommandAttributes;
        const task = this.activities.schedule(run, a, wtc, a.requestEagerExecution ? identity ?? '' : undefined);
        if (task) eager.push(task);
        return false;
      }
      case 'REQUEST_CANCEL_ACTIVITY_TASK':
        return this.activities.requestCancel(run, cmd.requestCancelActivityTaskCommandAttributes.scheduledEventId, wtc);
      case 'START_TIMER': {
        const a = cmd.startTimerCommandAttributes;
        const ev = run.append('TIMER_STARTED', { timerId: a.timerId, startToFireTimeout: a.startToFireTimeout, workflowTaskCompletedEventId: wtc }, now);
        engine.armUserTimer(run, a.timerId, ev.eventId, now + durationMs(a.startToFireTimeout));
        return false;
      }
      case 'CANCEL_TIMER': {
        const timerId = cmd.cancelTimerCommandAttributes.timerId;
        let startedEventId: number;
        const t = run.timers.get(timerId);
        if (t) {
          t.handle.cancel();
          run.timers.delete(timerId);
          startedEventId = t.startedEventId;
        } else {
          // The timer fired while this task ran: drop the buffered TimerFired (brief 4.5).
          const i = run.buffered.findIndex((b) => b.timerId === timerId);
          startedEventId = run.buffered[i].timerStartedEventId!;
          run.buffered.splice(i, 1);
        }
        run.append('TIMER_CANCELED', { timerId, startedEventId, workflowTaskCompletedEventId: wtc, identity }, now);
        return false;
      }
      case 'COMPLETE_WORKFLOW_EXECUTION':
        run.append('WORKFLOW_EXECUTION_COMPLETED', { result: cmd.completeWorkflowExecutionCommandAttributes?.result, workflowTaskCompletedEventId: wtc }, now);
        engine.closeRun(run, 'COMPLETED');
        return false;
      case 'FAIL_WORKFLOW_EXECUTION':
        engine.failRun(run, cmd.failWorkflowExecutionCommandAttributes?.failure, wtc);
        return false;
      case 'CANCEL_WORKFLOW_EXECUTION':
        run.append('WORKFLOW_EXECUTION_CANCELED', { details: cmd.cancelWorkflowExecutionCommandAttributes?.details, workflowTaskCompletedEventId: wtc }, now);
        engine.closeRun(run, 'CANCELED');
        return false;
      case 'CONTINUE_AS_NEW_WORKFLOW_EXECUTION':
        this.continueAsNew(run, cmd.continueAsNewWorkflowExecutionCommandAttributes ?? {}, wtc);
        return false;
      case 'RECORD_MARKER': {
        const a = cmd.recordMarkerCommandAttributes ?? {};
        run.append('MARKER_RECORDED', { markerName: a.markerName, details: a.details, header: a.header, failure: a.failure, workflowTaskCompletedEventId: wtc }, now);
        return false;
      }
      case 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES': {
        const sa = cmd.upsertWorkflowSearchAttributesCommandAttributes?.searchAttributes ?? {};
        run.append('UPSERT_WORKFLOW_SEARCH_ATTRIBUTES', { searchAttributes: sa, workflowTaskCompletedEventId: wtc }, now);
        for (const [k, v] of Object.entries<any>(sa.indexedFields ?? {})) {
          const decoded = payloadToJson(v);
          if (decoded === null || (Array.isArray(decoded) && decoded.length === 0)) delete run.searchAttributes[k];
          else run.searchAttributes[k] = v;
        }
        return false;
      }
      case 'MODIFY_WORKFLOW_PROPERTIES': {
        const memo = cmd.modifyWorkflowPropertiesCommandAttributes?.upsertedMemo ?? {};
        run.append('WORKFLOW_PROPERTIES_MODIFIED', { upsertedMemo: memo, workflowTaskCompletedEventId: wtc }, now);
        for (const [k, v] of Object.entries<any>(memo.fields ?? {})) {
          if (payloadToJson(v) === null) delete run.memo[k];
          else run.memo[k] = v;
        }
        return false;
      }
      case 'START_CHILD_WORKFLOW_EXECUTION':
        this.startChild(run, cmd.startChildWorkflowExecutionCommandAttributes, wtc, afterwards);
        return false;
      case 'SIGNAL_EXTERNAL_WORKFLOW_EXECUTION':
        this.signalExternal(run, cmd.signalExternalWorkflowExecutionCommandAttributes, wtc, afterwards);
        return false;
      case 'REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION':
        this.cancelExternal(run, cmd.requestCancelExternalWorkflowExecutionCommandAttributes, wtc, afterwards);
        return false;
    }
    throw new RpcError(Status.INVALID_ARGUMENT, `unsupported command ${name}`);
  }

  private continueAsNew(run: Run, a: any, wtc: number): void {
    const engine = this.engine;
    const start = run.startRequest;
    const startAttrs = run.attributesOf(run.history[0]);
    const newRunId = randomUUID();
    const req = {
      ...start,
      requestId: undefined,
      workflowStartDelay: undefined,
      workflowType: a.workflowType?.name ? a.workflowType : { name: run.workflowType },
      taskQueue: a.taskQueue?.name ? { name: a.taskQueue.name, kind: 1 } : { name: run.taskQueue, kind: 1 },
      input: a.input,
      header: a.header,
      workflowRunTimeout: a.workflowRunTimeout ?? start.workflowRunTimeout,
      workflowTaskTimeout: a.workflowTaskTimeout ?? start.workflowTaskTimeout,
      retryPolicy: a.retryPolicy ?? start.retryPolicy,
      memo: a.memo ?? { fields: run.memo },
      searchAttributes: a.searchAttributes ?? { indexedFields: run.searchAttributes },
    };
    const initiator = a.initiator || ContinueAsNewInitiator.v('WORKFLOW');
    run.append('WORKFLOW_EXECUTION_CONTINUED_AS_NEW', {
      newExecutionRunId: newRunId,
      workflowType: req.workflowType,
      taskQueue: req.taskQueue,
      input: a.input,
      header: a.header,
      workflowRunTimeout: req.workflowRunTimeout,
      workflowTaskTimeout: req.workflowTaskTimeout,
      backoffStartInterval: a.backoffStartInterval,
      initiator,
      failure: a.failure,
      lastCompletionResult: a.lastCompletionResult,
      memo: req.memo,
      searchAttributes: req.searchAttributes,
      workflowTaskCompletedEventId: wtc,
    }, engine.now());
    engine.closeRun(run, 'CONTINUED_AS_NEW');
    const parent = run.parent;
    engine.createRun(run.namespace, req, {
      runId: newRunId,
      continued: {
        fromRunId: run.runId,
        firstRunId: run.firstRunId,
        initiator,
        expirationTime: timestampMs(startAttrs.workflowExecutionExpirationTime),
        lastCompletionResult: a.lastCompletionResult,
        continuedFailure: a.failure,
        backoffMs: durationMs(a.backoffStartInterval),
      },
      parent: parent ? { ...parent, parentClosePolicy: run.parentClosePolicy } : undefined,
    });
  }

  private startChild(run: Run, a: any, wtc: number, afterwards: (() => void)[]): void {
    const engine = this.engine;
    const namespace = a.namespace || run.namespace;
    const taskQueue = a.taskQueue?.name ? { name: a.taskQueue.name, kind: 1 } : { name: run.taskQueue, kind: 1 };
    const ev = run.append('START_CHILD_WORKFLOW_EXECUTION_INITIATED', { ...a, namespace, taskQueue, workflowTaskCompletedEventId: wtc }, engine.now());
    const child: ChildState = {
      initiatedEventId: ev.eventId, namespace, workflowId: a.workflowId, workflowType: a.workflowType.name,
      parentClosePolicy: a.parentClosePolicy ?? 0,
    };
    run.children.set(child.initiatedEventId, child);
    afterwards.push(() => {
      if (!run.open) return;
      const common = { namespace, workflowId: a.workflowId, workflowType: a.workflowType, initiatedEventId: child.initiatedEventId };
      try {
        if (!engine.namespaces.has(namespace)) throw new RpcError(Status.NOT_FOUND, 'namespace');
        const root = run.parent ? run.attributesOf(run.history[0]).rootWorkflowExecution ?? run.execution : run.execution;
        const { runId } = engine.startWorkflow(namespace, {
          workflowId: a.workflowId, workflowType: a.workflowType, taskQueue, input: a.input,
          workflowExecutionTimeout: a.workflowExecutionTimeout, workflowRunTimeout: a.workflowRunTimeout,
          workflowTaskTimeout: a.workflowTaskTimeout, workflowIdReusePolicy: a.workflowIdReusePolicy,
          retryPolicy: a.retryPolicy, header: a.header, memo: a.memo, searchAttributes: a.searchAttributes,
          requestId: randomUUID(), identity: 'parent', priority: a.priority,
        }, {
          parent: { namespace: run.namespace, workflowId: run.workflowId, runId: run.runId, initiatedEventId: child.initiatedEventId, parentClosePolicy: child.parentClosePolicy, root },
        });
        child.runId = runId;
        engine.addExternalEvent(run, {
          events: [{
            type: 'CHILD_WORKFLOW_EXECUTION_STARTED',
            attrs: { namespace, initiatedEventId: child.initiatedEventId, workflowExecution: { workflowId: a.workflowId, runId }, workflowType: a.workflowType, header: a.header },
          }],
          childStarted: child.initiatedEventId,
        });
      } catch (err) {
        const code = (err as RpcError).code;
        const cause = code === Status.ALREADY_EXISTS ? 'WORKFLOW_ALREADY_EXISTS' : 'NAMESPACE_NOT_FOUND';
        run.children.delete(child.initiatedEventId);
        engine.addExternalEventOf(run, 'START_CHILD_WORKFLOW_EXECUTION_FAILED', { ...common, cause: StartChildFailedCause.v(cause), workflowTaskCompletedEventId: wtc });
      }
    });
  }

  private findTarget(ns: string, execution: any) {
    try {
      const target = this.engine.resolveRun(ns, execution);
      return target.open ? target : undefined;
    } catch {
      return undefined;
    }
  }

  private signalExternal(run: Run, a: any, wtc: number, afterwards: (() => void)[]): void {
    const engine = this.engine;
    const namespace = a.namespace || run.namespace;
    const ev = run.append('SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED', {
      namespace, workflowExecution: a.execution, signalName: a.signalName, input: a.input, control: a.control,
      childWorkflowOnly: a.childWorkflowOnly, header: a.header, workflowTaskCompletedEventId: wtc,
    }, engine.now());
    const initiatedEventId = ev.eventId;
    afterwards.push(() => {
      if (!run.open) return;
      const target = this.findTarget(namespace, a.execution);
      if (target) {
        engine.signal(target, a.signalName, a.input, a.header, `workflow:${run.workflowId}`, run.execution);
        engine.addExternalEventOf(run, 'EXTERNAL_WORKFLOW_EXECUTION_SIGNALED', {
          initiatedEventId, namespace, workflowExecution: { workflowId: target.workflowId, runId: target.runId }, control: a.control,
        });
      } else {
        engine.addExternalEventOf(run, 'SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED', {
          cause: ExternalFailedCause.v('EXTERNAL_WORKFLOW_EXECUTION_NOT_FOUND'), initiatedEventId, namespace,
          workflowExecution: a.execution, control: a.control, workflowTaskCompletedEventId: wtc,
        });
      }
    });
  }

  private cancelExternal(run: Run, a: any, wtc: number, afterwards: (() => void)[]): void {
    const engine = this.engine;
    const namespace = a.namespace || run.namespace;
    const execution = { workflowId: a.workflowId, runId: a.runId };
    const ev = run.append('REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED', {
      namespace, workflowExecution: execution, control: a.control, childWorkflowOnly: a.childWorkflowOnly,
      reason: a.reason, workflowTaskCompletedEventId: wtc,
    }, engine.now());
    const initiatedEventId = ev.eventId;
    afterwards.push(() => {
      if (!run.open) return;
      const target = this.findTarget(namespace, execution);
      if (target) {
        engine.requestCancel(target, a.reason, `workflow:${run.workflowId}`, { initiatedEventId, execution: run.execution });
        engine.addExternalEventOf(run, 'EXTERNAL_WORKFLOW_EXECUTION_CANCEL_REQUESTED', {
          initiatedEventId, namespace, workflowExecution: { workflowId: target.workflowId, runId: target.runId },
        });
      } else {
        engine.addExternalEventOf(run, 'REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_FAILED', {
          cause: CancelExternalFailedCause.v('EXTERNAL_WORKFLOW_EXECUTION_NOT_FOUND'), initiatedEventId, namespace,
          workflowExecution: execution, control: a.control, workflowTaskCompletedEventId: wtc,
        });
      }
    });
  }
}
