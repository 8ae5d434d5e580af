// A waitlist entry's timeline (docs/rules/waitlist.md#workflows), one workflow per entry
// (`waitlist-entry:<id>`), started when it is made:
//
//   joined  -> the customer is told, with the link to see or leave the entry
//   its link asked again (a join with its phone) -> its own contacts get the link again
//   waiting -> booked (an offer accepted) or left: done
//   at the end of its last date, still waiting -> EXPIRED by its own durable timer
import { patched, proxyActivities, sleep } from '@temporalio/workflow';
import type { WaitlistActivities, WaitlistJoinedMessageRequest } from '../../activities/waitlist.types';
import { WaitlistActivityErrors } from '../../activities/waitlist.types';
import { waitlistEntryContract, type WaitlistEntrySnapshot, type WaitlistEntryWorkflowArgs } from '../../domain/waitlist/waitlist-events.rules';
import { entityInbox, entitySignal, proxyReadActivities } from '../shared/entity-inbox';
import { waitlistStepOptions } from './step-options';
import { messageChannels, proxyDeliveryActivities } from '../shared/message-channels';

export type { WaitlistEntryWorkflowArgs } from '../../domain/waitlist/waitlist-events.rules';

export const waitlistEntryEventSignal = entitySignal(waitlistEntryContract);

const { readWaitlistEntry } = proxyReadActivities<WaitlistActivities>([WaitlistActivityErrors.notFound]);
const { expireWaitlistEntry } = proxyActivities<WaitlistActivities>(waitlistStepOptions);
const { sendWaitlistJoinedSms, sendWaitlistJoinedEmail } = proxyDeliveryActivities<WaitlistActivities>([WaitlistActivityErrors.notFound]);

/** Runs from this version on tell the customer they joined (patched()). */
const JOINED_MESSAGE = 'waitlist-entry-joined-message';
/** Runs from this version on send the link again when a join with the entry's phone asks (patched()). */
const LINK_AGAIN = 'waitlist-entry-link-again';

export async function waitlistEntryWorkflow({ entryId }: WaitlistEntryWorkflowArgs): Promise<void> {
  const entry = entityInbox(waitlistEntryContract, entryId, { readCommitted: (minVersion) => readWaitlistEntry({ entryId, minVersion }) });
  if (!(await entry.first())) return;
  const channels = messageChannels<WaitlistJoinedMessageRequest>('waitlist entry', { SMS: sendWaitlistJoinedSms, EMAIL: sendWaitlistJoinedEmail });
  if (entry.current!.status === 'WAITING' && patched(JOINED_MESSAGE)) channels.send({ entryId });

  let told = 0;
  while (entry.current!.status === 'WAITING') {
    const linkAgain = patched(LINK_AGAIN);
    const asked = (e: WaitlistEntrySnapshot) => linkAgain && (e.linkResends ?? 0) > told;
    if (
      await entry.waitUntil((e) => isClosed(e) || asked(e), {
        deadline: (e) => e.endsAt,
        summary: (e) => `end of the waitlist entry at ${new Date(e.endsAt).toISOString()}, or its link asked again`,
      })
    ) {
      if (isClosed(entry.current!)) break;
      told = entry.current!.linkResends ?? told;
      channels.send({ entryId, again: told });
      continue;
    }
    const outcome = await expireWaitlistEntry({ entryId, at: Date.now() });
    if (outcome !== 'NOT_DUE') break;
    await sleep('1 minute', { summary: 'expiring the waitlist entry again (not due yet)' });
  }
  await channels.drained();
}

function isClosed(e: WaitlistEntrySnapshot): boolean {
  return e.status !== 'WAITING';
}
