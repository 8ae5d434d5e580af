// Side effects of the series and rebooking-nudge workflows (docs/rules/series.md): read the committed
// series or nudge, book the due occurrences (domain/series/series-occurrence.service.ts, one
// transaction per occurrence under its unique key), decide a due nudge once, and send each message
// once per channel and recipient (claimed rows in booking_series_notifications and
// rebooking_nudge_notifications).
import { ApplicationFailure } from '@temporalio/activity';
import type { DbPool } from '../db/db-handle';
import type { Mailer } from '../domain/notifications/mailer';
import type { SmsSender } from '../domain/notifications/sms-sender';
import type { BookingHooks } from '../domain/booking/booking-hooks';
import { tenantById } from '../domain/tenant/tenant-context';
import { findServicesByIds } from '../domain/catalogue/catalogue.repository';
import { resourceNames } from '../domain/resource/resource.repository';
import { findCustomer } from '../domain/customer/customer.repository';
import { bookingById } from '../domain/booking/booking-timeline.repository';
import { ownerContactsOfSalon } from '../domain/users/user.repository';
import { seriesContract } from '../domain/series/series-events.rules';
import { claimSeriesNotification, findOccurrence, markSeriesNotificationSent, seriesById } from '../domain/series/series.repository';
import { bookDueOccurrences } from '../domain/series/series-occurrence.service';
import { cancelBookingsOfEndedSeries } from '../domain/series/series.service';
import { toleranceDaysOf } from '../domain/series/series.rules';
import { rebookingNudgeContract } from '../domain/rebooking/rebooking-events.rules';
import { decideNudge, readNudge } from '../domain/rebooking/rebooking.service';
import { claimNudgeNotification, markNudgeNotificationSent, nudgeById } from '../domain/rebooking/rebooking.repository';
import { unsubscribeToken } from '../domain/rebooking/rebooking-tokens';
import {
  nudgeUnsubscribeUrl,
  rebookUrl,
  renderRebookingNudge,
  renderSeriesMessage,
  renderSeriesSkippedToSalon,
  type SeriesOccurrenceFacts,
} from '../domain/notifications/series-messages.rules';
import { activitySignaller } from './activity-signaller';
import { deliverOnce, type Channel } from './message-delivery';
import { committedAt } from './read-committed';
import { manageUrlOf, type BookingLinkConfig } from './booking-message-links';
import { salonLanguage } from '../domain/language/language.rules';
import { phoneRegionOf } from '../domain/phone/phone.rules';
import type { DeliveryOutcome } from './booking.types';
import {
  SeriesActivityErrors,
  type NudgeMessageRequest,
  type RebookingNudgeActivities,
  type SeriesActivities,
  type SeriesMessageRequest,
} from './series.types';

