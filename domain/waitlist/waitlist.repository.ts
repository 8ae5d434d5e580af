/**
 * Every query of the waitlist (docs/rules/waitlist.md): entries, offer rounds, offers and their
 * message claims, through their models with the caller's handle; plain rows out.
 */
import { fn, raw, type QueryBuilder } from 'objection';
import type { Db, Transaction } from '../../db/db-handle';
import { plain, plainOrUndefined, returnedRows } from '../../db/plain';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { WaitlistEntryModel } from '../../db/models/waitlist-entry.model';
import { WaitlistRoundModel } from '../../db/models/waitlist-round.model';
import { WaitlistOfferModel } from '../../db/models/waitlist-offer.model';
import { WaitlistNotificationModel } from '../../db/models/waitlist-notification.model';
import type { WaitlistEntryStatus, WaitlistRoundStatus } from './waitlist-events.rules';
import type { Language } from '../language/language.rules';

export type EntryRow = Omit<ReturnType<typeof plain<WaitlistEntryModel>>, 'status' | 'language'> & { status: WaitlistEntryStatus; language: Language };
export type RoundRow = Omit<ReturnType<typeof plain<WaitlistRoundModel>>, 'status'> & { status: WaitlistRoundStatus };
export type OfferStatus = 'OFFERED' | 'ACCEPTED' | 'EXPIRED' | 'DECLINED' | 'TAKEN';
export type OfferRow = Omit<ReturnType<typeof plain<WaitlistOfferModel>>, 'status'> & { status: OfferStatus };

const entryRow = (m: WaitlistEntryModel) => plain(m) as EntryRow;
const roundRow = (m: WaitlistRoundModel) => plain(m) as RoundRow;
const offerRow = (m: WaitlistOfferModel) => plain(m) as OfferRow;

// ------------------------------------------------------------------ entries

export type NewEntry = Pick<
  EntryRow,
  | 'id'
  | 'tenantId'
  | 'source'
  | 'serviceIds'
  | 'resourceId'
  | 'fromDate'
  | 'toDate'
  | 'earliestTime'
  | 'latestTime'
  | 'contactName'
  | 'contactPhone'
  | 'contactEmail'
  | 'customerAccountId'
  | 'tokenHash'
  | 'createdBy'
  | 'language'
>;

/** Throws waitlist_entries_one_per_phone when the phone already waits over an overlapping range (a decoy never does). */
export async function insertEntry(trx: Transaction, entry: NewEntry, decoy = false): Promise<EntryRow> {
  const [row] = await returnedRows<EntryRow>(
    WaitlistEntryModel.query(trx)
      .insert({ ...entry, status: 'WAITING', version: 1, decoy })
      .returning('*'),
  );
  return row;
}

/** The WAITING entry of the phone at the salon whose dates overlap these, locked; undefined when none. */
export async function lockWaitingEntryOfPhone(
  trx: Transaction,
  tenantId: string,
  phone: string,
  fromDate: string,
  toDate: string,
): Promise<EntryRow | undefined> {
  const row = await WaitlistEntryModel.query(trx)
    .where({ tenantId, contactPhone: phone, status: 'WAITING', decoy: false })
    .where('fromDate', '<=', toDate)
    .where('toDate', '>=', fromDate)
    .orderBy('createdAt')
    .forUpdate()
    .first();
  return row && entryRow(row);
}

/** Compare-and-set: one more resend of the entry's link, version + 1; undefined when it changed meanwhile. */
export async function countLinkResend(trx: Transaction, entry: EntryRow): Promise<EntryRow | undefined> {
  const [row] = await returnedRows<EntryRow>(
    WaitlistEntryModel.query(trx)
      .patch({ linkResends: entry.linkResends + 1, version: entry.version + 1 })
      .where({ id: entry.id, version: entry.version })
      .returning('*'),
  );
  return row;
}

export async function findEntry(db: Db, tenantId: string, id: string): Promise<EntryRow | undefined> {
  const row = await WaitlistEntryModel.query(db).findOne({ tenantId, id });
  return row && entryRow(row);
}

export async function entryById(db: Db, id: string): Promise<EntryRow | undefined> {
  const row = await WaitlistEntryModel.query(db).findById(id);
  return row && entryRow(row);
}

