// The read activity of every entity workflow (docs/rules/consistency.md#the-entity-inbox): the
// workflow was signalled before the change's transaction committed, so a missing row or an older
// version means "not committed yet". That is retried (the workflow's readCommittedOptions), and when
// the version never appears the workflow drops the event.
import { ApplicationFailure } from '@temporalio/activity';
import type { AnyEntityContract, SnapshotOf } from '../domain/workflow-signals/entity-contract.rules';

/** `snapshot` once it has reached `minVersion`; otherwise the contract's retryable "not visible yet". */
export function committedAt<C extends AnyEntityContract>(contract: C, id: string, minVersion: number, snapshot: SnapshotOf<C> | undefined): SnapshotOf<C> {
  if (!snapshot || snapshot.version < minVersion) {
    throw ApplicationFailure.retryable(`${contract.entity} ${id} not yet at version ${minVersion}`, contract.versionNotVisible);
  }
  return snapshot;
}
