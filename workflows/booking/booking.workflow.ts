// The booking's timeline (docs/rules/booking.md#statuses), one workflow per booking (`booking:<id>`):
//
//   created   -> the customer is told it was received (PENDING) or confirmed
//   confirmed -> the customer is told, when the salon confirms later
//   24 h before the start -> reminded (a reschedule moves the reminder and tells the customer)
//   completed -> the visit is counted; cancelled -> the customer is told; no-show -> nothing to send
//   until the last message is out, a forced change of a settled booking is followed too
//
// The api tells the workflow about every change with a small signal `{type, entityVersion}` before its
// transaction commits; the entity inbox (workflows/shared/entity-inbox.ts) turns those signals into
// committed state, so this file only reads the booking and waits for the state it cares about.
import { patched, proxyActivities } from '@temporalio/workflow';
import type { BookingActivities, BookingMessageRequest } from '../../activities/booking.types';
import { BookingActivityErrors } from '../../activities/booking.types';
import { bookingContract, type BookingEvent, type BookingSnapshot, type BookingWorkflowArgs } from '../../domain/booking/booking-events.rules';
import { isRemindable, isTerminalStatus, reminderDueAt } from '../../domain/booking/booking-status.rules';
import type { BookingMessageKind } from '../../domain/notifications/booking-messages.rules';
import { entityInbox, entitySignal, proxyReadActivities, type CommittedChange } from '../shared/entity-inbox';
import { deliveryOptions, messageChannels, proxyDeliveryActivities } from '../shared/message-channels';

export type { BookingWorkflowArgs } from '../../domain/booking/booking-events.rules';

export const bookingEventSignal = entitySignal(bookingContract);

/** Runs from this version on follow their booking until the last message is out (patched()). */
const FOLLOW_CHANGES_UNTIL_THE_END = 'booking-follows-changes-until-the-end';

const { readBooking } = proxyReadActivities<BookingActivities>([BookingActivityErrors.notFound]);

// Each channel is its own activity with its own retries (0, 30 s, 2 min, 10 min, then
// hourly; 10 attempts): a failing e-mail never sends the SMS again.
const { sendBookingSms, sendBookingEmail } = proxyDeliveryActivities<BookingActivities>([BookingActivityErrors.notFound]);
const { recordCompletedVisit } = proxyActivities<BookingActivities>(deliveryOptions([BookingActivityErrors.notFound]));

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

  for (;;) {
    // Reminded 24 h before the start, unless it is settled first. A reschedule moves the reminder
    // (and a booking moved to a later day after its reminder is reminded again of the new start).
    // A move signalled in the same task as the reminder's timer is applied first (the SDK delivers
    // signals before timers), and a reminder whose delivery is still retrying when the booking moves
    // is dropped by the delivery itself (docs/rules/booking.md#moving-a-booking).
    while (!(await booking.waitUntil(isSettled, { deadline: reminderDue }))) {
      sendReminder();
    }

    // Completed, cancelled or marked as no-show.
    let settledAs = booking.current!;
    await settle(settledAs);
    if (!patched(FOLLOW_CHANGES_UNTIL_THE_END)) {
      // runs started before this version: a forced final status is settled only if it already waits
      while ((await booking.catchUp()) && isSettled(booking.current!)) await settle(booking.current!);
      await channels.drained();
      return;
    }

    // The timeline ends once the last messages are delivered (or given up), which can take hours of
    // retries. Until then every committed change is followed: a settled booking forced to another
    // final status (docs/rules/booking.md#statuses) is settled again, and one forced back to
    // an active status goes back to its timeline.
    let reopened = false;
    while (await booking.nextChange(() => channels.idle())) {
      const now = booking.current!;
      if (!isSettled(now)) {
        reopened = true;
        break;
      }
      if (now.status !== settledAs.status) {
        settledAs = now;
        await settle(now);
      }
    }
    if (!reopened) return;
    planReminder(booking.current!);
  }

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
