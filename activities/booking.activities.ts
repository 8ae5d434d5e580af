// Side effects of the booking workflow. Each one re-reads committed state and is idempotent,
// because Temporal runs activities at least once; each message channel is its own activity.
import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/db-handle';
import type { Mailer } from '../domain/notifications/mailer';
import type { SmsSender } from '../domain/notifications/sms-sender';
import { renderBookingMessage, type BookingMessageFacts, type BookingMessageKind } from '../domain/notifications/booking-messages.rules';
import { cancelledDeposit, requestedDeposit } from '../domain/payments/deposit-view.service';
import { recordCompletedVisit } from '../domain/customer/tenant-customer.service';
import { wasRecordedAfterTheFact } from '../domain/booking/booking-past.rules';
import { awaitsDeposit, isMessageSuperseded } from '../domain/booking/booking-status.rules';
import { processCompletedBooking } from '../domain/loyalty/loyalty-completion.service';
import { recordVisitForNudge } from '../domain/rebooking/rebooking.service';
import { bookingById, bookingTimelineRow } from '../domain/booking/booking-timeline.repository';
import { messagePartiesOf } from '../domain/booking/booking-message.repository';
import { markUnpromisedFlagged } from '../domain/booking/booking-reminder.repository';
import { reminderLeadMs, unpromisedFlagLeadMs } from '../domain/booking/booking-reminder.rules';
import { depositDeadlineHoursOf } from '../domain/payments/deposit-timing.rules';
import { findTenant } from '../domain/tenant/tenant.repository';
import { salonLanguage } from '../domain/language/language.rules';
import { salonOwnerEmail } from '../domain/users/user.repository';
import { reminderAnswerLine, renderUnpromisedFlag } from '../domain/notifications/reminder-reply-messages.rules';
import { claimBookingNotification, markBookingNotificationSent } from '../domain/booking/booking-notification.repository';
import type { BookingRow } from '../domain/booking/booking.types';
import { nowOf, type Clock } from '../domain/time/clock';
import { activitySignaller } from './activity-signaller';
import { deliverOnce, type Channel, type Contact } from './message-delivery';
import { bookingRecipient } from './booking-recipient';
import { committedAt } from './read-committed';
import { bookingContract, type BookingSnapshot } from '../domain/booking/booking-events.rules';
import { BookingActivityErrors, type BookingActivities, type BookingMessageRequest, type DeliveryOutcome } from './booking.types';
import { calendarAttachment, manageUrlOf, type BookingLinkConfig, type LinkedSalon } from './booking-message-links';
import { waitingFor } from '../domain/booking/booking-waiting.rules';
import { cancellingRole } from '../domain/booking/booking-cancellation.repository';
import { isNotice, renderSalonNotice } from '../domain/notifications/salon-notice.rules';
import { insertNoticeOnce, noticeExists } from '../domain/notifications/salon-notice.repository';

export interface BookingActivityDeps {
  knex: Db;
  mailer: Mailer;
  sms: SmsSender;
  /** unset: the system clock */
  now?: Clock;
  /** manage links and calendar invitations in the messages; unset (some workflow tests): plain text only */
  links?: BookingLinkConfig;
}

/** The flag's notification row keeps the key it was first claimed with: another key would e-mail a flag again after a deploy. */
const FLAG_KEY = 'UNCONFIRMED';

