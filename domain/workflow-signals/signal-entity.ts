// The one place a failed workflow signal becomes 503 WORKFLOW_UNAVAILABLE. Called inside the
// change's transaction, so the throw rolls the change back (docs/rules/consistency.md#signal-before-commit). Signallers
// throw whatever their transport throws; the domain owns the error code.
import { errors } from '../errors';
import type { EntityEvent, EntitySignaller, EntityWorkflowRef } from './entity-signaller';

/** `entity` names the workflow in the message, e.g. 'booking'. */
export async function signalEntity(
  signaller: EntitySignaller,
  entity: string,
  ref: EntityWorkflowRef,
  signalName: string,
  event: EntityEvent,
): Promise<void> {
  try {
    await signaller.signal(ref, signalName, event);
  } catch {
    throw errors.unavailable('WORKFLOW_UNAVAILABLE', `The ${entity} workflow service is unreachable; nothing was changed, please try again`);
  }
}
