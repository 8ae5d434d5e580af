// Workflow Update (brief section 6): UpdateWorkflowExecution / PollWorkflowExecutionUpdate, the
// protocol messages that carry requests to the worker inside workflow tasks, and the
// Accepted/Completed history events written from the worker's answers.
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { ServerUnaryCall } from '@grpc/grpc-js';
import type { Engine } from './engine';
import { invalidArgument, notFound } from './errors';
import { encodeMessage, protoType } from './proto';
import type { Run, UpdateState } from './run';

const STAGE = { ADMITTED: 1, ACCEPTED: 2, COMPLETED: 3 };
const TYPE_PREFIX = 'type.googleapis.com/';
const UPDATE_WAIT_MS = 10_000;

function stageOf(u: UpdateState): number {
  return u.state === 'completed' ? STAGE.COMPLETED : u.state === 'accepted' ? STAGE.ACCEPTED : STAGE.ADMITTED;
}

export class Updates {
  constructor(private readonly engine: Engine) {
    engine.onRunClosed.push((run) => this.abortAll(run));
    engine.taskMessages = (run, startedEventId) => this.messagesFor(run, startedEventId);
  }

  private response(run: Run, u: UpdateState) {
    return {
      updateRef: { workflowExecution: run.execution, updateId: u.updateId },
      stage: stageOf(u),
      outcome: u.outcome,
    };
  }

  private wait(u: UpdateState, stage: number, call: ServerUnaryCall<any, any>): Promise<void> {
    return new Promise((resolve) => {
      if (stageOf(u) >= stage) return resolve();
      const done = () => {
        if (stageOf(u) < stage && !call.cancelled && !expired && !this.engine.stopping) return;
        u.waiters.delete(done);
        clearTimeout(timer);
        resolve();
      };
      let expired = false;
      const timer = setTimeout(() => { expired = true; done(); }, UPDATE_WAIT_MS);
      call.on('cancelled', done);
      u.waiters.add(done);
    });
  }

  private notify(u: UpdateState): void {
    for (const w of [...u.waiters]) w();
  }

  async update(ns: string, req: any, call: ServerUnaryCall<any, any>): Promise<any> {
    const run = this.engine.resolveRun(ns, req.workflowExecution, req.firstExecutionRunId);
    const updateId: string | undefined = req.request?.meta?.updateId;
    if (!updateId) throw invalidArgument('request.meta.update_id is required');
    if (!req.request?.input?.name) throw invalidArgument('request.input.name is required');
    let u = run.updates.get(updateId);
    if (!u) {
      if (!run.open) throw notFound('workflow execution already completed');
      u = { updateId, request: req.request, state: 'requested', deliveredIn: 0, acceptedEventId: 0, waiters: new Set() };
      run.updates.set(updateId, u);
      run.touch();
      if (run.wft.state === 'none' && !run.startDelayPending) this.engine.scheduleWorkflowTask(run);
    }
    await this.wait(u, Math.max(STAGE.ACCEPTED, req.waitPolicy?.lifecycleStage ?? 0), call);
    return this.response(run, u);
  }

  async poll(ns: string, req: any, call: ServerUnaryCall<any, any>): Promise<any> {
    const ref = req.updateRef ?? {};
    const run = this.engine.resolveRun(ns, ref.workflowExecution);
    const u = run.updates.get(ref.updateId);
    if (!u) throw notFound(`update ${ref.updateId} not found`);
    await this.wait(u, req.waitPolicy?.lifecycleStage || STAGE.COMPLETED, call);
    return this.response(run, u);
  }

  /** Requests not yet accepted/rejected ride on every workflow task until answered. */
  private messagesFor(run: Run, startedEventId: number): any[] {
    const out: any[] = [];
    for (const u of run.updates.values()) {
      if (u.state !== 'requested') continue;
      u.deliveredIn = startedEventId;
      out.push({
        id: `${u.updateId}/request`,
        protocolInstanceId: u.updateId,
        eventId: startedEventId - 1,
        body: { type_url: `${TYPE_PREFIX}temporal.api.update.v1.Request`, value: encodeMessage(protoType('temporal.api.update.v1.Request'), u.request) },
      });
    }
    return out;
  }

  /** Requests that arrived while the current task ran: the worker has not seen them. */
  hasUnseen(run: Run, startedEventId: number): boolean {
    for (const u of run.updates.values()) if (u.state === 'requested' && u.deliveredIn !== startedEventId) return true;
    return false;
  }

  hasPending(run: Run): boolean {
    for (const u of run.updates.values()) if (u.state === 'requested') return true;
    return false;
  }

  /** Applies one protocol message from a completion (in command order, or after the commands). */
  apply(run: Run, msg: any, wtc: number): void {
    const typeUrl: string = msg.body?.type_url ?? '';
    const typeName = typeUrl.startsWith(TYPE_PREFIX) ? typeUrl.slice(TYPE_PREFIX.length) : typeUrl;
    let body: any;
    try {
      body = protoType(typeName).toObject(protoType(typeName).decode(msg.body.value ?? Buffer.alloc(0)), { longs: Number, enums: Number, defaults: false });
    } catch {
      throw invalidArgument(`unsupported protocol message body ${typeUrl}`);
    }
    const u = run.updates.get(msg.protocolInstanceId);
    if (!u) return; // an answer for an update we no longer track
    const now = this.engine.now();
    if (typeName === 'temporal.api.update.v1.Acceptance') {
      if (u.state !== 'requested') return;
      u.acceptedEventId = run.append('WORKFLOW_EXECUTION_UPDATE_ACCEPTED', {
        protocolInstanceId: u.updateId,
        acceptedRequestMessageId: body.acceptedRequestMessageId,
        acceptedRequestSequencingEventId: body.acceptedRequestSequencingEventId,
        acceptedRequest: body.acceptedRequest ?? u.request,
      }, now).eventId;
      u.state = 'accepted';
    } else if (typeName === 'temporal.api.update.v1.Response') {
      if (u.state !== 'accepted') return;
      run.append('WORKFLOW_EXECUTION_UPDATE_COMPLETED', { meta: body.meta, outcome: body.outcome, acceptedEventId: u.acceptedEventId }, now);
      u.state = 'completed';
      u.outcome = body.outcome;
    } else if (typeName === 'temporal.api.update.v1.Rejection') {
      if (u.state !== 'requested') return;
      u.state = 'completed';
      u.outcome = { failure: body.failure };
    } else {
      throw invalidArgument(`unsupported protocol message body ${typeUrl}`);
    }
    run.touch();
    this.notify(u);
  }

  private abortAll(run: Run): void {
    for (const u of run.updates.values()) {
      if (u.state === 'completed') continue;
      u.state = 'completed';
      u.outcome = { failure: { message: 'Workflow Update failed because the Workflow completed before the Update completed.', source: 'Server', applicationFailureInfo: { type: 'AcceptedUpdateCompletedWorkflow', nonRetryable: true } } };
      this.notify(u);
    }
  }
}
