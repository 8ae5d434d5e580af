// The booking's timeline (docs/rules/booking.md#statuses), one workflow per booking (`booking:<id>`):
//
//   created   -> the customer is told it was received (PENDING) or confirmed
//   confirmed -> the customer is told, when the salon confirms later
//   24 h before the start -> reminded (a reschedule moves the reminder and tells the customer)
//   completed -> the visit is counted; cancelled -> the customer is told; no-show -> nothing to send
//
// The api tells the workflow about every change with a small signal `{type, entityVersion}` before its
// transaction commits; the entity inbox (workflows/shared/entity-inbox.ts) turns those signals into
// committed state, so this file only reads the booking and waits for the state it cares about.
import { defineSignal, log, proxyActivities } from '@temporalio/workflow';
import type { BookingActivities, BookingMessageRequest, BookingSnapshot } from '../../activities/booking.types';
import { BookingActivityErrors } from '../../activities/booking.types';
import { BOOKING_EVENT_SIGNAL, type BookingEvent, type BookingWorkflowArgs } from '../../domain/booking/booking-events.rules';
import { isRemindable, isTerminalStatus, reminderDueAt } from '../../domain/booking/booking-status.rules';
import { DELIVERY_RETRY_POLICY } from '../../domain/notifications/delivery-retry.rules';
import type { BookingMessageKind } from '../../domain/notifications/booking-messages.rules';
import { entityInbox, type CommittedChange } from '../shared/entity-inbox';

export type { BookingWorkflowArgs } from '../../domain/booking/booking-events.rules';

export const bookingEventSignal = defineSignal<[BookingEvent]>(BOOKING_EVENT_SIGNAL);

// The signal is sent before the api's transaction commits: wait briefly for the version to appear.
const { readBooking } = proxyActivities<BookingActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 8, nonRetryableErrorTypes: [BookingActivityErrors.notFound] },
});

// Each channel is its own activity with its own retries (0, 30 s, 2 min, 10 min, then
// hourly; 10 attempts): a failing e-mail never sends the SMS again.
const { sendBookingSms, sendBookingEmail, recordCompletedVisit } = proxyActivities<BookingActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { ...DELIVERY_RETRY_POLICY, nonRetryableErrorTypes: [BookingActivityErrors.notFound] },
});

export async function bookingWorkflow({ bookingId }: BookingWorkflowArgs): Promise<void> {
  let reminder: { at: number; startTime: string } | null = null;
  let sms: Promise<void> = Promise.resolve();
  let email: Promise<void> = Promise.resolve();

  const booking = entityInbox<BookingEvent, BookingSnapshot>({
    name: `booking ${bookingId}`,
    signal: bookingEventSignal,
    readCommitted: (minVersion) => readBooking({ bookingId, minVersion }),
    onChange: keepCustomerInformed,
  });

  // Created. When the change that started this workflow never committed, nothing happened.
  const created = await booking.first();
  if (!created) return;
  planReminder(created);
  if (created.status === 'PENDING') notify('RECEIVED');
  if (created.status === 'CONFIRMED') notify('CONFIRMED');

  // Reminded 24 h before the start, unless it is settled first. A reschedule moves the reminder
  // (and a booking moved to a later day after its reminder is reminded again of the new start).
  while (!(await booking.waitUntil(isSettled, { deadline: reminderDue }))) {
    sendReminder();
  }

  // Completed, cancelled or marked as no-show. A settled booking may still be forced to another
  // final status (docs/rules/booking.md#statuses) while we act: that one is settled too before the timeline ends.
  do {
    await settle(booking.current!);
  } while ((await booking.catchUp()) && isSettled(booking.current!));
  // The timeline ends once the last messages are delivered (or given up).
  await Promise.all([sms, email]);

  /** Between creation and the end: the salon's confirmation, and a move of the start time. */
  async function keepCustomerInformed({ previous, current }: CommittedChange<BookingEvent, BookingSnapshot>): Promise<void> {
    if (!previous) return;
    if (previous.status === 'PENDING' && current.status === 'CONFIRMED') notify('CONFIRMED');
    if (previous.startTime !== current.startTime) {
      planReminder(current);
      if (isRemindable(current.status)) notify('RESCHEDULED', `RESCHEDULED:${current.startTime}`);
    }
    if (!isRemindable(current.status)) reminder = null;
  }

  function reminderDue(): number | null {
    return reminder?.at ?? null;
  }

  function sendReminder(): void {
    const { startTime } = reminder!;
    reminder = null;
    notify('REMINDER', `REMINDER:${startTime}`);
  }

  function planReminder(current: BookingSnapshot): void {
    const at = reminderDueAt(current, Date.now());
    reminder = at === null ? null : { at, startTime: current.startTime };
  }

  async function settle(settled: BookingSnapshot): Promise<void> {
    if (settled.status === 'COMPLETED') await recordCompletedVisit({ bookingId });
    if (settled.status === 'CANCELLED') notify('CANCELLED');
  }

  /**
   * Queues the message on every channel. Each channel delivers its messages in order, and retries
   * (or gives up) on its own, without holding up the other channel or the timeline: an e-mail
   * gateway that is down for hours neither resends nor delays the SMS of a cancellation.
   */
  function notify(kind: BookingMessageKind, dedupeKey: string = kind): void {
    if (booking.current?.recordedAfterTheFact) return;
    const message: BookingMessageRequest = { bookingId, kind, dedupeKey };
    sms = sms.then(() => sendBookingSms(message)).then(delivered, (err: unknown) => giveUp('SMS', message, err));
    email = email.then(() => sendBookingEmail(message)).then(delivered, (err: unknown) => giveUp('EMAIL', message, err));
  }
}

function delivered(): void {}

function isSettled(booking: BookingSnapshot): boolean {
  return isTerminalStatus(booking.status);
}

/** After the last delivery attempt the message is dead: an alert for operations, not a failed booking. */
function giveUp(channel: string, message: BookingMessageRequest, err: unknown): void {
  log.error('ALERT: booking message given up after its last delivery attempt', { channel, ...message, error: String(err) });
}
