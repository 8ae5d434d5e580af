// Workflow Update (packages/temporal-server/PROTOCOL.md#updates): UpdateWorkflowExecution / PollWorkflowExecutionUpdate, the
// protocol messages that carry requests to the worker inside workflow tasks, and the
// Accepted/Completed history events written from the worker's answers.
import { concurrentLimitReached, failedPrecondition, invalidArgument, notFound } from '../../errors';
import { checkIdLength } from '../../limits';
import type {
  Call,
  PollUpdateRequest,
  PollUpdateResponse,
  ProtocolMessage,
  UpdateOutcome,
  UpdateRequest,
  UpdateWorkflowRequest,
  UpdateWorkflowResponse,
} from '../../messages';
import { decodeMessage, protoType, UpdateStage } from '../../proto';
import type { Run, UpdateState } from '../../state/run';
import type { RunRegistry } from '../../state/run-registry';
import type { ShutdownSignal } from '../../shutdown';
import { startNow } from '../start/start-delay';
import type { WorkflowTasks } from '../workflowtask/workflow-tasks';
import { TYPE_PREFIX } from './update-messages';

const UPDATE_WAIT_MS = 10_000;
/** The real server's per-run limits: updates admitted or accepted but not completed, and all updates. */
const MAX_IN_FLIGHT_UPDATES = 10;
const MAX_TOTAL_UPDATES = 2000;
const ACCEPTANCE = 'temporal.api.update.v1.Acceptance';
const RESPONSE = 'temporal.api.update.v1.Response';
const REJECTION = 'temporal.api.update.v1.Rejection';

function stageOf(u: UpdateState): number {
  return u.state === 'completed' ? UpdateStage.COMPLETED : u.state === 'accepted' ? UpdateStage.ACCEPTED : UpdateStage.ADMITTED;
}

export interface UpdateDeps {
  clock: { now(): number };
  registry: Pick<RunRegistry, 'resolveRun'>;
  workflowTasks: Pick<WorkflowTasks, 'schedule'>;
  /** Once the server stops, waiting update calls return. */
  shutdown: Pick<ShutdownSignal, 'stopping'>;
}

export class Updates {
  constructor(private readonly deps: UpdateDeps) {}

  private response(run: Run, u: UpdateState): UpdateWorkflowResponse & PollUpdateResponse {
    return {
      updateRef: { workflowExecution: run.execution, updateId: u.updateId },
      stage: stageOf(u),
      outcome: u.outcome,
    };
  }

  private wait(u: UpdateState, stage: number, call: Call): Promise<void> {
    return new Promise((resolve) => {
      if (stageOf(u) >= stage) return resolve();
      const done = () => {
        if (stageOf(u) < stage && !call.cancelled && !expired && !this.deps.shutdown.stopping) return;
        u.waiters.delete(done);
        clearTimeout(timer);
        resolve();
      };
      let expired = false;
      const timer = setTimeout(() => {
        expired = true;
        done();
      }, UPDATE_WAIT_MS);
      call.on('cancelled', done);
      u.waiters.add(done);
    });
  }

  private notify(u: UpdateState): void {
    for (const w of [...u.waiters]) w();
  }

  async update(ns: string, req: UpdateWorkflowRequest, call: Call): Promise<UpdateWorkflowResponse> {
    const run = this.deps.registry.resolveRun(ns, req.workflowExecution, req.firstExecutionRunId);
    const updateId = req.request?.meta?.updateId;
    if (!updateId) throw invalidArgument('request.meta.update_id is required');
    if (!req.request?.input?.name) throw invalidArgument('request.input.name is required');
    checkIdLength('UpdateId', updateId);
    const known = run.updates.has(updateId);
    const u = this.admit(run, req.request);
    // A new update needs a workflow task; it also ends a start delay (as on the real server).
    if (!known) startNow(run, this.deps.workflowTasks);
    await this.wait(u, Math.max(UpdateStage.ACCEPTED, req.waitPolicy?.lifecycleStage ?? 0), call);
    return this.response(run, u);
  }

  /**
   * Registers an update request on the run (the same id again is the same update). Its request
   * then rides on every workflow task until the worker accepts or rejects it.
   */
  admit(run: Run, request: UpdateRequest): UpdateState {
    const updateId = request.meta?.updateId ?? '';
    let u = run.updates.get(updateId);
    if (!u) {
      if (!run.open) throw notFound('workflow execution already completed');
      this.checkLimits(run);
      u = { updateId, request, state: 'requested', deliveredIn: 0, acceptedEventId: 0, waiters: new Set() };
      run.updates.set(updateId, u);
      run.touch();
    }
    return u;
  }

