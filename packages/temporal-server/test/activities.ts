// Activities used by the dev-server conformance tests. Module-level maps let a test see what
// happened across attempts (the activities run in the test process).
import { Context, CancelledFailure, CompleteAsyncError, activityInfo, cancellationDetails, getClient } from '@temporalio/activity';
import { ApplicationFailure, type ActivityCancellationDetails } from '@temporalio/common';

export const attemptLog = new Map<string, { attempt: number; at: number; heartbeatDetails: unknown }[]>();

function record(key: string): number {
  const info = Context.current().info;
  const list = attemptLog.get(key) ?? [];
  list.push({ attempt: info.attempt, at: Date.now(), heartbeatDetails: info.heartbeatDetails });
  attemptLog.set(key, list);
  return info.attempt;
}

export async function echo(s: string): Promise<string> {
  return s;
}

/** Fails with a retryable error until attempt > n, then returns the attempt number. */
export async function failTimes(key: string, n: number, type = 'Flaky'): Promise<number> {
  const attempt = record(key);
  if (attempt <= n) throw ApplicationFailure.retryable(`attempt ${attempt} failed`, type);
  return attempt;
}

/** Sleeps past its start-to-close timeout on attempt 1; returns the attempt afterwards. */
export async function slowFirstAttempt(key: string, ms: number): Promise<number> {
  const attempt = record(key);
  if (attempt === 1)
    await Context.current()
      .sleep(ms)
      .catch(() => undefined);
  return attempt;
}

/** Always slow: used for schedule-to-close timeouts. */
export async function alwaysSlow(key: string, ms: number): Promise<void> {
  record(key);
  await Context.current()
    .sleep(ms)
    .catch(() => undefined);
}

/** Heartbeats once, then goes silent on attempt 1; later attempts return the details they got. */
export async function heartbeatThenHang(key: string): Promise<unknown> {
  const attempt = record(key);
  if (attempt === 1) {
    Context.current().heartbeat({ progress: 'first attempt got this far' });
    await Context.current()
      .sleep(10_000)
      .catch(() => undefined);
    return 'attempt 1 should have timed out';
  }
  return Context.current().info.heartbeatDetails;
}

/** Heartbeats until cancelled; reports how it ended. */
export async function waitForCancel(key: string): Promise<string> {
  record(key);
  for (;;) {
    Context.current().heartbeat('alive');
    try {
      await Context.current().sleep(100);
    } catch (e) {
      if (e instanceof CancelledFailure) {
        attemptLog.get(key)!.push({ attempt: -1, at: Date.now(), heartbeatDetails: 'cancelled' });
        throw e;
      }
      throw e;
    }
  }
}

/** Task tokens of activities completed from outside (by key). */
export const asyncTokens = new Map<string, Uint8Array>();

/** Leaves its completion to whoever holds its task token. */
export async function completeLater(key: string): Promise<never> {
  asyncTokens.set(key, activityInfo().taskToken);
  throw new CompleteAsyncError();
}

export async function sleepMs(ms: number): Promise<number> {
  await new Promise((r) => setTimeout(r, ms));
  return ms;
}

export interface PauseResetPlan {
  /** Steps the first attempt takes on itself through the workflow service, in order. */
  steps: ('pause' | 'reset')[];
  /** Unpause itself once cancelled (before rethrowing). */
  unpause?: boolean;
  /** Rethrow the cancellation (the attempt fails and is retried) instead of returning the details. */
  shouldRetry?: boolean;
}

/**
 * The SDK's own pause/reset test activity: the first attempt pauses and/or resets itself, then
 * heartbeats until the server's heartbeat response cancels it, and returns the cancellation details
 * the SDK gives it (or rethrows, to be retried). Later attempts return their own (empty) details.
 */
export async function heartbeatCancellationDetails(plan: PauseResetPlan): Promise<ActivityCancellationDetails | undefined> {
  const info = activityInfo();
  if (info.attempt > 1) return cancellationDetails();
  const client = getClient();
  const req = {
    namespace: client.options.namespace,
    execution: { workflowId: info.workflowExecution?.workflowId, runId: info.workflowExecution?.runId },
    id: info.activityId,
  };
  for (const step of plan.steps) {
    if (step === 'pause') await client.workflowService.pauseActivity(req);
    else await client.workflowService.resetActivity(req);
  }
  for (;;) {
    try {
      Context.current().heartbeat();
      await Context.current().sleep(300);
    } catch (err) {
      if (!(err instanceof CancelledFailure)) throw ApplicationFailure.nonRetryable('Unexpected failure', 'Error', err);
      if (!plan.shouldRetry) return cancellationDetails();
      if (plan.unpause) await client.workflowService.unpauseActivity(req);
      throw err;
    }
  }
}
