/**
 * The offer round's steps, as its workflow asks for them through activities
 * (docs/rules/waitlist.md#offers): make the offers of a step (FIRST_IN_LINE: the first waiting
 * entry that a concrete slot suits; BROADCAST: every one) and hold their time, expire a step, close
 * the round; and the entry's own end at its last date. Each step is idempotent: a step already made
 * answers with its offers, an expiry already done changes nothing.
 */
import type { Db, DbPool, Transaction } from '../../db/db-handle';
import crypto from 'node:crypto';
import { AppError } from '../errors';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { tenantById, type TenantContext } from '../tenant/tenant-context';
import { slotsForDate } from '../availability/availability.service';
import type { HeldPart } from '../availability/availability.types';
import { findServicesByIds } from '../catalogue/catalogue.repository';
import { withBookingLock } from '../booking/booking-lock.service';
import { insertTimeHolds, releaseTimeHolds } from '../booking/time-hold.repository';
import { changeEntry, changeRound } from './waitlist-change';
import { withdrawOpenOffers } from './waitlist-offer.service';
import type { WaitlistEntrySnapshot, WaitlistMode, WaitlistRoundSnapshot } from './waitlist-events.rules';
import {
  candidateEntries,
  DEFAULT_WAITLIST_MODE,
  entryEndsAtMs,
  localDatesOf,
  slotSuitsEntry,
  WAITLIST_HOLD_MINUTES,
  type FreedTime,
  type SlotItem,
} from './waitlist.rules';
import {
  closeOpenOffers,
  countOpenOffers,
  entriesOfferedInRound,
  entriesWithOpenOffers,
  entryById,
  findRound,
  insertOffers,
  lockEntry,
  lockRound,
  offersOfStep,
  waitingEntriesBetween,
  type EntryRow,
  type NewOffer,
  type RoundRow,
} from './waitlist.repository';

export interface RoundDeps {
  knex: DbPool;
  /** the worker's signaller (an entry that ends withdraws its offer and tells that round) */
  signaller: EntitySignaller;
}

export async function roundSnapshot(db: Db, roundId: string): Promise<WaitlistRoundSnapshot | undefined> {
  const round = await findRound(db, roundId);
  if (!round) return undefined;
  return { roundId, status: round.status, version: round.version, step: round.step, openOffers: await countOpenOffers(db, roundId) };
}

export async function entrySnapshot(db: Db, entryId: string): Promise<WaitlistEntrySnapshot | undefined> {
  const entry = await entryById(db, entryId);
  if (!entry) return undefined;
  const tenant = await tenantById(db, entry.tenantId);
  return {
    entryId,
    status: entry.status,
    version: entry.version,
    endsAt: entryEndsAtMs(entry.toDate, tenant.settings.timezone),
    linkResends: entry.linkResends,
  };
}

export function waitlistModeOf(tenant: TenantContext): WaitlistMode {
  return tenant.settings.waitlistMode ?? DEFAULT_WAITLIST_MODE;
}

export function holdMinutesOf(tenant: TenantContext): number {
  return tenant.settings.waitlistHoldMinutes ?? WAITLIST_HOLD_MINUTES.default;
}

export interface StepOffers {
  /** the round's version after the step (the workflow waits on the state from there) */
  version: number;
  offerIds: string[];
  /** epoch ms */
  expiresAt: number;
}

/**
 * The first slot of the entry's services that lies inside the freed time and suits the entry, from
 * the availability engine: its items, and every part of it (staff buffers and phases, rooms or
 * equipment) that the offer's hold keeps.
 */
async function slotFor(
  db: DbPool,
  tenant: TenantContext,
  entry: EntryRow,
  freed: FreedTime,
  now: Date,
): Promise<{ items: SlotItem[]; parts: HeldPart[] } | undefined> {
  const tz = tenant.settings.timezone;
  const resourceId = entry.resourceId ?? freed.resourceId;
  for (const date of localDatesOf(freed, tz)) {
    let slots;
    try {
      slots = await slotsForDate(db, tenant, { date, items: entry.serviceIds.map((serviceId) => ({ serviceId, resourceId })), onlineOnly: true, now });
    } catch (err) {
      // a date beyond the booking window, a service or staff member gone: nothing to offer
      if (err instanceof AppError) return undefined;
      throw err;
    }
    for (const slot of slots) {
      const interval = { start: slot.start.getTime(), end: slot.end.getTime() };
      if (slotSuitsEntry(interval, entry, freed, tz)) {
        return {
          items: slot.items.map((i) => ({ serviceId: i.serviceId, resourceId: i.resourceId, start: i.start.getTime(), end: i.end.getTime() })),
          parts: slot.items.flatMap((i) => i.parts),
        };
      }
    }
  }
  return undefined;
}

/**
 * Step `step` of the round: the offers and their hold, in one transaction under the round's lock
 * and the salon's exclusive booking lock (so no booking is placed between the availability read and
 * the hold). Undefined when nobody is left to offer the time to (the round is EXHAUSTED then).
 */
