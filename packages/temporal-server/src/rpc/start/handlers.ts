// RPCs that start runs: StartWorkflowExecution and SignalWithStartWorkflowExecution.
import { checkIdLength, checkStartRequestIds } from '../../limits';
import type { WorkflowServiceHandlers } from '../../messages';
import { ConflictPolicy, ReusePolicy } from '../../proto';
import type { RunRegistry } from '../../state/run-registry';
import type { SignalAndCancel } from '../lifecycle/signal-and-cancel';
import type { WorkflowTasks } from '../workflowtask/workflow-tasks';
import { startNow } from './start-delay';
import type { WorkflowStarter } from './start-workflow';

export interface StartHandlerDeps {
  registry: Pick<RunRegistry, 'checkNamespace' | 'currentRun'>;
  starter: Pick<WorkflowStarter, 'start'>;
  signals: Pick<SignalAndCancel, 'signal'>;
  workflowTasks: Pick<WorkflowTasks, 'schedule'>;
}

export function startHandlers({ registry, starter, signals, workflowTasks }: StartHandlerDeps): WorkflowServiceHandlers {
  return {
    StartWorkflowExecution: (req) => {
      const ns = registry.checkNamespace(req.namespace);
      checkStartRequestIds(req);
      return starter.start(ns, req);
    },
    SignalWithStartWorkflowExecution: (req) => {
      const ns = registry.checkNamespace(req.namespace);
      checkStartRequestIds(req);
      checkIdLength('SignalName', req.signalName);
      const existing = req.workflowId ? registry.currentRun(ns, req.workflowId) : undefined;
      const conflict = req.workflowIdConflictPolicy ?? 0;
      const signal = { signalName: req.signalName ?? '', input: req.signalInput, header: req.header, identity: req.identity };
      // A running run is signalled unless the policies ask to fail or to replace it; UNSPECIFIED
      // behaves like USE_EXISTING for signal-with-start. FAIL falls through to the start, which
      // refuses with ALREADY_EXISTS.
      if (
        existing?.open &&
        conflict !== ConflictPolicy.v('FAIL') &&
        conflict !== ConflictPolicy.v('TERMINATE_EXISTING') &&
        req.workflowIdReusePolicy !== ReusePolicy.v('TERMINATE_IF_RUNNING')
      ) {
        signals.signal(existing, { ...signal, requestId: req.requestId });
        startNow(existing, workflowTasks);
        return { runId: existing.runId, started: false };
      }
      return starter.start(ns, req, { signal });
    },
  };
}
