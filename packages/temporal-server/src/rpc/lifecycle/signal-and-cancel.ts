// SignalWorkflowExecution and RequestCancelWorkflowExecution (from clients, from other workflows'
// commands, and from parent close policies): both become external events on the target run.
import { notFound } from '../../errors';
import type { Header, Payloads, WorkflowExecution } from '../../messages';
import type { Run } from '../../state/run';
import type { ExternalEvents } from '../../history/external-events';

export interface SignalDeps {
  events: Pick<ExternalEvents, 'addOne'>;
}

export interface Signal {
  signalName: string;
  input?: Payloads;
  header?: Header;
  identity?: string;
  /** The workflow that sent it (SignalExternalWorkflowExecution). */
  external?: WorkflowExecution;
  /** A client's request id: the same id again is a retry of the same call. */
  requestId?: string;
}

export interface CancelRequest {
  reason?: string;
  identity?: string;
  /** The workflow that asked (RequestCancelExternalWorkflowExecution). */
  external?: { initiatedEventId: number; execution: WorkflowExecution };
}

export class SignalAndCancel {
  constructor(private readonly deps: SignalDeps) {}

  signal(run: Run, s: Signal): void {
    if (!run.open) throw notFound('workflow execution already completed');
    if (s.requestId) {
      // Signals with an already-seen request id are no-ops (client retries of one call).
      if (run.requestIds.has(`signal:${s.requestId}`)) return;
      run.requestIds.add(`signal:${s.requestId}`);
    }
    this.deps.events.addOne(run, 'WORKFLOW_EXECUTION_SIGNALED', {
      signalName: s.signalName,
      input: s.input,
      header: s.header,
      identity: s.identity,
      externalWorkflowExecution: s.external,
    });
  }

  requestCancel(run: Run, c: CancelRequest): void {
    if (!run.open || run.cancelRequested) return;
    run.cancelRequested = true;
    this.deps.events.addOne(run, 'WORKFLOW_EXECUTION_CANCEL_REQUESTED', {
      cause: c.reason,
      identity: c.identity,
      externalInitiatedEventId: c.external?.initiatedEventId,
      externalWorkflowExecution: c.external?.execution,
    });
  }
}
