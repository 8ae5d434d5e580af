/**
 * What a customer does with an offer (docs/rules/waitlist.md#accepting): read it, accept it (books
 * through the normal public booking path, releasing the round's hold in the same transaction) or
 * decline it. The offer's token is its proof; a wrong one is 404 like an unknown offer.
 *
 * Concurrency: every decision about a round runs under its row lock (SELECT ... FOR UPDATE), so of
 * ten customers accepting one BROADCAST round at once exactly one books and nine get 409
 * WAITLIST_OFFER_TAKEN; the booking itself is still checked by booking_items_no_overlap. Locks are
 * always taken entry, then round, then offers, so no two of these transactions wait on each other.
 */
import type { Db, Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { toIso } from '../time/iso';
import type { Clock } from '../time/clock';
import { createPublicBooking } from '../booking/booking-create.service';
import type { BookingHooks } from '../booking/booking-hooks';
import type { LinkKey } from '../crypto/link-key';
import { releaseTimeHolds } from '../booking/time-hold.repository';
import { changeEntry, changeRound } from './waitlist-change';
import { offerTokenMatches } from './waitlist-tokens';
import { offerDto, type WaitlistOfferDto } from './waitlist.dto';
import { closeOpenOffers, countOpenOffers, findOffer, lockEntry, lockRound, openOffers, type OfferRow } from './waitlist.repository';

export interface OfferDeps {
  knex: Db;
  signaller: EntitySignaller;
  /** offer tokens (docs/rules/security.md#keys) */
  offerKey: LinkKey;
  /** the booking an accepted offer makes gets its manage link */
  manageLinkKey: LinkKey;
  now?: Clock;
  /** accepting books as any public booking does (deposit, voucher: domain/booking/booking-hooks.ts) */
  bookingHooks: BookingHooks;
}

async function offerWithToken(deps: OfferDeps, tenant: TenantContext, offerId: string, token: unknown): Promise<OfferRow> {
  const offer = await findOffer(deps.knex, tenant.id, offerId);
  if (!offer || !offerTokenMatches(deps.offerKey, offerId, token)) throw errors.notFound('waitlistOffer');
  return offer;
}

/** GET /public/tenants/:slug/waitlist/offers/:offerId?token= */
export async function viewOffer(deps: OfferDeps, tenant: TenantContext, offerId: string, token: unknown): Promise<WaitlistOfferDto> {
  return offerDto(await offerWithToken(deps, tenant, offerId, token));
}

/** 409 for an offer that is no longer open, named by what happened to it. */
function notOpen(offer: OfferRow, roundFilled: boolean) {
  if (offer.status === 'ACCEPTED') return errors.conflict('WAITLIST_OFFER_ALREADY_ACCEPTED', 'This offer was already accepted');
  if (offer.status === 'TAKEN' || roundFilled) return errors.conflict('WAITLIST_OFFER_TAKEN', 'Someone else took this time first');
  if (offer.status === 'DECLINED') return errors.conflict('WAITLIST_OFFER_DECLINED', 'This offer was declined');
  return errors.conflict('WAITLIST_OFFER_EXPIRED', 'The offer has expired and the time was released');
}

/** The offer, re-read under its round's lock; 409 unless it is still open. */
async function lockOpenOffer(trx: Transaction, tenantId: string, offerId: string) {
  const offer = (await findOffer(trx, tenantId, offerId))!;
  const round = (await lockRound(trx, offer.roundId))!;
  const current = (await findOffer(trx, tenantId, offerId))!;
  if (current.status !== 'OFFERED' || round.status !== 'OPEN') throw notOpen(current, round.status === 'FILLED');
  return { offer: current, round };
}

/**
 * POST /public/tenants/:slug/waitlist/offers/:offerId/accept: one transaction that releases the
 * round's hold, books the offered time as the waiting customer (deposit and workflow as any public
 * booking), and closes the round, its other offers and the entry.
 */
export async function acceptOffer(deps: OfferDeps, tenant: TenantContext, offerId: string, token: unknown) {
  const { entryId } = await offerWithToken(deps, tenant, offerId, token);
  return deps.knex.transaction(async (trx) => {
    const entry = (await lockEntry(trx, tenant.id, entryId))!;
    const { offer, round } = await lockOpenOffer(trx, tenant.id, offerId);
    if (entry.status !== 'WAITING') throw errors.conflict('WAITLIST_ENTRY_CLOSED', `The waitlist entry is ${entry.status.toLowerCase()}`);
    await releaseTimeHolds(trx, round.id);
    const booking = await createPublicBooking(
      { ...deps, knex: trx },
      tenant,
      {
        startTime: toIso(offer.startTime),
        items: offer.items.map((i) => ({ serviceId: i.serviceId, resourceId: i.resourceId })),
        customer: { name: entry.contactName, phone: entry.contactPhone, email: entry.contactEmail },
        // the booking keeps the language the customer joined in (docs/rules/messages.md#language)
        language: entry.language,
      },
      entry.customerAccountId ?? undefined,
    );
    await closeOpenOffers(trx, { ids: [offer.id] }, 'ACCEPTED', booking.id);
    await closeOpenOffers(trx, { roundId: round.id }, 'TAKEN');
    await changeRound(deps.signaller, trx, round, { status: 'FILLED', bookingId: booking.id }, 'WaitlistOfferAccepted');
    await changeEntry(deps.signaller, trx, entry, 'BOOKED', 'WaitlistEntryBooked', { bookingId: booking.id });
    return booking;
  });
}

/** POST /public/tenants/:slug/waitlist/offers/:offerId/decline: the next in line gets the time at once. */
export async function declineOffer(deps: OfferDeps, tenant: TenantContext, offerId: string, token: unknown): Promise<WaitlistOfferDto> {
  const { entryId } = await offerWithToken(deps, tenant, offerId, token);
  await deps.knex.transaction(async (trx) => {
    await lockEntry(trx, tenant.id, entryId);
    await lockOpenOffer(trx, tenant.id, offerId);
    await withdrawOpenOffers(deps, trx, { ids: [offerId] });
  });
  return offerDto((await findOffer(deps.knex, tenant.id, offerId))!);
}

/**
 * Declines open offers (of one entry that left, or the listed ones): a round with no open offer
 * left releases its hold, and each round's workflow is told, so it moves to the next in line.
 */
export async function withdrawOpenOffers(
  deps: { signaller: EntitySignaller | null },
  trx: Transaction,
  which: { entryId?: string; ids?: string[] },
): Promise<void> {
  const roundIds = [...new Set((await openOffers(trx, which)).map((o) => o.roundId))].sort();
  const rounds = [];
  for (const roundId of roundIds) rounds.push((await lockRound(trx, roundId))!);
  await closeOpenOffers(trx, which, 'DECLINED');
  for (const round of rounds) {
    if (round.status !== 'OPEN') continue;
    if ((await countOpenOffers(trx, round.id)) === 0) await releaseTimeHolds(trx, round.id);
    await changeRound(deps.signaller, trx, round, {}, 'WaitlistOfferDeclined');
  }
}
