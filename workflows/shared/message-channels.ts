// The customer's two message channels of an entity workflow (booking, voucher). Each channel
// delivers its messages in order and retries (or gives up) on its own, without holding up the other
// channel or the timeline: an e-mail gateway that is down for hours neither resends nor delays the
// SMS. A message given up after its last attempt is an alert for operations, not a failed entity.
import { log, proxyActivities, workflowInfo, type ActivityInterfaceFor, type ActivityOptions } from '@temporalio/workflow';
import { DELIVERY_RETRY_POLICY } from '../../domain/notifications/delivery-retry.rules';
import { proxyWorkerLocalActivities, type LocalOrRemoteOptions } from './worker-local-activities';
import { smsTaskQueue } from './sms-queue';

/** Options of the delivery activities: the delivery schedule (docs/rules/messages.md#delivery-schedule). */
export function deliveryOptions(nonRetryableErrorTypes: string[]): Pick<ActivityOptions, 'startToCloseTimeout' | 'retry'> {
  return { startToCloseTimeout: '30 seconds', retry: { ...DELIVERY_RETRY_POLICY, nonRetryableErrorTypes } };
}

/** The delivery activities, run in the worker beside the workflow (workflows/shared/worker-local-activities.ts). */
export function proxyDeliveryActivities<A extends object>(nonRetryableErrorTypes: string[]): ActivityInterfaceFor<A> {
  // as a local activity, a wait of 30 s or more before the next attempt is a durable timer, not a sleep in the worker
  const options: LocalOrRemoteOptions = { ...deliveryOptions(nonRetryableErrorTypes), localRetryThreshold: '10 seconds' };
  return proxyWorkerLocalActivities<A>(options);
}

/**
 * The delivery activities through the SMS queue beside the workflow's task queue, which the server
 * paces (workflows/shared/sms-queue.ts). Call it in the workflow (it reads the workflow's task queue).
 */
export function proxyPacedActivities<A extends object>(nonRetryableErrorTypes: string[]): ActivityInterfaceFor<A> {
  return proxyActivities<A>({ ...deliveryOptions(nonRetryableErrorTypes), taskQueue: smsTaskQueue(workflowInfo().taskQueue) });
}

export interface MessageChannels<M> {
  /** Queues the message on every channel; `paced`: its SMS goes through the paced SMS queue. */
  send(message: M, options?: { paced?: boolean }): void;
  /** Resolves once every queued message was delivered or given up. */
  drained(): Promise<void>;
  /** True while no queued message waits for delivery (for `condition()`). */
  idle(): boolean;
}

/** A delivery activity: called with the message, and with a summary for the history. */
type Delivery<M> = ((message: M) => Promise<unknown>) & { executeWithOptions(options: { summary: string }, args: [M]): Promise<unknown> };

/**
 * What the history says of one delivery (docs/rules/operations.md#what-the-web-ui-shows): the
 * entity, which message (its dedupe key, e.g. `REMINDER:<start>`, or its kind) and the channel, e.g.
 * `booking REMINDER:2026-05-04T08:00:00.000Z by SMS`. Ids and kinds only, never what the message says.
 */
export function deliverySummary(entity: string, message: object, channel: 'SMS' | 'EMAIL'): string {
  const { dedupeKey, kind } = message as { dedupeKey?: unknown; kind?: unknown };
  const which = typeof dedupeKey === 'string' ? dedupeKey : typeof kind === 'string' ? kind : 'message';
  return `${entity} ${which} by ${channel === 'SMS' ? 'SMS' : 'e-mail'}`;
}

/** `entity` names the messages in the alert and in the history, e.g. `booking`; a channel left out is not used (the salon's notices go by e-mail only). */
export function messageChannels<M extends object>(
  entity: string,
  deliver: { SMS?: Delivery<M>; EMAIL?: Delivery<M>; PACED_SMS?: Delivery<M> },
): MessageChannels<M> {
  const queues = { SMS: Promise.resolve(), EMAIL: Promise.resolve() };
  let undelivered = 0;
  return {
    send(message, options) {
      for (const channel of ['SMS', 'EMAIL'] as const) {
        const delivery = channel === 'SMS' && options?.paced && deliver.PACED_SMS ? deliver.PACED_SMS : deliver[channel];
        if (!delivery) continue;
        undelivered += 1;
        queues[channel] = queues[channel]
          .then(() => delivery.executeWithOptions({ summary: deliverySummary(entity, message, channel) }, [message]))
          .then(
            () => undefined,
            (err: unknown) => log.error(`ALERT: ${entity} message given up after its last delivery attempt`, { channel, ...message, error: String(err) }),
          )
          .finally(() => {
            undelivered -= 1;
          });
      }
    },
    idle() {
      return undelivered === 0;
    },
    async drained() {
      await Promise.all([queues.SMS, queues.EMAIL]);
    },
  };
}
