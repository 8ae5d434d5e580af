// Reads of committed state and message deliveries run as local activities: in the worker that runs
// the workflow, inside the workflow task, instead of a round trip through Temporal's activity queue
// (docs/rules/consistency.md#local-activities). A booking's read, SMS and e-mail then complete in one
// workflow task instead of four, which the worker and the Temporal server spend most of their CPU on.
// They are the same idempotent activities with the same retry policies; a worker that dies mid-task
// has the task, and so the activities, run again.
//
// Runs started before this version keep the activities they have in their history (patched()).
import {
  patched,
  proxyActivities,
  proxyLocalActivities,
  type ActivityInterfaceFor,
  type ActivityOptions,
  type LocalActivityOptions,
} from '@temporalio/workflow';

/** Runs from this version on read and deliver through local activities. */
export const LOCAL_READS_AND_DELIVERIES = 'local-reads-and-deliveries';

/** Options that mean the same for an activity and a local activity. */
export type LocalOrRemoteOptions = Pick<ActivityOptions, 'startToCloseTimeout' | 'retry'> & Pick<LocalActivityOptions, 'localRetryThreshold'>;

type Proxied = Record<string, ((...args: unknown[]) => Promise<unknown>) & { executeWithOptions(options: object, args: unknown[]): Promise<unknown> }>;

/**
 * The activities of `A`, run locally from this version on and through the activity queue before it.
 * `executeWithOptions({ summary }, args)` gives one call a summary, the line the history and the Web
 * UI show for it (docs/rules/operations.md#what-the-web-ui-shows).
 */
export function proxyWorkerLocalActivities<A extends object>(options: LocalOrRemoteOptions): ActivityInterfaceFor<A> {
  const { localRetryThreshold, ...shared } = options;
  const remote = proxyActivities<A>(shared) as unknown as Proxied;
  const local = proxyLocalActivities<A>(options) as unknown as Proxied;
  const proxyOf = () => (patched(LOCAL_READS_AND_DELIVERIES) ? local : remote);
  return new Proxy({} as ActivityInterfaceFor<A>, {
    get(_target, name) {
      if (typeof name !== 'string') return undefined;
      const call = (...args: unknown[]) => proxyOf()[name](...args);
      call.executeWithOptions = (overrides: Pick<ActivityOptions, 'summary'>, args: unknown[]) => proxyOf()[name].executeWithOptions(overrides, args);
      return call;
    },
  });
}
