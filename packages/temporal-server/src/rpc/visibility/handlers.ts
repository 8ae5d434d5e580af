// Read-side RPCs: history, describe, list, scan and count.
import type { WorkflowServiceHandlers } from '../../messages';
import type { RunRegistry } from '../../state/run-registry';
import { describeRun } from './describe';
import { getHistory, HistoryDeps } from './history';
import { countExecutions, listExecutions } from './list-executions';

export interface VisibilityHandlerDeps extends HistoryDeps {
  registry: Pick<RunRegistry, 'runs' | 'resolveRun' | 'checkNamespace' | 'allRuns'>;
}

export function visibilityHandlers(deps: VisibilityHandlerDeps): WorkflowServiceHandlers {
  const { registry } = deps;
  const ns = (req: { namespace?: string }) => registry.checkNamespace(req.namespace);
  return {
    GetWorkflowExecutionHistory: (req, call) => getHistory(deps, ns(req), req, call),
    DescribeWorkflowExecution: (req) => describeRun(registry.resolveRun(ns(req), req.execution)),
    ListWorkflowExecutions: (req) => listExecutions(registry, ns(req), req),
    ListOpenWorkflowExecutions: (req) => ({ executions: listExecutions(registry, ns(req), { query: 'ExecutionStatus = "Running"' }).executions }),
    ListClosedWorkflowExecutions: (req) => ({ executions: listExecutions(registry, ns(req), { query: 'ExecutionStatus != "Running"' }).executions }),
    ScanWorkflowExecutions: (req) => listExecutions(registry, ns(req), req),
    CountWorkflowExecutions: (req) => countExecutions(registry, ns(req), req),
  };
}