export async function lockEntry(trx: Transaction, tenantId: string, id: string): Promise<EntryRow | undefined> {
  const row = await WaitlistEntryModel.query(trx).findOne({ tenantId, id }).forUpdate();
  return row && entryRow(row);
}

/** Compare-and-set from `status` at `version`: the new status with version + 1; undefined when the row moved. */
export async function moveEntry(
  trx: Transaction,
  entry: EntryRow,
  to: WaitlistEntryStatus,
  changes: Partial<Pick<EntryRow, 'bookingId'>> = {},
): Promise<EntryRow | undefined> {
  const [row] = await returnedRows<EntryRow>(
    WaitlistEntryModel.query(trx)
      .patch({ ...changes, status: to, version: entry.version + 1 })
      .where({ id: entry.id, status: entry.status, version: entry.version })
      .returning('*'),
  );
  return row;
}

export interface EntryFilter {
  /** entries whose range covers this salon-local date */
  date?: string;
  serviceId?: string;
  status?: WaitlistEntryStatus;
}

export async function pageOfEntries(db: Db, tenantId: string, f: EntryFilter, page: PageQuery): Promise<PageResult<EntryRow>> {
  const query = WaitlistEntryModel.query(db).where({ tenantId, decoy: false });
  if (f.date) query.where('fromDate', '<=', f.date).where('toDate', '>=', f.date);
  if (f.serviceId) query.whereRaw('? = ANY(service_ids)', [f.serviceId]);
  if (f.status) query.where('status', f.status);
  query.orderBy([
    { column: 'createdAt', order: 'asc' },
    { column: 'id', order: 'asc' },
  ]);
  return (await paginate(query, page)) as unknown as PageResult<EntryRow>;
}

export type AccountEntryRow = EntryRow & { tenantName: string; tenantSlug: string };

/** A signed-in customer's entries in every salon, newest first. */
export async function pageOfAccountEntries(db: Db, customerAccountId: string, page: PageQuery): Promise<PageResult<AccountEntryRow>> {
  const query = WaitlistEntryModel.query(db)
    .join('tenants as t', 't.id', 'waitlist_entries.tenantId')
    .select('waitlist_entries.*', 't.name as tenantName', 't.slug as tenantSlug')
    .where('waitlist_entries.customerAccountId', customerAccountId)
    .orderBy([
      { column: 'waitlist_entries.createdAt', order: 'desc' },
      { column: 'waitlist_entries.id', order: 'asc' },
    ]);
  return (await paginate(query, page)) as unknown as PageResult<AccountEntryRow>;
}

/** WAITING entries whose range touches [firstDate, lastDate], first in line first. */
export async function waitingEntriesBetween(db: Db, tenantId: string, firstDate: string, lastDate: string): Promise<EntryRow[]> {
  const rows = await WaitlistEntryModel.query(db)
    .where({ tenantId, status: 'WAITING', decoy: false })
    .where('fromDate', '<=', lastDate)
    .where('toDate', '>=', firstDate)
    .orderBy([
      { column: 'createdAt', order: 'asc' },
      { column: 'id', order: 'asc' },
    ]);
  return rows.map(entryRow);
}

/** Is anyone waiting over these dates? (A cheap test before a round is opened.) */
export async function anyoneWaiting(db: Db, tenantId: string, firstDate: string, lastDate: string): Promise<boolean> {
  const row = await WaitlistEntryModel.query(db)
    .select('id')
    .where({ tenantId, status: 'WAITING', decoy: false })
    .where('fromDate', '<=', lastDate)
    .where('toDate', '>=', firstDate)
    .first();
  return !!row;
}

// ------------------------------------------------------------------ rounds

export async function insertRound(
  trx: Transaction,
  round: Pick<RoundRow, 'tenantId' | 'cause' | 'resourceId' | 'windowStart' | 'windowEnd'>,
): Promise<RoundRow> {
  const [row] = await returnedRows<RoundRow>(
    WaitlistRoundModel.query(trx)
      .insert({ ...round, status: 'OPEN', step: 0, version: 1 })
      .returning('*'),
  );
  return row;
}

