// The booking's timeline (docs/rules/booking.md#statuses), one workflow per booking (`booking:<id>`):
//
//   created   -> the customer is told it was received (PENDING) or confirmed
//   confirmed -> the customer is told, when the salon confirms later
//   the salon's reminder time before the start (24 h unless set) -> reminded (a reschedule moves the
//     reminder and tells the customer); the salon's flag time before the start, still not promised
//     by the customer -> the salon is told once (docs/rules/reminders.md)
//   a deposit owed later (docs/rules/payments.md#deposits-at-any-distance): asked for 6 days before the
//     start (SMS and e-mail with the payment link), reminded once halfway to the salon's deadline,
//     and at the deadline, still not paid, the booking is cancelled (DEPOSIT_NOT_PAID)
//   completed -> the visit is counted; cancelled -> the customer is told; no-show -> nothing to send
//   waiting for the salon's approval, or cancelled by the customer -> the salon's owner is told
//     (docs/rules/front-desk.md#the-salon-is-told)
//   until the last message is out, a forced change of a settled booking is followed too
//
// The api tells the workflow about every change with a small signal `{type, entityVersion}` before its
// transaction commits; the entity inbox (workflows/shared/entity-inbox.ts) turns those signals into
// committed state, so this file only reads the booking and waits for the state it cares about.
import { patched, proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { BookingActivities, BookingMessageRequest } from '../../activities/booking.types';
import type { PaymentActivities } from '../../activities/payments.types';
import { BookingActivityErrors } from '../../activities/booking.types';
import { bookingContract, promiseOf, type BookingEvent, type BookingSnapshot, type BookingWorkflowArgs } from '../../domain/booking/booking-events.rules';
import { isRemindable, isTerminalStatus, reminderDueAt, REMINDER_LEAD_MS } from '../../domain/booking/booking-status.rules';
import { unpromisedFlagDueAt } from '../../domain/booking/booking-reminder.rules';
import { depositMoments } from '../../domain/payments/deposit-timing.rules';
import { DEPOSIT_REQUESTED, DEPOSIT_SCHEDULED } from '../../domain/payments/payment.rules';
import type { BookingMessageKind } from '../../domain/notifications/booking-messages.rules';
import type { SalonNoticeKind } from '../../domain/notifications/salon-notice.rules';
import { entityInbox, entitySignal, proxyReadActivities, type CommittedChange } from '../shared/entity-inbox';
import { deliveryOptions, messageChannels, proxyDeliveryActivities, proxyPacedActivities } from '../shared/message-channels';
import { BookingStartTime, BookingStatus, TenantId } from '../shared/search-attributes';

export type { BookingWorkflowArgs } from '../../domain/booking/booking-events.rules';

export const bookingEventSignal = entitySignal(bookingContract);

/** Runs from this version on follow their booking until the last message is out (patched()). */
const FOLLOW_CHANGES_UNTIL_THE_END = 'booking-follows-changes-until-the-end';
/** Runs from this version on tell the salon about a booking nobody promised to come to at its flag time (patched(); the id as first recorded). */
const FLAG_UNPROMISED = 'booking-flags-unconfirmed';
/** Runs from this version on flag through the activity of the new name (patched()); runs before it keep the one they scheduled. */
const PROMISE_WORDS = 'booking-promise-words';
/** Runs from this version on keep their salon, status and start time in search attributes (patched()). */
const SEARCH_ATTRIBUTES = 'booking-search-attributes';
/** Runs from this version on tell the salon's owner about bookings waiting for approval and customers' cancellations (patched()). */
const TELL_THE_SALON = 'booking-tells-the-salon';
/** Runs from this version on ask for a deposit owed later, remind once and cancel at its deadline (patched()). */
const DEPOSIT_LATER = 'booking-asks-for-deposit-later';
/** Runs from this version on send the reminder's SMS through the paced SMS queue (patched(); docs/rules/reminders.md#the-send-rate). */
const PACED_REMINDERS = 'booking-paced-reminder-sms';

const { readBooking } = proxyReadActivities<BookingActivities>([BookingActivityErrors.notFound]);

// Each channel is its own activity with its own retries (0, 30 s, 2 min, 10 min, then
// hourly; 10 attempts): a failing e-mail never sends the SMS again.
const { sendBookingSms, sendBookingEmail, tellSalon } = proxyDeliveryActivities<BookingActivities>([BookingActivityErrors.notFound]);
const { recordCompletedVisit, flagUnpromisedBooking, flagUnconfirmedBooking } = proxyActivities<BookingActivities>(
  deliveryOptions([BookingActivityErrors.notFound]),
);
const { requestDeposit, cancelUnpaidDeposit } = proxyActivities<PaymentActivities>(deliveryOptions([BookingActivityErrors.notFound]));

type DepositStep = { at: number; step: 'REQUEST' | 'REMIND' | 'DEADLINE' };

export async function bookingWorkflow({ bookingId }: BookingWorkflowArgs): Promise<void> {
  let reminder: { at: number; startTime: string } | null = null;
  /** when a booking nobody promised to come to is flagged to the salon (runs with the FLAG_UNPROMISED patch) */
  let flag: number | null = null;
  let flagsUnpromised: boolean | undefined;
  let keepsSearchAttributes: boolean | undefined;
  /** what the search attributes say, so an unchanged state upserts nothing */
  let tagged: { status: string; startTime: string } | undefined;
  /** runs with the TELL_THE_SALON patch; read once per run, at the first notice it could send */
  let tellsTheSalon: boolean | undefined;
  /** the next step of a deposit owed later (runs with the DEPOSIT_LATER patch) */
  let deposit: DepositStep | null = null;
  let depositReminded = false;
  let asksForDeposit: boolean | undefined;
  /** runs with the PACED_REMINDERS patch; read once per run, at its first reminder */
  let pacesReminders: boolean | undefined;
  const { sendBookingSms: sendPacedSms } = proxyPacedActivities<BookingActivities>([BookingActivityErrors.notFound]);
  const channels = messageChannels<BookingMessageRequest>('booking', { SMS: sendBookingSms, EMAIL: sendBookingEmail, PACED_SMS: sendPacedSms });
  // the salon's owner is written to by e-mail only; the notice goes on beside the timeline like the customer's messages
  const salon = messageChannels<{ bookingId: string; kind: SalonNoticeKind }>('salon notice', { EMAIL: tellSalon });
  const idle = () => channels.idle() && salon.idle();

  const booking = entityInbox(bookingContract, bookingId, {
    readCommitted: (minVersion) => readBooking({ bookingId, minVersion }),
    onChange: async (change) => {
      tagForOperators(change.current);
      await keepCustomerInformed(change);
    },
  });

  // Created. When the change that started this workflow never committed, nothing happened.
  const created = await booking.first();
  if (!created) return;
  planReminder(created);
  if (created.status === 'PENDING') notify('RECEIVED');
  if (created.status === 'CONFIRMED') notify('CONFIRMED');
  if (created.status === 'PENDING') tell('APPROVAL_NEEDED');

  for (;;) {
    // Reminded the salon's reminder time before the start, unless it is settled first. A reschedule
    // moves the reminder (and a booking moved to a later day after its reminder is reminded again of
    // the new start). A booking the customer has not promised to come to by the salon's flag time is flagged.
    // A move signalled in the same task as the reminder's timer is applied first (the SDK delivers
    // signals before timers), and a reminder whose delivery is still retrying when the booking moves
    // is dropped by the delivery itself (docs/rules/booking.md#moving-a-booking).
    while (!(await booking.waitUntil(isSettled, { deadline: nextDue, summary: nextDueSummary }))) {
      if (isDue(reminderDue())) sendReminder();
      if (isDue(flag)) {
        flag = null;
        await (patched(PROMISE_WORDS) ? flagUnpromisedBooking : flagUnconfirmedBooking)({ bookingId });
      }
      const depositStep = dueDepositStep();
      if (depositStep) await takeDepositStep(depositStep);
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
    while (await booking.nextChange(idle)) {
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
    if (previous.depositStatus !== current.depositStatus) planDeposit(current);
    if (previous.startTime !== current.startTime) {
      planReminder(current);
      if (isRemindable(current.status)) notify('RESCHEDULED', `RESCHEDULED:${current.startTime}`);
    } else if (flag !== null || promiseOf(previous).promisedAt !== promiseOf(current).promisedAt) {
      // the customer promised to come (no flag), or the flag time is read again
      planFlag(current);
    }
    if (!isRemindable(current.status)) {
      reminder = null;
      flag = null;
      deposit = null;
    }
  }

  function reminderDue(): number | null {
    return reminder?.at ?? null;
  }

  /** The next moment something is due: the reminder, the flag or the deposit's step, whichever comes first. */
  function nextDue(): number | null {
    const due = [reminder?.at, flag, deposit?.at].filter((at): at is number => typeof at === 'number');
    return due.length ? Math.min(...due) : null;
  }

  /** What the timer of nextDue() waits for, in the history (docs/rules/operations.md#what-the-web-ui-shows). */
  function nextDueSummary(): string {
    const at = nextDue();
    if (deposit && deposit.at === at) return `the deposit's ${deposit.step.toLowerCase()} for the start ${booking.current!.startTime}`;
    if (reminder && (flag === null || reminder.at <= flag)) return `reminder of the start ${reminder.startTime}`;
    return `flag to the salon if the customer has not promised to come to the start ${booking.current!.startTime}`;
  }

  /**
   * The booking's salon, status and start time as search attributes, so the Web UI and
   * `temporal workflow list --query` find a salon's open bookings (docs/rules/operations.md#what-the-web-ui-shows).
   */
  function tagForOperators(current: BookingSnapshot): void {
    keepsSearchAttributes ??= patched(SEARCH_ATTRIBUTES);
    if (!keepsSearchAttributes) return;
    if (tagged?.status === current.status && tagged.startTime === current.startTime) return;
    upsertSearchAttributes([
      ...(tagged ? [] : [{ key: TenantId, value: current.tenantId }]),
      { key: BookingStatus, value: current.status },
      { key: BookingStartTime, value: new Date(current.startTime) },
    ]);
    tagged = { status: current.status, startTime: current.startTime };
  }

  function sendReminder(): void {
    const { startTime } = reminder!;
    reminder = null;
    // the reminders of a morning fall due together: their SMS go out at the gateway's pace
    pacesReminders ??= patched(PACED_REMINDERS);
    notify('REMINDER', `REMINDER:${startTime}`, { paced: pacesReminders });
  }

  function planReminder(current: BookingSnapshot): void {
    // snapshots recorded before the setting existed carry no lead: the 24 hours of then
    const at = reminderDueAt(current, Date.now(), current.reminderLeadMs ?? REMINDER_LEAD_MS);
    reminder = at === null ? null : { at, startTime: current.startTime };
    planFlag(current);
    planDeposit(current);
  }

  /** A deposit owed later: its request, then its one reminder, then its deadline; nothing once it is reserved or paid. */
  function planDeposit(current: BookingSnapshot): void {
    if (current.depositStatus !== DEPOSIT_SCHEDULED && current.depositStatus !== DEPOSIT_REQUESTED) {
      deposit = null;
      return;
    }
    asksForDeposit ??= patched(DEPOSIT_LATER);
    if (!asksForDeposit || !isRemindable(current.status)) return;
    const { requestAt, reminderAt, deadline } = depositMoments(new Date(current.startTime), current.depositDeadlineHours);
    if (current.depositStatus === DEPOSIT_SCHEDULED) deposit = { at: requestAt.getTime(), step: 'REQUEST' };
    else if (!depositReminded && Date.now() < reminderAt.getTime()) deposit = { at: reminderAt.getTime(), step: 'REMIND' };
    else deposit = { at: deadline.getTime(), step: 'DEADLINE' };
  }

  function dueDepositStep(): DepositStep | null {
    return deposit && isDue(deposit.at) ? deposit : null;
  }

  async function takeDepositStep({ step }: DepositStep): Promise<void> {
    deposit = null;
    if (step === 'REQUEST') {
      // the REQUESTED change comes back through the inbox and plans the reminder
      if ((await requestDeposit({ bookingId })) === 'REQUESTED') notify('DEPOSIT_REQUESTED');
    } else if (step === 'REMIND') {
      depositReminded = true;
      notify('DEPOSIT_REMINDER');
      planDeposit(booking.current!);
    } else {
      // the cancellation comes back through the inbox and settles the booking
      await cancelUnpaidDeposit({ bookingId });
    }
  }

  function planFlag(current: BookingSnapshot): void {
    flagsUnpromised ??= patched(FLAG_UNPROMISED);
    if (!flagsUnpromised) return;
    const { promisedAt, flagLeadMs } = promiseOf(current);
    flag = unpromisedFlagDueAt({ status: current.status, startTime: current.startTime, promisedAt }, Date.now(), flagLeadMs);
  }

  async function settle(settled: BookingSnapshot): Promise<void> {
    if (settled.status === 'COMPLETED') await recordCompletedVisit({ bookingId });
    if (settled.status === 'CANCELLED') notify('CANCELLED');
    if (settled.status === 'CANCELLED') tell('CUSTOMER_CANCELLED');
  }

  /** Tells the salon's owner; the activity decides from the committed booking whether it is that notice (it waits for the salon, the customer cancelled it). */
  function tell(kind: SalonNoticeKind): void {
    if (booking.current?.recordedAfterTheFact) return;
    tellsTheSalon ??= patched(TELL_THE_SALON);
    if (tellsTheSalon) salon.send({ bookingId, kind });
  }

  /** Tells the customer on every channel (workflows/shared/message-channels.ts). */
  function notify(kind: BookingMessageKind, dedupeKey: string = kind, options?: { paced?: boolean }): void {
    if (booking.current?.recordedAfterTheFact) return;
    channels.send({ bookingId, kind, dedupeKey }, options);
  }
}

function isDue(at: number | null): boolean {
  return at !== null && at <= Date.now();
}

function isSettled(booking: BookingSnapshot): boolean {
  return isTerminalStatus(booking.status);
}
