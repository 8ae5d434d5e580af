// StartWorkflowExecution's decision: request-id dedup, then the workflow id reuse policy for a
// closed previous run and the conflict policy for a running one (packages/temporal-server/PROTOCOL.md#starting-workflows).
import { status as Status } from '@grpc/grpc-js';
import { alreadyStarted, invalidArgument, RpcError } from '../../errors';
import { ConflictPolicy, ExecStatus, ReusePolicy } from '../../proto';
import type { RunStartRequest } from '../../state/run';
import type { RunRegistry } from '../../state/run-registry';
import type { PollWorkflowTaskResponse } from '../../messages';
import { durationMs } from '../../proto';
import type { RunCloser } from '../lifecycle/close-run';
import type { WorkflowTasks } from '../workflowtask/workflow-tasks';
import type { RunFactory, StartExtras, ValidStartRequest } from './create-run';

export interface StartDeps {
  registry: Pick<RunRegistry, 'currentRun'>;
  runs: Pick<RunFactory, 'create'>;
  closer: Pick<RunCloser, 'terminate'>;
  workflowTasks: Pick<WorkflowTasks, 'startEagerly'>;
}

export interface StartResult {
  runId: string;
  started: boolean;
  /** Eager start: the first workflow task, already started for the caller's worker. */
  eagerWorkflowTask?: PollWorkflowTaskResponse;
}

function validated(req: RunStartRequest): ValidStartRequest {
  if (!req.workflowId) throw invalidArgument('workflow_id is required');
  if (!req.workflowType?.name) throw invalidArgument('workflow_type is required');
  if (!req.taskQueue?.name) throw invalidArgument('task_queue is required');
  if (req.cronSchedule) throw new RpcError(Status.UNIMPLEMENTED, 'cron_schedule is not supported by this dev server');
  return req as ValidStartRequest;
}

export class WorkflowStarter {
  constructor(private readonly deps: StartDeps) {}

  start(ns: string, request: RunStartRequest, extras: StartExtras = {}): StartResult {
    const req = validated(request);
    const workflowId = req.workflowId;
    const existing = this.deps.registry.currentRun(ns, workflowId);
    if (existing && req.requestId && existing.requestIds.has(req.requestId)) return { runId: existing.runId, started: true };

    let reuse = req.workflowIdReusePolicy ?? 0;
    let conflict = req.workflowIdConflictPolicy ?? 0;
    if (reuse === ReusePolicy.v('TERMINATE_IF_RUNNING')) {
      if (conflict) throw invalidArgument('TERMINATE_IF_RUNNING reuse policy cannot be combined with a conflict policy');
      conflict = ConflictPolicy.v('TERMINATE_EXISTING');
      reuse = ReusePolicy.v('ALLOW_DUPLICATE');
    }
    if (reuse === ReusePolicy.v('REJECT_DUPLICATE') && conflict === ConflictPolicy.v('TERMINATE_EXISTING')) {
      throw invalidArgument('REJECT_DUPLICATE reuse policy cannot be combined with TERMINATE_EXISTING conflict policy');
    }
    if (existing?.open) {
      if (conflict === ConflictPolicy.v('USE_EXISTING')) {
        if (req.requestId) existing.requestIds.add(req.requestId);
        return { runId: existing.runId, started: false };
      }
      if (conflict === ConflictPolicy.v('TERMINATE_EXISTING')) {
        this.deps.closer.terminate(existing, { reason: 'terminated by new runID', identity: 'server' });
      } else {
        throw alreadyStarted(workflowId, [...existing.requestIds][0] ?? '', existing.runId);
      }
    } else if (existing) {
      const s = existing.status;
      if (
        reuse === ReusePolicy.v('REJECT_DUPLICATE') ||
        (reuse === ReusePolicy.v('ALLOW_DUPLICATE_FAILED_ONLY') && (s === ExecStatus.v('COMPLETED') || s === ExecStatus.v('CONTINUED_AS_NEW')))
      ) {
        throw alreadyStarted(workflowId, [...existing.requestIds][0] ?? '', existing.runId);
      }
    }
    // Like the real server, eager start is granted to a new run without a start delay; otherwise
    // the first task goes through the queue and the client's worker polls it as usual.
    const eager = !!req.requestEagerExecution && !durationMs(req.workflowStartDelay);
    const run = this.deps.runs.create(ns, req, { ...extras, firstTaskByCaller: eager });
    if (!eager) return { runId: run.runId, started: true };
    return { runId: run.runId, started: true, eagerWorkflowTask: this.deps.workflowTasks.startEagerly(run, req.identity ?? '') };
  }
}