export async function makeStepOffers(deps: RoundDeps, roundId: string, step: number, at: Date): Promise<StepOffers | undefined> {
  return deps.knex.transaction(async (trx) => {
    const round = await lockRound(trx, roundId);
    if (!round) return undefined;
    if (round.step >= step) return alreadyMade(trx, round, step);
    if (round.status !== 'OPEN') return undefined;
    const tenant = await tenantById(trx, round.tenantId);
    return withBookingLock(trx, round.tenantId, 'exclusive', async (ltrx) => {
      const chosen = await chooseOffers(deps.knex, tenant, round, step, at);
      const offers = chosen.map((c) => c.offer);
      if (!offers.length) {
        await releaseTimeHolds(ltrx, round.id);
        await changeRound(null, ltrx, round, { status: 'EXHAUSTED', step }, null);
        return undefined;
      }
      await insertOffers(ltrx, offers);
      await insertTimeHolds(
        ltrx,
        round.tenantId,
        round.id,
        chosen.flatMap((c) => c.parts),
      );
      const version = await changeRound(deps.signaller, ltrx, round, { step }, 'WaitlistOffersMade');
      return { version, offerIds: offers.map((o) => o.id), expiresAt: offers[0].expiresAt.getTime() };
    });
  });
}

async function alreadyMade(db: Db, round: RoundRow, step: number): Promise<StepOffers | undefined> {
  const offers = await offersOfStep(db, round.id, step);
  if (!offers.length) return undefined;
  return { version: round.version, offerIds: offers.map((o) => o.id), expiresAt: new Date(offers[0].expiresAt).getTime() };
}

/** The entries to offer this step, their slots and the parts to hold, read on the pool (committed state; writers wait on the lock). */
async function chooseOffers(db: DbPool, tenant: TenantContext, round: RoundRow, step: number, at: Date): Promise<{ offer: NewOffer; parts: HeldPart[] }[]> {
  const tz = tenant.settings.timezone;
  const freed: FreedTime = { resourceId: round.resourceId, start: new Date(round.windowStart).getTime(), end: new Date(round.windowEnd).getTime() };
  if (freed.end <= at.getTime()) return [];
  const dates = localDatesOf(freed, tz);
  const skip = new Set([...(await entriesOfferedInRound(db, round.id)), ...(await entriesWithOpenOffers(db, tenant.id))]);
  const waiting = (await waitingEntriesBetween(db, tenant.id, dates[0], dates[dates.length - 1])).filter((e) => !skip.has(e.id));
  const durations = new Map(
    (await findServicesByIds(db, tenant.id, [...new Set(waiting.flatMap((e) => e.serviceIds))])).filter((s) => s.isActive).map((s) => [s.id, s.duration]),
  );
  const mode = waitlistModeOf(tenant);
  const expiresAt = new Date(at.getTime() + holdMinutesOf(tenant) * 60_000);
  const offers: { offer: NewOffer; parts: HeldPart[] }[] = [];
  for (const entry of candidateEntries(waiting, freed, tz, (id) => durations.get(id))) {
    const slot = await slotFor(db, tenant, entry, freed, at);
    if (!slot) continue;
    const { items, parts } = slot;
    offers.push({
      parts,
      offer: {
        id: crypto.randomUUID(),
        tenantId: tenant.id,
        roundId: round.id,
        entryId: entry.id,
        step,
        startTime: new Date(items[0].start),
        endTime: new Date(items[items.length - 1].end),
        items: items.map((i) => ({
          serviceId: i.serviceId,
          resourceId: i.resourceId,
          startTime: new Date(i.start).toISOString(),
          endTime: new Date(i.end).toISOString(),
        })),
        expiresAt,
      },
    });
    if (mode === 'FIRST_IN_LINE') break;
  }
  return offers;
}

/**
 * The step's hold ran out: its open offers expire and the hold is released at once. 'FILLED' when
 * an offer was accepted first (nothing expires then).
 */
export async function expireStep(deps: RoundDeps, roundId: string, step: number): Promise<'EXPIRED' | 'FILLED' | 'CLOSED'> {
  return deps.knex.transaction(async (trx) => {
    const round = (await lockRound(trx, roundId))!;
    if (round.status === 'FILLED') return 'FILLED';
    const ids = (await offersOfStep(trx, roundId, step)).map((o) => o.id);
    const expired = await closeOpenOffers(trx, { roundId, ids }, 'EXPIRED');
    await releaseTimeHolds(trx, roundId);
    if (expired.length) await changeRound(null, trx, round, {}, null);
    return round.status === 'OPEN' ? 'EXPIRED' : 'CLOSED';
  });
}

/** Nobody else to ask (BROADCAST after its one step): the round ends and its hold is released. */
export async function closeRound(deps: RoundDeps, roundId: string): Promise<void> {
  await deps.knex.transaction(async (trx: Transaction) => {
    const round = (await lockRound(trx, roundId))!;
    await releaseTimeHolds(trx, roundId);
    if (round.status === 'OPEN') await changeRound(null, trx, round, { status: 'EXHAUSTED' }, null);
  });
}

/** The entry's timer: a WAITING entry whose last date ended is EXPIRED, and its open offer withdrawn. */
export async function expireEntry(deps: RoundDeps, entryId: string, at: Date): Promise<'EXPIRED' | 'NOT_DUE' | 'NOT_WAITING'> {
  return deps.knex.transaction(async (trx) => {
    const found = await entryById(trx, entryId);
    if (!found) return 'NOT_WAITING';
    const entry = (await lockEntry(trx, found.tenantId, entryId))!;
    if (entry.status !== 'WAITING') return 'NOT_WAITING';
    const tenant = await tenantById(trx, entry.tenantId);
    if (entryEndsAtMs(entry.toDate, tenant.settings.timezone) > at.getTime()) return 'NOT_DUE';
    await changeEntry(null, trx, entry, 'EXPIRED', null);
    await withdrawOpenOffers(deps, trx, { entryId });
    return 'EXPIRED';
  });
}
