// Side effects of the waitlist workflows (docs/rules/waitlist.md#workflows): read the committed
// round or entry, make and expire the offers of a step, end an entry at its last date, and send
// each offer once per channel (a claimed waitlist_notifications row per message).
import { phoneRegionOf } from '../domain/phone/phone.rules';
import { ApplicationFailure } from '@temporalio/activity';
import type { DbPool } from '../db/db-handle';
import type { Mailer } from '../domain/notifications/mailer';
import type { SmsSender } from '../domain/notifications/sms-sender';
import { tenantById } from '../domain/tenant/tenant-context';
import { findServicesByIds } from '../domain/catalogue/catalogue.repository';
import { resourceNames } from '../domain/resource/resource.repository';
import { renderWaitlistJoined, renderWaitlistOffer, waitlistEntryUrl, waitlistOfferUrl } from '../domain/notifications/waitlist-messages.rules';
import { waitlistEntryContract, waitlistOfferContract } from '../domain/waitlist/waitlist-events.rules';
import {
  claimWaitlistEntryNotification,
  claimWaitlistNotification,
  entryById,
  markFirstOfferSent,
  markWaitlistNotificationSent,
  offerById,
} from '../domain/waitlist/waitlist.repository';
import {
  closeRound,
  entrySnapshot,
  expireEntry,
  expireStep,
  holdMinutesOf,
  makeStepOffers,
  roundSnapshot,
  waitlistModeOf,
} from '../domain/waitlist/waitlist-round.service';
import { offerToken, reissueEntryToken } from '../domain/waitlist/waitlist-tokens';
import { activitySignaller } from './activity-signaller';
import { deliverOnce, type Channel } from './message-delivery';
import { committedAt } from './read-committed';
import type { DeliveryOutcome } from './booking.types';
import type { BookingLinkConfig } from './booking-message-links';
import { WaitlistActivityErrors, type WaitlistActivities, type WaitlistJoinedMessageRequest, type WaitlistOfferMessageRequest } from './waitlist.types';

export interface WaitlistActivityDeps {
  knex: DbPool;
  mailer: Mailer;
  sms: SmsSender;
  /** the offer key (offer tokens) and the base of the offer link; unset: offers cannot be sent */
  links?: Pick<BookingLinkConfig, 'offerKey' | 'entryKey' | 'publicBaseUrl'>;
}

