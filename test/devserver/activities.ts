// Activities used by the dev-server conformance tests. Module-level maps let a test see what
// happened across attempts (the activities run in the test process).
import { Context, CancelledFailure } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';

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
  if (attempt === 1) await Context.current().sleep(ms).catch(() => undefined);
  return attempt;
}

/** Always slow: used for schedule-to-close timeouts. */
export async function alwaysSlow(key: string, ms: number): Promise<void> {
  record(key);
  await Context.current().sleep(ms).catch(() => undefined);
}

/** Heartbeats once, then goes silent on attempt 1; later attempts return the details they got. */
export async function heartbeatThenHang(key: string): Promise<unknown> {
  const attempt = record(key);
  if (attempt === 1) {
    Context.current().heartbeat({ progress: 'first attempt got this far' });
    await Context.current().sleep(10_000).catch(() => undefined);
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

export async function sleepMs(ms: number): Promise<number> {
  await new Promise((r) => setTimeout(r, ms));
  return ms;
}
