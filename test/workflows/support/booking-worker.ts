// A booking workflow test's worker: its own task queue, the real activities over the stack's
// database, and `signal`, which signals-with-start a booking's workflow on that queue.
import type { WorkflowHandleWithSignaledRunId } from '@temporalio/client';
import { stack } from '../../support/stack';
import { unique } from '../../support/factories';
import { createActivities } from '../../../activities';
import type { Mailer } from '../../../domain/notifications/mailer';
import type { SmsSender } from '../../../domain/notifications/sms-sender';
import { bookingWorkflow, bookingEventSignal } from '../../../workflows/booking/booking.workflow';
import { bookingContract, type BookingEvent } from '../../../domain/booking/booking-events.rules';
import { platformWorker, type TimeSkipping } from './time-skipping';

export type BookingSignal = (bookingId: string, tenantId: string, event: BookingEvent) => Promise<WorkflowHandleWithSignaledRunId<typeof bookingWorkflow>>;

/** Runs `scenario` with a worker of its own until it settles. */
export async function withBookingWorker(
  t: TimeSkipping,
  outboxes: { mailer: Mailer; sms: SmsSender },
  scenario: (signal: BookingSignal) => Promise<void>,
): Promise<void> {
  const { platform } = await stack();
  const taskQueue = unique('booking-wf');
  const activities = createActivities({ knex: platform.knex, mailer: outboxes.mailer, sms: outboxes.sms });
  const worker = await platformWorker(t, { taskQueue, activities });
  const signal: BookingSignal = (bookingId, tenantId, event) =>
    t.env.client.workflow.signalWithStart(bookingWorkflow, {
      workflowId: bookingContract.workflowId(bookingId),
      taskQueue,
      args: [{ bookingId, tenantId }],
      signal: bookingEventSignal,
      signalArgs: [event],
    });
  await worker.runUntil(scenario(signal));
}
