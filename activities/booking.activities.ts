// Side effects of the booking workflow. Each one re-reads committed state and is idempotent,
// because Temporal runs activities at least once; each message channel is its own activity.
import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/db-handle';
import type { Mailer } from '../domain/notifications/mailer';
import type { SmsSender } from '../domain/notifications/sms-sender';
import { renderBookingMessage, type BookingMessageFacts, type BookingMessageKind } from '../domain/notifications/booking-messages.rules';
import { cancelledDeposit } from '../domain/payments/deposit-view.service';
import { recordCompletedVisit } from '../domain/customer/tenant-customer.service';
import { wasRecordedAfterTheFact } from '../domain/booking/booking-past.rules';
import { isMessageSuperseded } from '../domain/booking/booking-status.rules';
import { processCompletedBooking } from '../domain/loyalty/loyalty-completion.service';
import { recordVisitForNudge } from '../domain/rebooking/rebooking.service';
import { bookingById, bookingTimelineRow, messagePartiesOf } from '../domain/booking/booking.repository';
import { markUnconfirmedFlagged } from '../domain/booking/booking-confirmation.repository';
import { reminderLeadMs, unconfirmedFlagLeadMs } from '../domain/booking/booking-confirmation.rules';
import { findTenant } from '../domain/tenant/tenant.repository';
import { salonLanguage } from '../domain/language/language.rules';
import { salonOwnerEmail } from '../domain/users/user.repository';
import { reminderAnswerLine, renderUnconfirmedFlag } from '../domain/notifications/reminder-reply-messages.rules';
import { claimBookingNotification, markBookingNotificationSent } from '../domain/booking/booking-notification.repository';
import type { BookingRow } from '../domain/booking/booking.types';
import { nowOf, type Clock } from '../domain/time/clock';
import { activitySignaller } from './activity-signaller';
import { deliverOnce, type Channel, type Contact } from './message-delivery';
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

export function createBookingActivities(deps: BookingActivityDeps): BookingActivities {
  const { knex, mailer, sms, links } = deps;

  async function messageFacts(booking: BookingRow, kind: BookingMessageKind): Promise<{ contact: Contact; facts: BookingMessageFacts; salon: LinkedSalon }> {
    const { salon, items, customer } = await messagePartiesOf(knex, booking);
    const language = booking.language;
    return {
      contact: {
        phone: booking.contactPhone ?? customer?.phone ?? null,
        email: booking.contactEmail ?? customer?.email ?? null,
      },
      facts: {
        salonName: salon.name,
        customerName: booking.contactName ?? customer?.name ?? (language === 'en' ? 'customer' : 'kunde'),
        startTime: new Date(booking.startTime),
        endTime: new Date(booking.endTime),
        timezone: booking.metadata?.displaySnapshot?.timezone ?? salon.timezone,
        services: items.map((i) => i.serviceName),
        staffName: items[0]?.resourceName ?? null,
        manageUrl: manageUrlOf(links, salon, booking),
        // a received booking with its deposit still to pay waits for the payment, not for the salon
        awaitingDeposit: booking.paymentMode === 'ONLINE' && (booking.depositStatus === 'PENDING' || booking.depositStatus === 'RETRY_PENDING'),
        // the cancellation says what became of the deposit (docs/rules/messages.md#which-messages)
        deposit: kind === 'CANCELLED' ? await cancelledDeposit(knex, booking) : null,
      },
      salon,
    };
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
        markSent: (id) => markBookingNotificationSent(knex, id),
      },
    );
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
        // the salon's reminder and flag times (docs/rules/reminders.md), and the customer's confirmation
        reminderLeadMs: reminderLeadMs(settings ?? {}),
        unconfirmedFlagLeadMs: unconfirmedFlagLeadMs(settings ?? {}),
        confirmedAt: row.confirmedAt ? new Date(row.confirmedAt).toISOString() : null,
      };
      return committedAt(bookingContract, bookingId, minVersion, snapshot);
    },

    async flagUnconfirmedBooking({ bookingId }) {
      const booking = await bookingById(knex, bookingId);
      if (!booking) throw ApplicationFailure.nonRetryable(`booking ${bookingId} not found`, BookingActivityErrors.notFound);
      // flagged once: the compare-and-set, or the flag of an earlier attempt whose e-mail failed
      const flagged = (await markUnconfirmedFlagged(knex, bookingId)) || booking.unconfirmedFlaggedAt !== null;
      if (!flagged) return 'NOT_FLAGGED';
      const outcome = await deliverOnce(
        'EMAIL',
        { mailer, sms },
        {
          label: `booking ${bookingId} (UNCONFIRMED)`,
          failureType: BookingActivityErrors.deliveryFailed,
          meta: { bookingId, kind: 'UNCONFIRMED' },
          claim: () =>
            claimBookingNotification(knex, { bookingId, channel: 'EMAIL', dedupeKey: 'UNCONFIRMED' }, { tenantId: booking.tenantId, kind: 'UNCONFIRMED' }),
          async compose() {
            const { facts, contact } = await messageFacts(booking, 'REMINDER');
            const email = await salonOwnerEmail(knex, booking.tenantId);
            const settings = (await findTenant(knex, booking.tenantId))?.settings;
            return { contact: { phone: null, email }, message: renderUnconfirmedFlag({ ...facts, customerPhone: contact.phone }, salonLanguage(settings)) };
          },
          markSent: (id) => markBookingNotificationSent(knex, id),
        },
      );
      return outcome === 'NO_CONTACT' ? 'NO_CONTACT' : 'FLAGGED';
    },

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
              contact: { phone: null, email },
              message: renderSalonNotice(kind, { ...message, customerPhone: contact.phone, deskUrl }, salonLanguage(settings)),
            };
          },
          markSent: (id) => markBookingNotificationSent(knex, id),
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
