// Asserting failures by what they are, never by "it threw something": a domain rejection by its
// status and code, a rollback by the very error the test threw.
import { expect } from 'chai';
import { AppError } from '../../domain/errors';

/** `promise` rejects with an AppError of this status and code; returns it for further checks. */
export async function rejectsWith(promise: Promise<unknown>, expected: { status: number; code: string }): Promise<AppError> {
  const error = await promise.then(
    () => expect.fail(`expected ${expected.status} ${expected.code}, but it succeeded`),
    (err: unknown) => err,
  );
  expect(error, String(error)).to.be.instanceOf(AppError);
  expect({ status: (error as AppError).status, code: (error as AppError).code }).to.deep.equal(expected);
  return error as AppError;
}

/** `promise` rejects with exactly `error` (the failure the test itself threw to roll a transaction back). */
export async function rejectsWithItself(promise: Promise<unknown>, error: Error): Promise<void> {
  const thrown = await promise.then(
    () => expect.fail(`expected the transaction to fail with "${error.message}", but it committed`),
    (err: unknown) => err,
  );
  expect(thrown, String(thrown)).to.equal(error);
}
