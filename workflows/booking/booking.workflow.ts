// One workflow per booking (`booking:<id>`): it hears about every committed change through the
// `bookingEvent` signal, re-reads the committed booking, and does what the salon promised the
// customer: a confirmation, a reminder 24 hours before the start, a cancellation notice, and the
// visit metrics once the booking is completed.
import { condition, defineSignal, log, proxyActivities, setHandler, ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { BookingActivities, BookingSnapshot } from '../../activities/booking.types';
import { BookingActivityErrors } from '../../activities/booking.types';
import { BOOKING_EVENT_SIGNAL, type BookingEvent, type BookingWorkflowArgs } from '../../domain/booking/booking-events.rules';

export const bookingEventSignal = defineSignal<[BookingEvent]>(BOOKING_EVENT_SIGNAL);

export const REMINDER_LEAD_MS = 24 * 60 * 60 * 1000;
const FINAL_STATUSES = ['COMPLETED', 'CANCELLED', 'NO_SHOW'];
const REMINDABLE_STATUSES = ['PENDING', 'CONFIRMED'];

// Side effects retry per the spec's delivery schedule (0, 30 s, 2 min, 10 min, then hourly; 10 attempts).
const { sendBookingMessage, recordCompletedVisit } = proxyActivities<BookingActivities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '30 seconds',
    backoffCoefficient: 4,
    maximumInterval: '1 hour',
    maximumAttempts: 10,
    nonRetryableErrorTypes: [BookingActivityErrors.notFound],
  },
});

// The signal is sent before the api's transaction commits: wait briefly for the version to appear.
const { readBooking } = proxyActivities<BookingActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 8, nonRetryableErrorTypes: [BookingActivityErrors.notFound] },
});

export async function bookingWorkflow({ bookingId }: BookingWorkflowArgs): Promise<void> {
  const inbox: BookingEvent[] = [];
  setHandler(bookingEventSignal, (event) => {
    inbox.push(event);
  });

  let booking: BookingSnapshot | undefined;
  let reminderAt: number | undefined;

  for (;;) {
    const waitMs = reminderAt === undefined ? undefined : Math.max(0, reminderAt - Date.now());
    const eventArrived = waitMs === undefined ? (await condition(() => inbox.length > 0), true) : await condition(() => inbox.length > 0, waitMs);

    if (!eventArrived && booking) {
      await sendBookingMessage({ bookingId, kind: 'REMINDER', dedupeKey: `REMINDER:${booking.startTime}` });
      reminderAt = undefined;
      continue;
    }

    const event = inbox.shift()!;
    const committed = await committedState(bookingId, event);
    if (!committed) {
      if (!booking && inbox.length === 0) return; // the change that started us never committed
      continue;
    }
    booking = committed;
    await actOn(event, booking);

    reminderAt = reminderTime(booking);
    if (FINAL_STATUSES.includes(booking.status) && inbox.length === 0) return;
  }
}

/** The booking as committed at or after the event's version; undefined when it never appears. */
async function committedState(bookingId: string, event: BookingEvent): Promise<BookingSnapshot | undefined> {
  try {
    return await readBooking({ bookingId, minVersion: event.entityVersion });
  } catch (err) {
    if (err instanceof ActivityFailure) {
      const reason = err.cause instanceof ApplicationFailure ? err.cause.type : err.cause?.message;
      log.warn('dropping booking event whose change never became visible', { bookingId, event, reason });
      return undefined;
    }
    throw err;
  }
}

async function actOn(event: BookingEvent, booking: BookingSnapshot): Promise<void> {
  const { bookingId } = booking;
  switch (event.type) {
    case 'BookingCreated':
      if (booking.status === 'PENDING') await sendBookingMessage({ bookingId, kind: 'RECEIVED', dedupeKey: 'RECEIVED' });
      if (booking.status === 'CONFIRMED') await sendBookingMessage({ bookingId, kind: 'CONFIRMED', dedupeKey: 'CONFIRMED' });
      return;
    case 'BookingConfirmed':
      await sendBookingMessage({ bookingId, kind: 'CONFIRMED', dedupeKey: 'CONFIRMED' });
      return;
    case 'BookingRescheduled':
      if (REMINDABLE_STATUSES.includes(booking.status)) {
        await sendBookingMessage({ bookingId, kind: 'RESCHEDULED', dedupeKey: `RESCHEDULED:${booking.startTime}` });
      }
      return;
    case 'BookingCancelled':
    case 'BookingCancelledBySalon':
      await sendBookingMessage({ bookingId, kind: 'CANCELLED', dedupeKey: 'CANCELLED' });
      return;
    case 'BookingCompleted':
      await recordCompletedVisit({ bookingId });
      return;
    default:
      return;
  }
}

/** 24 hours before the start, for a booking still ahead of us and not yet reminded of. */
function reminderTime(booking: BookingSnapshot): number | undefined {
  if (!REMINDABLE_STATUSES.includes(booking.status)) return undefined;
  const at = Date.parse(booking.startTime) - REMINDER_LEAD_MS;
  return at > Date.now() ? at : undefined;
}
