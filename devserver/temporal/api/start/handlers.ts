// RPCs that start runs: StartWorkflowExecution and SignalWithStartWorkflowExecution.
import type { WorkflowServiceHandlers } from '../../messages';
import { ConflictPolicy, ReusePolicy } from '../../proto';
import type { RunRegistry } from '../../state/run-registry';
import type { SignalAndCancel } from '../lifecycle/signal-and-cancel';
import type { Run } from '../../state/run';
import { startNow } from './start-delay';
import type { WorkflowStarter } from './start-workflow';

export interface StartHandlerDeps {
  registry: Pick<RunRegistry, 'checkNamespace' | 'currentRun'>;
  starter: Pick<WorkflowStarter, 'start'>;
  signals: Pick<SignalAndCancel, 'signal'>;
  scheduleWorkflowTask(run: Run): void;
}

export function startHandlers({ registry, starter, signals, scheduleWorkflowTask }: StartHandlerDeps): WorkflowServiceHandlers {
  return {
    StartWorkflowExecution: (req) => starter.start(registry.checkNamespace(req.namespace), req),
    SignalWithStartWorkflowExecution: (req) => {
      const ns = registry.checkNamespace(req.namespace);
      const existing = req.workflowId ? registry.currentRun(ns, req.workflowId) : undefined;
      const conflict = req.workflowIdConflictPolicy ?? 0;
      // A running run is signalled unless the policies ask to fail or to replace it; UNSPECIFIED
      // behaves like USE_EXISTING for signal-with-start (brief 8.4). FAIL falls through to the
      // start, which refuses with ALREADY_EXISTS.
      if (existing?.open && conflict !== ConflictPolicy.v('FAIL') && conflict !== ConflictPolicy.v('TERMINATE_EXISTING') &&
        req.workflowIdReusePolicy !== ReusePolicy.v('TERMINATE_IF_RUNNING')) {
        signals.signal(existing, req.signalName ?? '', req.signalInput, req.header, req.identity, undefined, req.requestId);
        startNow(existing, scheduleWorkflowTask);
        return { runId: existing.runId, started: false };
      }
      return starter.start(ns, req, { signal: { signalName: req.signalName ?? '', input: req.signalInput, header: req.header, identity: req.identity } });
    },
  };
}
