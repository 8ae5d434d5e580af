// One erasure request's process (docs/rules/personal-data.md#erasure), one workflow per request
// (`personal-data-erasure:<request id>`), started when the request is written:
//
//   the moment of erasure   -> the person's record (an account: each salon record linked to it) loses
//                              its identity; no message can reach them through it any more
//   what is still to come   -> their bookings still to come are cancelled through the normal
//                              cancellation (deposit rules included), series ended, vouchers cancelled
//   the notice              -> they are told once on each channel, from the address kept on the request
//   the rest                -> everything else that names them goes; the sales stay for the accounts
//   the account             -> an account's request: the account and its sign-ins go
//   the copies, the outcome -> the embedded stack's outbox copies go; the request is COMPLETED
//
// Every step is an activity that can run again without doing anything twice, so a worker that dies
// halfway leaves the rest to the next one. Ids only, in and out: never the person.
import { proxyActivities } from '@temporalio/workflow';
import type { ErasureActivities } from '../../activities/personal-data.types';
import { ErasureActivityErrors } from '../../activities/personal-data.types';
import { erasureContract, type ErasureWorkflowArgs } from '../../domain/personal-data/erasure-events.rules';
import { entityInbox, entitySignal, proxyReadActivities } from '../shared/entity-inbox';
import { proxyDeliveryActivities } from '../shared/message-channels';

export type { ErasureWorkflowArgs } from '../../domain/personal-data/erasure-events.rules';

export const personalDataErasureEventSignal = entitySignal(erasureContract);

const { readErasure } = proxyReadActivities<ErasureActivities>([ErasureActivityErrors.notFound]);
const { sendErasureNoticeSms, sendErasureNoticeEmail } = proxyDeliveryActivities<ErasureActivities>([ErasureActivityErrors.notFound]);
// database steps: retried until the database is back (a minute at most between attempts); a step lost
// with its worker is tried again by another once its 30 seconds are up
const step = proxyActivities<ErasureActivities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: [ErasureActivityErrors.notFound, ErasureActivityErrors.notConfigured],
  },
});

export async function personalDataErasureWorkflow({ erasureId }: ErasureWorkflowArgs): Promise<void> {
  const erasure = entityInbox(erasureContract, erasureId, { readCommitted: (minVersion) => readErasure({ erasureId, minVersion }) });
  const requested = await erasure.first();
  if (!requested || requested.status === 'COMPLETED') return;

  const { records } = await step.beginErasure({ erasureId });
  for (const record of records) await step.cancelErasedBookings({ erasureId: record });
  // the last messages they get; a channel that fails for good does not hold the erasure up
  await Promise.allSettled([sendErasureNoticeSms({ erasureId }), sendErasureNoticeEmail({ erasureId })]);
  for (const record of records) await step.eraseRemainingData({ erasureId: record });
  if (requested.subject === 'ACCOUNT') await step.removeErasedAccount({ erasureId });
  await step.forgetSentCopies({ erasureId });
  await step.completeErasure({ erasureId });
}
