// An offer round's timeline (docs/rules/waitlist.md#offers), one workflow per round
// (`waitlist-offer:<id>`), started by the change that freed the time:
//
//   step 1, 2, ...: offer the time (FIRST_IN_LINE: the first waiting entry a slot suits; BROADCAST:
//                   every one) and hold it; tell each customer by SMS and e-mail
//   accepted        -> the round is FILLED (the accept booked it and released the hold): done
//   declined        -> the next step at once
//   the hold ran out -> the step's offers expire, the hold is released, the next step
//   nobody left     -> the round ends (EXHAUSTED)
// BROADCAST offers everyone in its first step, so its next step finds nobody left.
import { proxyActivities } from '@temporalio/workflow';
import type { WaitlistActivities, WaitlistOfferMessageRequest } from '../../activities/waitlist.types';
import { WaitlistActivityErrors } from '../../activities/waitlist.types';
import { waitlistOfferContract, type WaitlistOfferWorkflowArgs } from '../../domain/waitlist/waitlist-events.rules';
import { entityInbox, entitySignal, proxyReadActivities } from '../shared/entity-inbox';
import { messageChannels, proxyDeliveryActivities } from '../shared/message-channels';
import { waitlistStepOptions } from './step-options';

export type { WaitlistOfferWorkflowArgs } from '../../domain/waitlist/waitlist-events.rules';

export const waitlistOfferEventSignal = entitySignal(waitlistOfferContract);

const { readWaitlistRound } = proxyReadActivities<WaitlistActivities>([WaitlistActivityErrors.notFound]);

const { makeWaitlistOffers, expireWaitlistStep, closeWaitlistRound } = proxyActivities<WaitlistActivities>(waitlistStepOptions);

const { sendWaitlistOfferSms, sendWaitlistOfferEmail } = proxyDeliveryActivities<WaitlistActivities>([WaitlistActivityErrors.notFound]);

export async function waitlistOfferWorkflow({ roundId }: WaitlistOfferWorkflowArgs): Promise<void> {
  const channels = messageChannels<WaitlistOfferMessageRequest>('waitlist offer', { SMS: sendWaitlistOfferSms, EMAIL: sendWaitlistOfferEmail });
  const round = entityInbox(waitlistOfferContract, roundId, { readCommitted: (minVersion) => readWaitlistRound({ roundId, minVersion }) });

  // When the change that freed the time never committed, there is nothing to offer.
  if (!(await round.first())) return;

  for (let step = 1; ; step++) {
    const made = await makeWaitlistOffers({ roundId, step, at: Date.now() });
    if (!made) break; // nobody (left) whom the time suits: the round is EXHAUSTED
    for (const offerId of made.offerIds) channels.send({ offerId });
    const decided = await round.waitUntil((r) => r.version >= made.version && (r.status !== 'OPEN' || r.openOffers === 0), {
      deadline: () => made.expiresAt,
      summary: () => `end of step ${step}'s hold at ${new Date(made.expiresAt).toISOString()}`,
    });
    if (decided && round.current!.status === 'FILLED') break;
    if (decided && round.current!.status !== 'OPEN') {
      await closeWaitlistRound({ roundId });
      break;
    }
    if (!decided && (await expireWaitlistStep({ roundId, step })) !== 'EXPIRED') break;
  }
  await channels.drained();
}
