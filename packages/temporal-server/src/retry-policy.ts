// Retry policy defaults and the "retry or give up" decision shared by activities and workflows
// (as the real server's retry policy code decides; packages/temporal-server/PROTOCOL.md#retry-policies).
import type { Failure, RetryPolicy } from './messages';
import { duration, durationMs, RetryState, TimeoutType } from './proto';

const DEFAULT_INITIAL_INTERVAL_MS = 1000;

/** A retry policy with every server default filled in. */
export type FullRetryPolicy = Required<
  Pick<RetryPolicy, 'initialInterval' | 'backoffCoefficient' | 'maximumInterval' | 'maximumAttempts' | 'nonRetryableErrorTypes'>
>;

/** Fills server defaults: 1 s initial, x2, maximum 100 x initial, unlimited attempts. */
export function withRetryDefaults(rp: RetryPolicy = {}): FullRetryPolicy {
  const initial = durationMs(rp.initialInterval) || DEFAULT_INITIAL_INTERVAL_MS;
  return {
    initialInterval: duration(initial),
    backoffCoefficient: rp.backoffCoefficient || 2,
    maximumInterval: duration(durationMs(rp.maximumInterval) || initial * 100),
    maximumAttempts: rp.maximumAttempts ?? 0,
    nonRetryableErrorTypes: rp.nonRetryableErrorTypes ?? [],
  };
}

export interface RetryDecision {
  /** Set when another attempt should run after this delay. */
  delayMs?: number;
  retryState: number;
}

/**
 * `attempt` is the attempt that just failed; `expiresAt` (0 = never) is the point after which no
 * new attempt may start (activity schedule-to-close, workflow execution timeout).
 */
export function retryDecision(policy: RetryPolicy, attempt: number, failure: Failure | undefined, now: number, expiresAt: number): RetryDecision {
  const app = failure?.applicationFailureInfo;
  if (app && (app.nonRetryable || (policy.nonRetryableErrorTypes ?? []).includes(app.type ?? ''))) {
    return { retryState: RetryState.v('NON_RETRYABLE_FAILURE') };
  }
  const tt = failure?.timeoutFailureInfo?.timeoutType;
  if (tt !== undefined && tt !== TimeoutType.v('START_TO_CLOSE') && tt !== TimeoutType.v('HEARTBEAT')) {
    return { retryState: RetryState.v('TIMEOUT') };
  }
  if (failure?.canceledFailureInfo || failure?.terminatedFailureInfo) return { retryState: RetryState.v('NON_RETRYABLE_FAILURE') };
  const maximumAttempts = policy.maximumAttempts ?? 0;
  if (maximumAttempts > 0 && attempt >= maximumAttempts) return { retryState: RetryState.v('MAXIMUM_ATTEMPTS_REACHED') };
  let delayMs = durationMs(policy.initialInterval) * Math.pow(policy.backoffCoefficient ?? 0, attempt - 1);
  delayMs = Math.min(delayMs, durationMs(policy.maximumInterval));
  if (app?.nextRetryDelay && durationMs(app.nextRetryDelay) > 0) delayMs = durationMs(app.nextRetryDelay);
  if (expiresAt > 0 && now + delayMs >= expiresAt) return { retryState: RetryState.v('TIMEOUT') };
  return { delayMs, retryState: RetryState.v('IN_PROGRESS') };
}