export async function findRound(db: Db, id: string): Promise<RoundRow | undefined> {
  const row = await WaitlistRoundModel.query(db).findById(id);
  return row && roundRow(row);
}

export async function lockRound(trx: Transaction, id: string): Promise<RoundRow | undefined> {
  const row = await WaitlistRoundModel.query(trx).findById(id).forUpdate();
  return row && roundRow(row);
}

/** The locked round with version + 1 and `changes`; the new version. */
export async function updateRoundVersioned(
  trx: Transaction,
  round: RoundRow,
  changes: Partial<Pick<RoundRow, 'status' | 'step' | 'bookingId'>>,
): Promise<number> {
  const version = round.version + 1;
  await WaitlistRoundModel.query(trx)
    .patch({ ...changes, version })
    .where({ id: round.id });
  return version;
}

/** Stamps the first offer's delivery (once): the cancellation-to-offer delay is first_offer_sent_at - freed_at. */
export async function markFirstOfferSent(db: Db, roundId: string): Promise<void> {
  await WaitlistRoundModel.query(db).patch({ firstOfferSentAt: fn.now() }).where({ id: roundId }).whereNull('firstOfferSentAt');
}

// ------------------------------------------------------------------ offers

export type NewOffer = Pick<OfferRow, 'id' | 'tenantId' | 'roundId' | 'entryId' | 'step' | 'startTime' | 'endTime' | 'items' | 'expiresAt'>;

export async function insertOffers(trx: Transaction, offers: NewOffer[]): Promise<void> {
  if (offers.length) await WaitlistOfferModel.query(trx).insert(offers.map((o) => ({ ...o, status: 'OFFERED' })));
}

export async function offersOfStep(db: Db, roundId: string, step: number): Promise<OfferRow[]> {
  return (await WaitlistOfferModel.query(db).where({ roundId, step }).orderBy('createdAt').orderBy('id')).map(offerRow);
}

/** Entries this round already offered to (in any step). */
export async function entriesOfferedInRound(db: Db, roundId: string): Promise<string[]> {
  return (await WaitlistOfferModel.query(db).select('entryId').where({ roundId })).map((r) => r.entryId);
}

/** Entries holding an open offer of any round (an entry holds one offer at a time). */
export async function entriesWithOpenOffers(db: Db, tenantId: string): Promise<string[]> {
  return (await WaitlistOfferModel.query(db).select('entryId').where({ tenantId, status: 'OFFERED' })).map((r) => r.entryId);
}

export async function countOpenOffers(db: Db, roundId: string): Promise<number> {
  const row = (await WaitlistOfferModel.query(db).where({ roundId, status: 'OFFERED' }).count('* as n').first()) as unknown as { n: string | number };
  return Number(row.n);
}

export async function findOffer(db: Db, tenantId: string, id: string): Promise<OfferRow | undefined> {
  return plainOrUndefined(await WaitlistOfferModel.query(db).findOne({ tenantId, id })) as OfferRow | undefined;
}

export async function offerById(db: Db, id: string): Promise<OfferRow | undefined> {
  return plainOrUndefined(await WaitlistOfferModel.query(db).findById(id)) as OfferRow | undefined;
}

/** Which open offers: a round's, an entry's, or the listed ids (all given conditions hold). */
export interface OpenOffersOf {
  roundId?: string;
  entryId?: string;
  ids?: string[];
}

function whereOpen<Q extends QueryBuilder<WaitlistOfferModel, unknown>>(query: Q, which: OpenOffersOf): Q {
  query.where({ status: 'OFFERED' });
  if (which.roundId) query.where({ roundId: which.roundId });
  if (which.entryId) query.where({ entryId: which.entryId });
  if (which.ids) query.whereIn('id', which.ids);
  return query;
}

export async function openOffers(db: Db, which: OpenOffersOf): Promise<OfferRow[]> {
  return (await whereOpen(WaitlistOfferModel.query(db), which)).map(offerRow);
}

/** Compare-and-set of the open offers from OFFERED to `to`; the rows that moved. */
export async function closeOpenOffers(
  trx: Transaction,
  which: OpenOffersOf,
  to: Exclude<OfferStatus, 'OFFERED'>,
  bookingId: string | null = null,
): Promise<OfferRow[]> {
  return returnedRows<OfferRow>(whereOpen(WaitlistOfferModel.query(trx).patch({ status: to, bookingId }), which).returning('*'));
}

