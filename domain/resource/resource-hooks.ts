/**
 * The port through which the resource area reaches the areas above it in the order of domain areas
 * (CONTRIBUTING.md#the-order-of-domain-areas): a schedule, an override or a time-off change that may
 * give a staff member working time tells the waitlist, in the change's transaction. Resource imports
 * no waitlist code; the composition root fills this port (composition/domain-hooks.ts).
 */
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import type { WorkingTimeGrew } from '../tenant/tenant-hooks';

export interface ResourceHooks {
  workingTimeGrew: WorkingTimeGrew;
}

/** What a service that may grow working time needs to tell the waitlist: the signaller, the time and the port. */
export interface WorkingTimeNotice {
  signaller: EntitySignaller;
  now: Date;
  resourceHooks: ResourceHooks;
}
