// ExecuteMultiOperation with the one combination Temporal supports: update-with-start. The start
// follows its conflict policy (USE_EXISTING attaches to the running run, FAIL refuses); when it
// starts a new run, the update is admitted before the first workflow task is dispatched so that
// task carries it, as on the real server. Errors name the failed operation the way the real
// server does (a MultiOperationExecutionFailure detail, one status per operation).
import { invalidArgument, multiOperationFailed, RpcError } from '../../errors';
import { checkIdLength, checkStartRequestIds } from '../../limits';
import type { Call, Plain, StartWorkflowRequest, UpdateWorkflowRequest } from '../../messages';
import type { temporal } from '@temporalio/proto';
import type { RunRegistry } from '../../state/run-registry';
import type { WorkflowStarter } from '../start/start-workflow';
import type { Updates } from '../update/updates';

type MultiOperationRequest = Plain<temporal.api.workflowservice.v1.IExecuteMultiOperationRequest>;
type MultiOperationResponse = Plain<temporal.api.workflowservice.v1.IExecuteMultiOperationResponse>;

export interface UpdateWithStartDeps {
  registry: Pick<RunRegistry, 'checkNamespace'>;
  starter: Pick<WorkflowStarter, 'start'>;
  updates: Pick<Updates, 'admit' | 'update'>;
}

/** The two operations, checked the way the real server checks them before doing anything. */
function operationsOf(req: MultiOperationRequest): { start: StartWorkflowRequest; update: UpdateWorkflowRequest } {
  const [first, second, ...rest] = req.operations ?? [];
  const start = first?.startWorkflow;
  const update = second?.updateWorkflow;
  if (!start || !update || rest.length) throw invalidArgument('ExecuteMultiOperation supports exactly a StartWorkflow followed by an UpdateWorkflow');
  const target = update.workflowExecution;
  if (target?.workflowId !== start.workflowId) throw invalidArgument('the update must target the workflow id being started');
  if (target?.runId || update.firstExecutionRunId) throw invalidArgument('the update of update-with-start cannot name a run id');
  if (!start.workflowIdConflictPolicy) throw invalidArgument('update-with-start requires a workflow id conflict policy');
  if (start.cronSchedule) throw invalidArgument('update-with-start cannot start a cron workflow');
  if (start.workflowStartDelay) throw invalidArgument('update-with-start cannot use a start delay');
  if (start.requestEagerExecution) throw invalidArgument('update-with-start cannot request eager execution');
  if (!update.request?.meta?.updateId) throw invalidArgument('request.meta.update_id is required');
  if (!update.request.input?.name) throw invalidArgument('request.input.name is required');
  return { start, update };
}

/** Runs `fn`; an RPC error it throws becomes the failure of operation `index` of the two. */
function asOperation<T>(index: number, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw e instanceof RpcError ? multiOperationFailed(e, index, 2) : e;
  }
}

export async function updateWithStart(deps: UpdateWithStartDeps, req: MultiOperationRequest, call: Call): Promise<MultiOperationResponse> {
  const ns = deps.registry.checkNamespace(req.namespace);
  const { start, update } = operationsOf(req);
  // Each operation is checked on its own first; the failed one carries the error, the other is aborted.
  asOperation(0, () => checkStartRequestIds(start));
  asOperation(1, () => checkIdLength('UpdateId', update.request?.meta?.updateId));
  const started = asOperation(0, () => deps.starter.start(ns, start, { beforeFirstTask: (run) => deps.updates.admit(run, update.request!) }));
  let updated;
  try {
    updated = await deps.updates.update(ns, { ...update, workflowExecution: { workflowId: start.workflowId, runId: started.runId } }, call);
  } catch (e) {
    throw e instanceof RpcError ? multiOperationFailed(e, 1, 2) : e;
  }
  return { responses: [{ startWorkflow: { runId: started.runId, started: started.started } }, { updateWorkflow: updated }] };
}
