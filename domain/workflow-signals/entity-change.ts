// The change primitive every workflow entity's writes go through (docs/rules/consistency.md#the-change-primitive),
// and the one place a failed workflow signal becomes 503 WORKFLOW_UNAVAILABLE. It runs inside the
// change's transaction, so that throw rolls the whole change back: no committed change exists that
// its workflow was not told about.
import { errors } from '../errors';
import type { EntitySignaller } from './entity-signaller';
import type { AnyEntityContract, EntityRef, EventTypeOf } from './entity-contract.rules';

/**
 * Tells the entity's workflow (signal-with-start) that the change producing `entityVersion`
 * is about to commit. Call it inside the change's transaction, before it commits.
 */
export async function signalChange<C extends AnyEntityContract>(
  signaller: EntitySignaller,
  contract: C,
  entity: EntityRef,
  type: EventTypeOf<C>,
  entityVersion: number,
): Promise<void> {
  try {
    await signaller.signal(
      { workflowType: contract.workflowType, workflowId: contract.workflowId(entity.id), startArgs: contract.startArgs(entity) },
      contract.signal,
      { type, entityVersion },
    );
  } catch {
    throw errors.unavailable('WORKFLOW_UNAVAILABLE', `The ${contract.entity} workflow service is unreachable; nothing was changed, please try again`);
  }
}

/** The entity row as a change wrote it. */
export interface Written extends EntityRef {
  version: number;
}

export interface EntityChange<C extends AnyEntityContract, R extends Written> {
  /**
   * Writes the row with version + 1 (under its row lock, or as a compare-and-set) and returns it as
   * written; undefined when the compare-and-set found the row changed (nothing is recorded then).
   */
  write(): Promise<R | undefined>;
  /** The change's audit or event row (who, what, from which state to which); the entity's own. */
  record?(written: R): Promise<unknown>;
  /** The event the workflow is signalled with; null: a change its workflow made itself (an expiry its timer ran). */
  event: EventTypeOf<C> | null;
}

/**
 * One change of a workflow entity, in the caller's transaction and in this order: the row with
 * version + 1, its audit/event row, then the signal to the entity's workflow before commit.
 */
export async function changeEntity<C extends AnyEntityContract, R extends Written>(
  signaller: EntitySignaller | null,
  contract: C,
  change: EntityChange<C, R> & { write(): Promise<R> },
): Promise<R>;
export async function changeEntity<C extends AnyEntityContract, R extends Written>(
  signaller: EntitySignaller | null,
  contract: C,
  change: EntityChange<C, R>,
): Promise<R | undefined>;
export async function changeEntity<C extends AnyEntityContract, R extends Written>(
  signaller: EntitySignaller | null,
  contract: C,
  change: EntityChange<C, R>,
): Promise<R | undefined> {
  if (change.event !== null && !signaller) throw new Error(`a ${contract.entity} change that signals ${change.event} needs a signaller`);
  const written = await change.write();
  if (!written) return undefined;
  await change.record?.(written);
  if (change.event !== null) await signalChange(signaller!, contract, written, change.event, written.version);
  return written;
}
