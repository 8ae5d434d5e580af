// A customer's "time for your next visit" at one salon (docs/rules/series.md#rebooking-nudges), one
// workflow per customer and salon (`rebooking-nudge:<id>`), started (or started again) by a completed visit:
//
//   waiting for the visit's interval -> a newer visit completes: start over with it
//   due -> decided once: sent (the customer agreed, has no booking to come, can be reached), or not
//   nothing left to wait for -> the run ends; the next completed visit starts a new one
import { proxyActivities } from '@temporalio/workflow';
import type { NudgeMessageRequest, RebookingNudgeActivities } from '../../activities/series.types';
import { SeriesActivityErrors } from '../../activities/series.types';
import { rebookingNudgeContract, type RebookingNudgeWorkflowArgs } from '../../domain/rebooking/rebooking-events.rules';
import { entityInbox, entitySignal, proxyReadActivities } from '../shared/entity-inbox';
import { messageChannels, proxyDeliveryActivities } from '../shared/message-channels';

export type { RebookingNudgeWorkflowArgs } from '../../domain/rebooking/rebooking-events.rules';

export const rebookingNudgeEventSignal = entitySignal(rebookingNudgeContract);

const { readRebookingNudge } = proxyReadActivities<RebookingNudgeActivities>([SeriesActivityErrors.nudgeNotFound]);
const { sendRebookingNudgeSms, sendRebookingNudgeEmail } = proxyDeliveryActivities<RebookingNudgeActivities>([SeriesActivityErrors.nudgeNotFound]);
const { decideRebookingNudge } = proxyActivities<RebookingNudgeActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', nonRetryableErrorTypes: [SeriesActivityErrors.nudgeNotFound] },
});

export async function rebookingNudgeWorkflow({ nudgeId }: RebookingNudgeWorkflowArgs): Promise<void> {
  const channels = messageChannels<NudgeMessageRequest>('rebooking nudge', { SMS: sendRebookingNudgeSms, EMAIL: sendRebookingNudgeEmail });
  const nudge = entityInbox(rebookingNudgeContract, nudgeId, { readCommitted: (minVersion) => readRebookingNudge({ nudgeId, minVersion }) });
  if (!(await nudge.first())) return;

  for (;;) {
    await nudge.catchUp();
    const visit = nudge.current!;
    if (visit.status !== 'WAITING' || visit.dueAt === null) break;
    // a newer visit (version + 1) starts the wait over
    if (
      await nudge.waitUntil((n) => n.visitBookingId !== visit.visitBookingId, {
        deadline: () => visit.dueAt,
        summary: () => `rebooking nudge due ${new Date(visit.dueAt!).toISOString()}`,
      })
    )
      continue;
    const decision = await decideRebookingNudge({ nudgeId, visitBookingId: visit.visitBookingId, at: Date.now() });
    if (decision === 'SEND') channels.send({ nudgeId, visitBookingId: visit.visitBookingId });
    if (decision !== 'NOT_DUE') {
      // the decision is stored with the row's next version, which this run need not read: follow only newer visits
      if (await nudge.nextChange(() => channels.idle())) continue;
      break;
    }
  }
  await channels.drained();
}
