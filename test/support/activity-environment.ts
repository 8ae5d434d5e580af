// Activities run one at a time in a mocked activity context (@temporalio/testing's
// MockActivityEnvironment): their Context (attempt, heartbeats, cancellation) without a worker or a
// server, for unit tests that fake an activity's other dependencies. The failures a test provokes are
// its assertions, so the environment's logger keeps quiet about them.
import { MockActivityEnvironment } from '@temporalio/testing';
import type { Info } from '@temporalio/activity';
import type { Logger } from '@temporalio/common';

const quiet: Logger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

export function activityEnvironment(info: Partial<Info> = {}): MockActivityEnvironment {
  return new MockActivityEnvironment(info, { logger: quiet });
}

/** What the activity threw (a test asserts a failure by what it is), or undefined when it succeeded. */
export async function failureOf(run: Promise<unknown>): Promise<unknown> {
  return run.then(
    () => undefined,
    (err: unknown) => err,
  );
}
