// SignalWorkflowExecution and RequestCancelWorkflowExecution (from clients, from other workflows'
// commands, and from parent close policies): both become external events on the target run.
import { notFound } from '../../errors';
import type { Header, Payloads, WorkflowExecution } from '../../messages';
import type { Run } from '../../state/run';
import type { ExternalEvents } from '../../history/external-events';

export interface SignalDeps {
  events: Pick<ExternalEvents, 'addOne'>;
}

export class SignalAndCancel {
  constructor(private readonly deps: SignalDeps) {}

  signal(run: Run, signalName: string, input: Payloads | undefined, header: Header | undefined, identity: string | undefined, external?: WorkflowExecution, requestId?: string): void {
    if (!run.open) throw notFound('workflow execution already completed');
    if (requestId) {
      // Signals with an already-seen request id are no-ops (client retries of one call).
      if (run.requestIds.has(`signal:${requestId}`)) return;
      run.requestIds.add(`signal:${requestId}`);
    }
    this.deps.events.addOne(run, 'WORKFLOW_EXECUTION_SIGNALED', { signalName, input, header, identity, externalWorkflowExecution: external });
  }

  requestCancel(run: Run, reason: string | undefined, identity: string | undefined, external?: { initiatedEventId: number; execution: WorkflowExecution }): void {
    if (!run.open || run.cancelRequested) return;
    run.cancelRequested = true;
    this.deps.events.addOne(run, 'WORKFLOW_EXECUTION_CANCEL_REQUESTED', {
      cause: reason, identity,
      externalInitiatedEventId: external?.initiatedEventId,
      externalWorkflowExecution: external?.execution,
    });
  }
}
