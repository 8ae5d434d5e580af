// FailWorkflowExecution with the start request's retry policy (packages/temporal-server/PROTOCOL.md#continue-as-new-and-retries): the failed
// event names the next run when another attempt is allowed, and that run starts after the backoff,
// keeping the parent and the execution expiration.
import { randomUUID } from 'node:crypto';
import type { Failure } from '../../messages';
import { ContinueAsNewInitiator, RetryState, timestampMs } from '../../proto';
import { retryDecision, withRetryDefaults } from '../../retry-policy';
import type { Run } from '../../state/run';
import type { RunFactory, ValidStartRequest } from '../start/create-run';
import type { RunCloser } from './close-run';

export interface FailRunDeps {
  clock: { now(): number };
  closer: Pick<RunCloser, 'close'>;
  runs: Pick<RunFactory, 'create'>;
}

export class RunFailure {
  constructor(private readonly deps: FailRunDeps) {}

  fail(run: Run, failure: Failure | undefined, wtc: number): void {
    const start = run.startRequest;
    const startAttrs = run.startAttributes;
    const attempt = startAttrs.attempt ?? 1;
    const expiresAt = timestampMs(startAttrs.workflowExecutionExpirationTime) ?? 0;
    const now = this.deps.clock.now();
    const decision = start.retryPolicy
      ? retryDecision(withRetryDefaults(start.retryPolicy), attempt, failure, now, expiresAt)
      : { retryState: RetryState.v('RETRY_POLICY_NOT_SET'), delayMs: undefined };
    const newRunId = decision.delayMs !== undefined ? randomUUID() : undefined;
    run.append('WORKFLOW_EXECUTION_FAILED', { failure, retryState: decision.retryState, newExecutionRunId: newRunId, workflowTaskCompletedEventId: wtc }, now);
    this.deps.closer.close(run, 'FAILED', !!newRunId);
    if (!newRunId) return;
    // The run was started from a validated request, so id, type and queue are present.
    const next = { ...start, requestId: undefined, workflowStartDelay: undefined } as ValidStartRequest;
    this.deps.runs.create(run.namespace, next, {
      runId: newRunId,
      continued: {
        fromRunId: run.runId,
        firstRunId: run.firstRunId,
        initiator: ContinueAsNewInitiator.v('RETRY'),
        expirationTime: expiresAt || undefined,
        continuedFailure: failure,
        backoffMs: decision.delayMs,
        attempt: attempt + 1,
      },
      parent: run.parent ? { ...run.parent, parentClosePolicy: run.parentClosePolicy } : undefined,
    });
  }
}