export function createBookingActivities(deps: BookingActivityDeps): BookingActivities {
  const { knex, mailer, sms, links } = deps;

  async function messageFacts(booking: BookingRow, kind: BookingMessageKind): Promise<{ contact: Contact; facts: BookingMessageFacts; salon: LinkedSalon }> {
    const { salon, items, customer } = await messagePartiesOf(knex, booking);
    const recipient = bookingRecipient(booking, { customer, salon });
    return {
      contact: recipient.contact,
      facts: {
        salonName: salon.name,
        customerName: recipient.name,
        startTime: new Date(booking.startTime),
        endTime: new Date(booking.endTime),
        timezone: booking.metadata?.displaySnapshot?.timezone ?? salon.timezone,
        services: items.map((i) => i.serviceName),
        staffName: items[0]?.resourceName ?? null,
        manageUrl: manageUrlOf(links, salon, booking),
        // a received booking with its deposit still to pay waits for the payment, not for the salon
        awaitingDeposit: awaitsDeposit(booking),
        // the cancellation says what became of the deposit (docs/rules/messages.md#which-messages)
        deposit: kind === 'CANCELLED' ? await cancelledDeposit(knex, booking) : null,
        // the deposit's request and reminder: what to pay and by when (docs/rules/payments.md#deposits-at-any-distance)
        depositRequest: kind === 'DEPOSIT_REQUESTED' || kind === 'DEPOSIT_REMINDER' ? await requestedDeposit(knex, booking) : null,
        depositLater: kind === 'RECEIVED' || kind === 'CONFIRMED' ? await scheduledDeposit(booking) : null,
      },
      salon,
    };
  }

  /** A deposit still to be asked for (SCHEDULED): the booking's first message says when, and by when it must be paid. */
  async function scheduledDeposit(booking: BookingRow) {
    const later = await requestedDeposit(knex, booking);
    return later?.state === 'SCHEDULED' ? later : null;
  }

  /** One message on one channel, at most once (activities/message-delivery.ts); an e-mail carries the calendar invitation. */
  async function deliver(channel: Channel, { bookingId, kind, dedupeKey }: BookingMessageRequest): Promise<DeliveryOutcome> {
    const booking = await bookingById(knex, bookingId);
    if (!booking) throw ApplicationFailure.nonRetryable(`booking ${bookingId} not found`, BookingActivityErrors.notFound);
    // a reminder or move notice for a time the booking has left is never sent: a later message tells the new time
    if (isMessageSuperseded(dedupeKey, booking)) return 'SUPERSEDED';
    const key = { bookingId, channel, dedupeKey };
    return deliverOnce(
      channel,
      { mailer, sms },
      {
        label: `booking ${bookingId} (${dedupeKey})`,
        failureType: BookingActivityErrors.deliveryFailed,
        meta: { bookingId, kind },
        claim: () => claimBookingNotification(knex, key, { tenantId: booking.tenantId, kind }),
        async compose() {
          const { contact, facts, salon } = await messageFacts(booking, kind);
          const rendered = renderBookingMessage(kind, facts, booking.language);
          // the reminder asks for an answer: by reply on SMS, on the manage page by e-mail (docs/rules/reminders.md#the-reminder)
          const message =
            kind === 'REMINDER' ? { ...rendered, text: `${rendered.text}${reminderAnswerLine(channel, !!facts.manageUrl, booking.language)}` } : rendered;
          if (channel !== 'EMAIL' || !contact.email) return { contact, message };
          const invitation = calendarAttachment(links, kind, {
            salon,
            booking,
            timezone: facts.timezone,
            services: facts.services,
            staffName: facts.staffName ?? null,
            manageUrl: facts.manageUrl ?? null,
            to: contact.email,
            language: booking.language,
          });
          return { contact, message, attachments: invitation ? [invitation] : [] };
        },
        markSent: (id, sent) => markBookingNotificationSent(knex, id, sent),
      },
    );
  }

  /** The salon's flag of a booking nobody promised to come to (docs/rules/reminders.md#bookings-without-a-promise), once. */
  async function flagUnpromised({ bookingId }: { bookingId: string }): Promise<'FLAGGED' | 'NOT_FLAGGED' | 'NO_CONTACT'> {
    const booking = await bookingById(knex, bookingId);
    if (!booking) throw ApplicationFailure.nonRetryable(`booking ${bookingId} not found`, BookingActivityErrors.notFound);
    // flagged once: the compare-and-set, or the flag of an earlier attempt whose e-mail failed
    const flagged = (await markUnpromisedFlagged(knex, bookingId)) || booking.unpromisedFlaggedAt !== null;
    if (!flagged) return 'NOT_FLAGGED';
    const outcome = await deliverOnce(
      'EMAIL',
      { mailer, sms },
      {
        label: `booking ${bookingId} (${FLAG_KEY})`,
        failureType: BookingActivityErrors.deliveryFailed,
        meta: { bookingId, kind: FLAG_KEY },
        claim: () => claimBookingNotification(knex, { bookingId, channel: 'EMAIL', dedupeKey: FLAG_KEY }, { tenantId: booking.tenantId, kind: FLAG_KEY }),
        async compose() {
          const { facts, contact } = await messageFacts(booking, 'REMINDER');
          const email = await salonOwnerEmail(knex, booking.tenantId);
          const settings = (await findTenant(knex, booking.tenantId))?.settings;
          return {
            contact: { phone: null, email, smsCountry: null },
            message: renderUnpromisedFlag({ ...facts, customerPhone: contact.phone }, salonLanguage(settings)),
          };
        },
        markSent: (id, sent) => markBookingNotificationSent(knex, id, sent),
      },
    );
    return outcome === 'NO_CONTACT' ? 'NO_CONTACT' : 'FLAGGED';
  }

  return {
    async readBooking({ bookingId, minVersion }): Promise<BookingSnapshot> {
      const row = await bookingTimelineRow(knex, bookingId);
      const settings = row?.salonSettings;
      const snapshot = row && {
        bookingId,
        tenantId: row.tenantId,
        status: row.status,
        version: row.version,
        startTime: new Date(row.startTime).toISOString(),
        recordedAfterTheFact: wasRecordedAfterTheFact(row.metadata),
        // the salon's reminder and flag times (docs/rules/reminders.md), and the customer's promise to come
        reminderLeadMs: reminderLeadMs(settings ?? {}),
        unpromisedFlagLeadMs: unpromisedFlagLeadMs(settings ?? {}),
        promisedAt: row.promisedAt ? new Date(row.promisedAt).toISOString() : null,
        // a deposit owed later, and the salon's deadline for it (docs/rules/payments.md#deposits-at-any-distance)
        depositStatus: row.depositStatus,
        depositDeadlineHours: depositDeadlineHoursOf(settings ?? {}),
      };
      return committedAt(bookingContract, bookingId, minVersion, snapshot);
    },

    flagUnpromisedBooking: flagUnpromised,
    // the name runs started before the rename scheduled (workflows/booking/booking.workflow.ts PROMISE_WORDS)
    flagUnconfirmedBooking: flagUnpromised,

    async tellSalon({ bookingId, kind }) {
      const booking = await bookingById(knex, bookingId);
      if (!booking) throw ApplicationFailure.nonRetryable(`booking ${bookingId} not found`, BookingActivityErrors.notFound);
      const facts = {
        status: booking.status,
        waitingFor: waitingFor(booking),
        cancelledByRole: kind === 'CUSTOMER_CANCELLED' ? await cancellingRole(knex, bookingId) : null,
      };
      // listed once; a retry after the booking changed still mails the notice an earlier attempt listed
      if (isNotice(kind, facts)) await insertNoticeOnce(knex, { tenantId: booking.tenantId, bookingId, kind });
      else if (!(await noticeExists(knex, bookingId, kind))) return 'NOT_A_NOTICE';
      const settings = (await findTenant(knex, booking.tenantId))?.settings;
      if (settings?.notifyOwnerByEmail === false) return 'LISTED';
      const dedupeKey = `SALON:${kind}`;
      const outcome = await deliverOnce(
        'EMAIL',
        { mailer, sms },
        {
          label: `booking ${bookingId} (${dedupeKey})`,
          failureType: BookingActivityErrors.deliveryFailed,
          meta: { bookingId, kind: dedupeKey },
          claim: () => claimBookingNotification(knex, { bookingId, channel: 'EMAIL', dedupeKey }, { tenantId: booking.tenantId, kind: 'SALON_NOTICE' }),
          async compose() {
            const { facts: message, contact } = await messageFacts(booking, 'REMINDER');
            const email = await salonOwnerEmail(knex, booking.tenantId);
            const deskUrl = `${links?.publicBaseUrl ?? ''}/desk`;
            return {
              contact: { phone: null, email, smsCountry: null },
              message: renderSalonNotice(kind, { ...message, customerPhone: contact.phone, deskUrl }, salonLanguage(settings)),
            };
          },
          markSent: (id, sent) => markBookingNotificationSent(knex, id, sent),
        },
      );
      return outcome === 'SENT' || outcome === 'ALREADY_SENT' ? 'TOLD' : 'LISTED';
    },

    sendBookingSms: (request) => deliver('SMS', request),
    sendBookingEmail: (request) => deliver('EMAIL', request),

    async recordCompletedVisit({ bookingId }) {
      return knex.transaction(async (trx) => {
        const booking = await bookingById(trx, bookingId);
        if (!booking) throw ApplicationFailure.nonRetryable(`booking ${bookingId} not found`, BookingActivityErrors.notFound);
        if (booking.status !== 'COMPLETED') return 'NOT_COMPLETED' as const;
        if (!booking.customerId) return 'NO_CUSTOMER' as const;
        const { recorded } = await recordCompletedVisit(trx, {
          tenantId: booking.tenantId,
          customerId: booking.customerId,
          bookingId,
          amount: Math.max(0, booking.totalAmount - booking.discountAmount),
          visitedAt: new Date(booking.startTime),
        });
        // stamps, points and the voucher redeem, once per booking (processedForLoyalty claim)
        await processCompletedBooking(trx, activitySignaller, bookingId, nowOf(deps));
        // the customer's rebooking nudge follows this visit now (docs/rules/series.md#rebooking-nudges)
        await recordVisitForNudge(trx, activitySignaller, {
          tenantId: booking.tenantId,
          customerId: booking.customerId,
          bookingId,
          visitedAt: new Date(booking.startTime),
          now: nowOf(deps),
        });
        return recorded ? 'RECORDED' : 'ALREADY_RECORDED';
      });
    },
  };
}
