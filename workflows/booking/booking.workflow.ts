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
import { proxyActivities } from '@temporalio/workflow';
import type { BookingActivities, BookingMessageRequest } from '../../activities/booking.types';
import { BookingActivityErrors } from '../../activities/booking.types';
import { bookingContract, type BookingEvent, type BookingSnapshot, type BookingWorkflowArgs } from '../../domain/booking/booking-events.rules';
import { isRemindable, isTerminalStatus, reminderDueAt } from '../../domain/booking/booking-status.rules';
import type { BookingMessageKind } from '../../domain/notifications/booking-messages.rules';
import { entityInbox, entitySignal, readCommittedOptions, type CommittedChange } from '../shared/entity-inbox';
import { deliveryOptions, messageChannels } from '../shared/message-channels';

export type { BookingWorkflowArgs } from '../../domain/booking/booking-events.rules';

export const bookingEventSignal = entitySignal(bookingContract);

const { readBooking } = proxyActivities<BookingActivities>(readCommittedOptions([BookingActivityErrors.notFound]));

// Each channel is its own activity with its own retries (0, 30 s, 2 min, 10 min, then
// hourly; 10 attempts): a failing e-mail never sends the SMS again.
const { sendBookingSms, sendBookingEmail, recordCompletedVisit } = proxyActivities<BookingActivities>(deliveryOptions([BookingActivityErrors.notFound]));

export async function bookingWorkflow({ bookingId }: BookingWorkflowArgs): Promise<void> {
  let reminder: { at: number; startTime: string } | null = null;
  const channels = messageChannels<BookingMessageRequest>('booking', { SMS: sendBookingSms, EMAIL: sendBookingEmail });

  const booking = entityInbox(bookingContract, bookingId, {
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
  await channels.drained();

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

  /** Tells the customer on every channel (workflows/shared/message-channels.ts). */
  function notify(kind: BookingMessageKind, dedupeKey: string = kind): void {
    if (booking.current?.recordedAfterTheFact) return;
    channels.send({ bookingId, kind, dedupeKey });
  }
}

function isSettled(booking: BookingSnapshot): boolean {
  return isTerminalStatus(booking.status);
}
