// A standing appointment's timeline (docs/rules/series.md#its-workflow), one workflow per series
// (`series:<id>`), started when the series is made:
//
//   each occurrence enters the salon's booking window -> it is booked (same staff member, same
//     services), or moved to the nearest free time within the tolerance (the customer is told), or
//     skipped (customer and salon are told)
//   a change (interval, staff member, an occurrence cancelled, a wider window) -> the plan is read again
//   the salon or the platform cancelled the booking it was made from -> ended; what it booked still
//     to come is cancelled
//   ended, or nothing left to book -> done
//
// The series' rows are the truth (the entity inbox reads them); the activity books each occurrence
// once under its unique key, so a retried step or a replayed history never books twice.
import { continueAsNew, log, patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { SeriesActivities, SeriesMessageRequest } from '../../activities/series.types';
import { SeriesActivityErrors } from '../../activities/series.types';
import { seriesContract, type SeriesWorkflowArgs } from '../../domain/series/series-events.rules';
import { entityInbox, entitySignal, proxyReadActivities } from '../shared/entity-inbox';
import { messageChannels, proxyDeliveryActivities } from '../shared/message-channels';

export type { SeriesWorkflowArgs } from '../../domain/series/series-events.rules';

export const seriesEventSignal = entitySignal(seriesContract);

const { readSeries } = proxyReadActivities<SeriesActivities>([SeriesActivityErrors.notFound]);
const { sendSeriesSms, sendSeriesEmail, sendSeriesSalonEmail } = proxyDeliveryActivities<SeriesActivities>([SeriesActivityErrors.notFound]);
// booking is a state change with its own transaction per occurrence: retried until the database answers;
// a step books a few occurrences at most, so a worker that dies mid-step is noticed within the timeout
const { bookDueSeriesOccurrences, cancelSeriesBookings } = proxyActivities<SeriesActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', nonRetryableErrorTypes: [SeriesActivityErrors.notFound] },
});

/** Steps after which the workflow continues as new, keeping its history short (a weekly series over years). */
const STEPS_PER_RUN = 100;

export async function seriesWorkflow(args: SeriesWorkflowArgs): Promise<void> {
  const { seriesId } = args;
  const channels = messageChannels<SeriesMessageRequest>('series', { SMS: sendSeriesSms, EMAIL: sendSeriesEmail });
  let salonMessages: Promise<unknown> = Promise.resolve();
  let announcedThrough = args.announcedThrough ?? 0;

  const series = entityInbox(seriesContract, seriesId, { readCommitted: (minVersion) => readSeries({ seriesId, minVersion }) });
  if (!(await series.first())) return;

  for (let steps = 0; ; steps++) {
    await series.catchUp();
    if (series.current!.status !== 'ACTIVE') break;
    const step = await bookDueSeriesOccurrences({ seriesId, at: Date.now(), after: announcedThrough });
    for (const occurrence of step.handled) {
      announce({ seriesId, index: occurrence.index, kind: occurrence.status === 'MOVED' ? 'MOVED' : 'SKIPPED' }, occurrence.status, occurrence.reason);
      announcedThrough = Math.max(announcedThrough, occurrence.index);
    }
    if (step.done) break;
    if (steps + 1 >= STEPS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await Promise.all([channels.drained(), salonMessages]);
      await continueAsNew<typeof seriesWorkflow>({ ...args, announcedThrough });
    }
    // until the next occurrence enters the window, or the series changes
    const seen = series.current!.version;
    await series.waitUntil((s) => s.version > seen, {
      deadline: () => step.nextDueAt,
      summary: () => `the next occurrence entering the booking window at ${new Date(step.nextDueAt!).toISOString()}`,
    });
  }
  // the series stood on its first booking, which the salon no longer honours (docs/rules/series.md#changing-cancelling-ending)
  if (series.current!.endReason === 'FIRST_BOOKING_CANCELLED' && patched('series-first-booking-cancelled')) await cancelSeriesBookings({ seriesId });
  await Promise.all([channels.drained(), salonMessages]);

  /** MOVED: the customer is told the new time; SKIPPED (not one that had passed): the customer and the salon. */
  function announce(message: SeriesMessageRequest, status: string, reason: string | null): void {
    if (status === 'MOVED') channels.send(message);
    if (status !== 'SKIPPED' || reason === 'PASSED') return;
    channels.send(message);
    salonMessages = salonMessages
      .then(() => sendSeriesSalonEmail(message))
      .catch((err: unknown) => log.error('ALERT: series message to the salon given up after its last delivery attempt', { ...message, error: String(err) }));
  }
}
