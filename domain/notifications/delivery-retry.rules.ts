// The delivery schedule (docs/rules/messages.md#delivery-schedule) of every message a workflow sends (SMS, e-mail): a first
// attempt at once, then 30 s, 2 min and 10 min later, then hourly; after the 10th attempt it gives up
// (and the workflow logs an alert). Pure: imported by workflows (the retry policy) and by activities
// (the exact delay before the next attempt, which Temporal's exponential backoff cannot express).

export const DELIVERY_MAX_ATTEMPTS = 10;

const DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000];
const HOURLY_MS = 60 * 60_000;

/** Delay before the next attempt, after attempt number `failedAttempt` (1-based) failed. */
export function deliveryRetryDelayMs(failedAttempt: number): number {
  return DELAYS_MS[failedAttempt - 1] ?? HOURLY_MS;
}

/**
 * Temporal retry policy for a delivery activity. The interval here is the fallback; the activity sets
 * each attempt's exact delay from deliveryRetryDelayMs (ApplicationFailure `nextRetryDelay`).
 */
export const DELIVERY_RETRY_POLICY = {
  initialInterval: '30 seconds',
  backoffCoefficient: 4,
  maximumInterval: '1 hour',
  maximumAttempts: DELIVERY_MAX_ATTEMPTS,
} as const;