// ------------------------------------------------------------------ messages

/** Claims the (entry, channel, kind) message row of an entry's own message (joining); its id and whether it was already sent. */
export async function claimWaitlistEntryNotification(
  db: Db,
  claim: { tenantId: string; entryId: string; channel: string; kind: string },
): Promise<{ id: string; sentAt: Date | null }> {
  await WaitlistNotificationModel.query(db).insert(claim).onConflict(['entryId', 'channel', 'kind']).ignore();
  const row = (await WaitlistNotificationModel.query(db).select('id', 'sentAt').findOne({ entryId: claim.entryId, channel: claim.channel, kind: claim.kind }))!;
  return { id: row.id, sentAt: row.sentAt };
}

export async function claimWaitlistNotification(
  db: Db,
  claim: { tenantId: string; offerId: string; channel: string; kind: string },
): Promise<{ id: string; sentAt: Date | null }> {
  await WaitlistNotificationModel.query(db).insert(claim).onConflict(['offerId', 'channel', 'kind']).ignore();
  const row = (await WaitlistNotificationModel.query(db).select('id', 'sentAt').findOne({ offerId: claim.offerId, channel: claim.channel, kind: claim.kind }))!;
  return { id: row.id, sentAt: row.sentAt };
}

/** Stamped once the gateway took the message, with where it went and what it said (docs/rules/personal-data.md#what-is-kept). */
export async function markWaitlistNotificationSent(db: Db, id: string, sent: { to: string; text: string } | null = null): Promise<void> {
  await WaitlistNotificationModel.query(db)
    .patch({ sentAt: fn.now(), sentTo: sent?.to ?? null, text: sent?.text ?? null })
    .where({ id });
}

// ------------------------------------------------------------------ figures (metrics)

export interface WaitlistFigures {
  offersSent: number;
  offersAccepted: number;
  offersExpired: number;
  slotsRefilled: number;
  /** seconds from the freeing change to the first offer delivered, over the last day's rounds */
  firstOfferDelay: { p50: number | null; p95: number | null; max: number | null; count: number };
}

/** Counted from the rows (every api process reports the same numbers; the worker sends, the api serves them). */
export async function waitlistFigures(db: Db): Promise<WaitlistFigures> {
  const offers = (await WaitlistOfferModel.query(db)
    .select(
      raw('count(*)::int AS sent'),
      raw(`count(*) FILTER (WHERE status = 'ACCEPTED')::int AS accepted`),
      raw(`count(*) FILTER (WHERE status = 'EXPIRED')::int AS expired`),
    )
    .first()) as unknown as { sent: number; accepted: number; expired: number };
  const rounds = (await WaitlistRoundModel.query(db)
    .select(
      raw(`count(*) FILTER (WHERE status = 'FILLED')::int AS refilled`),
      raw(
        `percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM first_offer_sent_at - freed_at)) FILTER (WHERE first_offer_sent_at IS NOT NULL AND freed_at > now() - interval '1 day') AS p50`,
      ),
      raw(
        `percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM first_offer_sent_at - freed_at)) FILTER (WHERE first_offer_sent_at IS NOT NULL AND freed_at > now() - interval '1 day') AS p95`,
      ),
      raw(`max(extract(epoch FROM first_offer_sent_at - freed_at)) FILTER (WHERE freed_at > now() - interval '1 day') AS max`),
      raw(`count(first_offer_sent_at) FILTER (WHERE freed_at > now() - interval '1 day')::int AS count`),
    )
    .first()) as unknown as { refilled: number; p50: number | string | null; p95: number | string | null; max: number | string | null; count: number };
  const num = (v: number | string | null) => (v === null ? null : Number(v));
  return {
    offersSent: offers.sent,
    offersAccepted: offers.accepted,
    offersExpired: offers.expired,
    slotsRefilled: rounds.refilled,
    firstOfferDelay: { p50: num(rounds.p50), p95: num(rounds.p95), max: num(rounds.max), count: rounds.count },
  };
}