export function createWaitlistActivities(deps: WaitlistActivityDeps): WaitlistActivities {
  const { knex, mailer, sms } = deps;
  const roundDeps = { knex, signaller: activitySignaller };

  async function compose(offerId: string) {
    const links = deps.links;
    if (!links) throw ApplicationFailure.nonRetryable('the worker has no waitlist secret to sign offer links with', WaitlistActivityErrors.notFound);
    const offer = await offerById(knex, offerId);
    const entry = offer && (await entryById(knex, offer.entryId));
    if (!offer || !entry) throw ApplicationFailure.nonRetryable(`waitlist offer ${offerId} not found`, WaitlistActivityErrors.notFound);
    const tenant = await tenantById(knex, offer.tenantId);
    const services = new Map(
      (
        await findServicesByIds(
          knex,
          tenant.id,
          offer.items.map((i) => i.serviceId),
        )
      ).map((s) => [s.id, s]),
    );
    const staff = await resourceNames(knex, [...new Set(offer.items.map((i) => i.resourceId))]);
    const message = renderWaitlistOffer(
      {
        salonName: tenant.name,
        customerName: entry.contactName,
        startTime: new Date(offer.startTime),
        endTime: new Date(offer.endTime),
        timezone: tenant.settings.timezone,
        services: offer.items.map((i) => services.get(i.serviceId)?.name ?? ''),
        staffName: staff.get(offer.items[0].resourceId) ?? null,
        holdMinutes: waitlistModeOf(tenant) === 'BROADCAST' ? null : holdMinutesOf(tenant),
        expiresAt: new Date(offer.expiresAt),
        price: offer.items.reduce((sum, i) => sum + (services.get(i.serviceId)?.price ?? 0), 0),
        currency: tenant.settings.currency,
        acceptUrl: waitlistOfferUrl(links.publicBaseUrl, tenant.slug, offerId, offerToken(links.offerKey, offerId), entry.language),
      },
      entry.language,
    );
    return { offer, contact: { phone: entry.contactPhone, email: entry.contactEmail, smsCountry: phoneRegionOf(tenant) }, message };
  }

  /** One offer message on one channel, at most once (activities/message-delivery.ts). */
  async function deliver(channel: Channel, { offerId }: WaitlistOfferMessageRequest): Promise<DeliveryOutcome> {
    const offer = await offerById(knex, offerId);
    if (!offer) throw ApplicationFailure.nonRetryable(`waitlist offer ${offerId} not found`, WaitlistActivityErrors.notFound);
    const outcome = await deliverOnce(
      channel,
      { mailer, sms },
      {
        label: `waitlist offer ${offerId}`,
        failureType: WaitlistActivityErrors.deliveryFailed,
        meta: { offerId, kind: 'WAITLIST_OFFER' },
        claim: () => claimWaitlistNotification(knex, { tenantId: offer.tenantId, offerId, channel, kind: 'OFFER' }),
        compose: async () => {
          const { contact, message } = await compose(offerId);
          return { contact, message };
        },
        markSent: (id, sent) => markWaitlistNotificationSent(knex, id, sent),
      },
    );
    if (outcome === 'SENT') await markFirstOfferSent(knex, offer.roundId);
    return outcome;
  }

  /** The message confirming an entry, once per channel; nothing for an entry whose token the link could not carry (made before tokens were derived). */
  async function deliverJoined(channel: Channel, { entryId, again }: WaitlistJoinedMessageRequest): Promise<DeliveryOutcome> {
    const links = deps.links;
    const entry = await entryById(knex, entryId);
    if (!entry) throw ApplicationFailure.nonRetryable(`waitlist entry ${entryId} not found`, WaitlistActivityErrors.notFound);
    const token = links ? reissueEntryToken(links.entryKey, entryId, entry.tokenHash) : null;
    if (!links || !token) return 'NO_CONTACT';
    return deliverOnce(
      channel,
      { mailer, sms },
      {
        label: `waitlist entry ${entryId}`,
        failureType: WaitlistActivityErrors.deliveryFailed,
        meta: { entryId, kind: 'WAITLIST_JOINED' },
        // each resend of the link its own claim, so each goes out once
        claim: () => claimWaitlistEntryNotification(knex, { tenantId: entry.tenantId, entryId, channel, kind: again ? `JOINED_AGAIN_${again}` : 'JOINED' }),
        compose: async () => {
          const tenant = await tenantById(knex, entry.tenantId);
          const services = new Map((await findServicesByIds(knex, tenant.id, entry.serviceIds)).map((s) => [s.id, s.name]));
          const staff = entry.resourceId ? await resourceNames(knex, [entry.resourceId]) : new Map<string, string>();
          const message = renderWaitlistJoined(
            {
              salonName: tenant.name,
              customerName: entry.contactName,
              services: entry.serviceIds.map((id) => services.get(id) ?? ''),
              staffName: entry.resourceId ? (staff.get(entry.resourceId) ?? null) : null,
              fromDate: entry.fromDate,
              toDate: entry.toDate,
              earliestTime: entry.earliestTime,
              latestTime: entry.latestTime,
              entryUrl: waitlistEntryUrl(links.publicBaseUrl, tenant.slug, entryId, token, entry.language),
            },
            entry.language,
          );
          return { contact: { phone: entry.contactPhone, email: entry.contactEmail, smsCountry: phoneRegionOf(tenant) }, message };
        },
        markSent: (id, sent) => markWaitlistNotificationSent(knex, id, sent),
      },
    );
  }

  return {
    readWaitlistRound: async ({ roundId, minVersion }) => committedAt(waitlistOfferContract, roundId, minVersion, await roundSnapshot(knex, roundId)),
    readWaitlistEntry: async ({ entryId, minVersion }) => committedAt(waitlistEntryContract, entryId, minVersion, await entrySnapshot(knex, entryId)),
    makeWaitlistOffers: async ({ roundId, step, at }) => (await makeStepOffers(roundDeps, roundId, step, new Date(at))) ?? null,
    expireWaitlistStep: ({ roundId, step }) => expireStep(roundDeps, roundId, step),
    closeWaitlistRound: ({ roundId }) => closeRound(roundDeps, roundId),
    expireWaitlistEntry: ({ entryId, at }) => expireEntry(roundDeps, entryId, new Date(at)),
    sendWaitlistOfferSms: (request) => deliver('SMS', request),
    sendWaitlistOfferEmail: (request) => deliver('EMAIL', request),
    sendWaitlistJoinedSms: (request) => deliverJoined('SMS', request),
    sendWaitlistJoinedEmail: (request) => deliverJoined('EMAIL', request),
  };
}
