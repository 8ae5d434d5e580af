// Client RPCs that act on a running workflow: signal, cancel request, terminate.
import { invalidArgument } from '../../errors';
import { checkIdLength } from '../../limits';
import type { WorkflowServiceHandlers } from '../../messages';
import type { RunRegistry } from '../../state/run-registry';
import type { RunCloser } from './close-run';
import type { SignalAndCancel } from './signal-and-cancel';

export interface LifecycleHandlerDeps {
  registry: Pick<RunRegistry, 'checkNamespace' | 'resolveRun'>;
  signals: Pick<SignalAndCancel, 'signal' | 'requestCancel'>;
  closer: Pick<RunCloser, 'terminate'>;
}

export function lifecycleHandlers({ registry, signals, closer }: LifecycleHandlerDeps): WorkflowServiceHandlers {
  return {
    SignalWorkflowExecution: (req) => {
      const run = registry.resolveRun(registry.checkNamespace(req.namespace), req.workflowExecution);
      if (!req.signalName) throw invalidArgument('signal_name is required');
      checkIdLength('SignalName', req.signalName);
      checkIdLength('RequestId', req.requestId);
      signals.signal(run, { signalName: req.signalName, input: req.input, header: req.header, identity: req.identity, requestId: req.requestId });
      return {};
    },
    RequestCancelWorkflowExecution: (req) => {
      const run = registry.resolveRun(registry.checkNamespace(req.namespace), req.workflowExecution, req.firstExecutionRunId);
      signals.requestCancel(run, { reason: req.reason, identity: req.identity });
      return {};
    },
    TerminateWorkflowExecution: (req) => {
      const run = registry.resolveRun(registry.checkNamespace(req.namespace), req.workflowExecution, req.firstExecutionRunId);
      closer.terminate(run, { reason: req.reason, details: req.details, identity: req.identity });
      return {};
    },
  };
}