export interface SeriesActivityDeps {
  knex: DbPool;
  mailer: Mailer;
  sms: SmsSender;
  /** the server secret (cancellation and unsubscribe tokens) and the links' base; unset: messages cannot be sent */
  links?: BookingLinkConfig;
  /** what a new booking tells payments and loyalty (the worker's composition fills it); else the payments' own */
  bookingHooks?: BookingHooks;
  payments?: { bookingHooks: BookingHooks };
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export function createSeriesActivities(deps: SeriesActivityDeps): SeriesActivities & RebookingNudgeActivities {
  const { knex, mailer, sms } = deps;

  /** What booking and cancelling through the booking service takes: the hooks and the manage-link key. */
  function bookingDeps() {
    const bookingHooks = deps.bookingHooks ?? deps.payments?.bookingHooks;
    if (!bookingHooks || !deps.links)
      throw ApplicationFailure.nonRetryable('the worker cannot book: it has no booking hooks or no link keys', SeriesActivityErrors.notFound);
    return { knex, signaller: activitySignaller, manageLinkKey: deps.links.manageLinkKey, bookingHooks };
  }

  function links(): BookingLinkConfig {
    if (!deps.links) throw ApplicationFailure.nonRetryable('the worker has no secret to sign links with', SeriesActivityErrors.notFound);
    return deps.links;
  }

  async function occurrenceFacts({ seriesId, index }: SeriesMessageRequest) {
    const series = await seriesById(knex, seriesId);
    const occurrence = series && (await findOccurrence(knex, seriesId, index));
    if (!series || !occurrence) throw ApplicationFailure.nonRetryable(`series ${seriesId} occurrence ${index} not found`, SeriesActivityErrors.notFound);
    const tenant = await tenantById(knex, series.tenantId);
    const customer = await findCustomer(knex, tenant.id, series.customerId);
    const names = new Map((await findServicesByIds(knex, tenant.id, series.serviceIds)).map((s) => [s.id, s.name]));
    const staff = await resourceNames(knex, [series.resourceId]);
    const booking = occurrence.bookingId ? await bookingById(knex, occurrence.bookingId) : undefined;
    // the customer's messages are in the language of the series' bookings (docs/rules/messages.md#language)
    const language = (booking ?? (await bookingById(knex, series.firstBookingId)))?.language ?? salonLanguage(tenant.settings);
    const facts: SeriesOccurrenceFacts = {
      salonName: tenant.name,
      salonContact: { phone: tenant.contactPhone ?? null, email: tenant.contactEmail ?? null },
      customerName: customer?.name ?? 'kunde',
      timezone: tenant.settings.timezone,
      services: series.serviceIds.map((id) => names.get(id) ?? ''),
      staffName: staff.get(series.resourceId) ?? null,
      plannedStart: new Date(occurrence.plannedStart),
      startTime: occurrence.startTime ? new Date(occurrence.startTime) : null,
      toleranceDays: toleranceDaysOf(tenant.settings),
      manageUrl: booking ? manageUrlOf(deps.links, { name: tenant.name, slug: tenant.slug, address: null }, booking) : null,
    };
    return { series, tenant, customer, facts, language };
  }

  /** One message to the customer about one occurrence on one channel, at most once. */
  async function deliverToCustomer(channel: Channel, request: SeriesMessageRequest): Promise<DeliveryOutcome> {
    const { series, tenant, customer, facts, language } = await occurrenceFacts(request);
    return deliverOnce(
      channel,
      { mailer, sms },
      {
        label: `series ${request.seriesId} occurrence ${request.index} (${request.kind})`,
        failureType: SeriesActivityErrors.deliveryFailed,
        meta: { seriesId: request.seriesId, occurrenceIndex: request.index, kind: `SERIES_${request.kind}` },
        claim: () =>
          claimSeriesNotification(knex, {
            tenantId: series.tenantId,
            seriesId: series.id,
            occurrenceIndex: request.index,
            recipient: 'CUSTOMER',
            channel,
            kind: request.kind,
          }),
        compose: async () => ({
          contact: { phone: customer?.phone ?? null, email: customer?.email ?? null, smsCountry: phoneRegionOf(tenant) },
          message: renderSeriesMessage(request.kind, facts, language),
        }),
        markSent: (id, sent) => markSeriesNotificationSent(knex, id, sent),
      },
    );
  }

  async function nudgeParts({ nudgeId }: NudgeMessageRequest) {
    const nudge = await nudgeById(knex, nudgeId);
    if (!nudge) throw ApplicationFailure.nonRetryable(`rebooking nudge ${nudgeId} not found`, SeriesActivityErrors.nudgeNotFound);
    const tenant = await tenantById(knex, nudge.tenantId);
    const customer = await findCustomer(knex, tenant.id, nudge.customerId);
    return { nudge, tenant, customer };
  }

  /** The nudge of one visit on one channel, at most once; only once its decision was SENT. */
  async function deliverNudge(channel: Channel, request: NudgeMessageRequest): Promise<DeliveryOutcome> {
    const { nudge, tenant, customer } = await nudgeParts(request);
    if (nudge.visitBookingId !== request.visitBookingId || nudge.status !== 'SENT')
      throw ApplicationFailure.nonRetryable(`nudge ${nudge.id} is not due to be sent for this visit`, SeriesActivityErrors.nudgeNotFound);
    return deliverOnce(
      channel,
      { mailer, sms },
      {
        label: `rebooking nudge ${nudge.id} (visit ${nudge.visitBookingId})`,
        failureType: SeriesActivityErrors.nudgeDeliveryFailed,
        meta: { nudgeId: nudge.id, visitBookingId: nudge.visitBookingId, kind: 'REBOOKING_NUDGE' },
        claim: () => claimNudgeNotification(knex, { tenantId: tenant.id, nudgeId: nudge.id, visitBookingId: nudge.visitBookingId, channel }),
        compose: async () => {
          const { publicBaseUrl, unsubscribeKey } = links();
          // in the language of the visit it follows (docs/rules/messages.md#language)
          const language = (await bookingById(knex, nudge.visitBookingId))?.language ?? salonLanguage(tenant.settings);
          const names = new Map((await findServicesByIds(knex, tenant.id, nudge.serviceIds)).map((s) => [s.id, s.name]));
          const staff = nudge.resourceId ? await resourceNames(knex, [nudge.resourceId]) : new Map<string, string>();
          const message = renderRebookingNudge(
            {
              salonName: tenant.name,
              customerName: customer?.name ?? 'kunde',
              services: nudge.serviceIds.map((id) => names.get(id) ?? ''),
              staffName: nudge.resourceId ? (staff.get(nudge.resourceId) ?? null) : null,
              weeks: Math.round((new Date(nudge.dueAt!).getTime() - new Date(nudge.visitedAt).getTime()) / WEEK_MS),
              bookUrl: rebookUrl(publicBaseUrl, tenant.slug, nudge.serviceIds, nudge.resourceId, language),
              unsubscribeUrl: nudgeUnsubscribeUrl(publicBaseUrl, tenant.slug, nudge.customerId, unsubscribeToken(unsubscribeKey, nudge.customerId), language),
            },
            language,
          );
          // marketing: only while the customer's consent stands, also when it was withdrawn after the decision (docs/rules/personal-data.md#consent)
          const agreed = customer?.acceptsRebookingNudges === true && !customer.erased;
          return { contact: { phone: agreed ? customer.phone : null, email: agreed ? customer.email : null, smsCountry: phoneRegionOf(tenant) }, message };
        },
        markSent: (id, sent) => markNudgeNotificationSent(knex, id, sent),
      },
    );
  }

  return {
    readSeries: async ({ seriesId, minVersion }) => {
      const row = await seriesById(knex, seriesId);
      return committedAt(seriesContract, seriesId, minVersion, row && { seriesId, status: row.status, version: row.version, endReason: row.endReason });
    },

    async bookDueSeriesOccurrences({ seriesId, at, after }) {
      const step = await bookDueOccurrences(bookingDeps(), seriesId, new Date(at), after);
      return { handled: step.handled.map(({ index, status, reason }) => ({ index, status, reason })), nextDueAt: step.nextDueAt, done: step.done };
    },

    cancelSeriesBookings: ({ seriesId }) => cancelBookingsOfEndedSeries(bookingDeps(), seriesId),

    sendSeriesSms: (request) => deliverToCustomer('SMS', request),
    sendSeriesEmail: (request) => deliverToCustomer('EMAIL', request),

    async sendSeriesSalonEmail(request) {
      const { series, tenant, customer, facts } = await occurrenceFacts(request);
      const owners = await ownerContactsOfSalon(knex, series.tenantId);
      const outcomes: DeliveryOutcome[] = [];
      for (const owner of owners) {
        outcomes.push(
          await deliverOnce(
            'EMAIL',
            { mailer, sms },
            {
              label: `series ${request.seriesId} occurrence ${request.index} to the salon (${owner.id})`,
              failureType: SeriesActivityErrors.deliveryFailed,
              meta: { seriesId: request.seriesId, occurrenceIndex: request.index, kind: `SERIES_${request.kind}_SALON` },
              claim: () =>
                claimSeriesNotification(knex, {
                  tenantId: series.tenantId,
                  seriesId: series.id,
                  occurrenceIndex: request.index,
                  recipient: `SALON:${owner.id}`,
                  channel: 'EMAIL',
                  kind: request.kind,
                }),
              compose: async () => ({
                contact: { phone: null, email: owner.email, smsCountry: null },
                message: renderSeriesSkippedToSalon({ ...facts, customerPhone: customer?.phone ?? null }, salonLanguage(tenant.settings)),
              }),
              markSent: (id, sent) => markSeriesNotificationSent(knex, id, sent),
            },
          ),
        );
      }
      return outcomes;
    },

    readRebookingNudge: async ({ nudgeId, minVersion }) => committedAt(rebookingNudgeContract, nudgeId, minVersion, await readNudge(knex, nudgeId)),
    decideRebookingNudge: ({ nudgeId, visitBookingId, at }) => decideNudge(knex, nudgeId, visitBookingId, new Date(at)),
    sendRebookingNudgeSms: (request) => deliverNudge('SMS', request),
    sendRebookingNudgeEmail: (request) => deliverNudge('EMAIL', request),
  };
}