  /** A new update is refused while 10 are in flight, or once the run has had 2000 (rejected ones do not count). */
  private checkLimits(run: Run): void {
    let inFlight = 0;
    let total = 0;
    for (const u of run.updates.values()) {
      if (u.state !== 'completed') inFlight++;
      if (u.state !== 'completed' || u.acceptedEventId) total++;
    }
    if (inFlight >= MAX_IN_FLIGHT_UPDATES)
      throw concurrentLimitReached(`limit on number of concurrent in-flight updates has been reached (${MAX_IN_FLIGHT_UPDATES})`);
    if (total >= MAX_TOTAL_UPDATES) {
      throw failedPrecondition(`The limit on the total number of distinct updates in this workflow has been reached (${MAX_TOTAL_UPDATES}).`);
    }
  }

  async poll(ns: string, req: PollUpdateRequest, call: Call): Promise<PollUpdateResponse> {
    const ref = req.updateRef ?? {};
    const run = this.deps.registry.resolveRun(ns, ref.workflowExecution);
    const u = run.updates.get(ref.updateId ?? '');
    if (!u) throw notFound(`update ${ref.updateId} not found`);
    // Without a wait stage the real server answers at once with the stage reached so far.
    await this.wait(u, req.waitPolicy?.lifecycleStage ?? 0, call);
    return this.response(run, u);
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
  apply(run: Run, msg: ProtocolMessage, wtc: number): void {
    const anyBody = msg.body;
    const typeUrl = anyBody?.type_url ?? '';
    const typeName = typeUrl.startsWith(TYPE_PREFIX) ? typeUrl.slice(TYPE_PREFIX.length) : typeUrl;
    let body: Record<string, unknown>;
    try {
      body = decodeMessage(protoType(typeName), anyBody?.value ?? Buffer.alloc(0)) as Record<string, unknown>;
    } catch {
      throw invalidArgument(`unsupported protocol message body ${typeUrl}`);
    }
    const u = run.updates.get(msg.protocolInstanceId ?? '');
    if (!u) return; // an answer for an update we no longer track
    const now = this.deps.clock.now();
    if (typeName === ACCEPTANCE) {
      if (u.state !== 'requested') return;
      const a = body as { acceptedRequestMessageId?: string; acceptedRequestSequencingEventId?: number; acceptedRequest?: UpdateRequest };
      u.acceptedEventId = run.append(
        'WORKFLOW_EXECUTION_UPDATE_ACCEPTED',
        {
          protocolInstanceId: u.updateId,
          acceptedRequestMessageId: a.acceptedRequestMessageId,
          acceptedRequestSequencingEventId: a.acceptedRequestSequencingEventId,
          acceptedRequest: a.acceptedRequest ?? u.request,
        },
        now,
      ).eventId;
      u.state = 'accepted';
    } else if (typeName === RESPONSE) {
      if (u.state !== 'accepted') return;
      const r = body as { meta?: UpdateRequest['meta']; outcome?: UpdateOutcome };
      run.append('WORKFLOW_EXECUTION_UPDATE_COMPLETED', { meta: r.meta, outcome: r.outcome, acceptedEventId: u.acceptedEventId }, now);
      u.state = 'completed';
      u.outcome = r.outcome;
    } else if (typeName === REJECTION) {
      if (u.state !== 'requested') return;
      u.state = 'completed';
      u.outcome = { failure: (body as { failure?: UpdateOutcome['failure'] }).failure };
    } else {
      throw invalidArgument(`unsupported protocol message body ${typeUrl}`);
    }
    run.touch();
    this.notify(u);
  }

  /** The run closed: updates still open fail, with the real server's message. */
  runClosed(run: Run): void {
    for (const u of run.updates.values()) {
      if (u.state === 'completed') continue;
      u.state = 'completed';
      u.outcome = {
        failure: {
          message: 'Workflow Update failed because the Workflow completed before the Update completed.',
          source: 'Server',
          applicationFailureInfo: { type: 'AcceptedUpdateCompletedWorkflow', nonRetryable: true },
        },
      };
      this.notify(u);
    }
  }
}
