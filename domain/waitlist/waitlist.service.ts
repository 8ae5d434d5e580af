/**
 * Waitlist entries (docs/rules/waitlist.md#joining): a customer joins from the public portal (guest
 * or signed in) or staff add one for a caller; the entry is viewed and left with its token;
 * signed-in customers list theirs and staff list and remove them. Every change of an entry goes
 * through the change primitive, so its workflow (`waitlist-entry:<id>`, which ends it at its last
 * date) is told before commit.
 */
import crypto from 'node:crypto';
import type { Db, Transaction } from '../../db/db-handle';
import type { PageQuery, PageResult } from '../../db/paginate';
import { errors } from '../errors';
import type { TenantContext } from '../tenant/tenant-context';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { changeEntity } from '../workflow-signals/entity-change';
import { changeEntry } from './waitlist-change';
import { nowOf, type Clock } from '../time/clock';
import type { LinkKey } from '../crypto/link-key';
import { utcToLocalDate } from '../time/salon-time.rules';
import { assertResourcesExist, servicesFor } from '../availability/availability.service';
import { assertAcceptingBookings } from '../booking/accepting-bookings.rules';
import { phoneRegionOf, requirePhone } from '../phone/phone.rules';
import { languageOr, type Language } from '../language/language.rules';
import { waitlistEntryContract } from './waitlist-events.rules';
import { entryWishProblems, WAITLIST_LINK_RESENDS } from './waitlist.rules';
import { entryTokenMatches, issueEntryToken } from './waitlist-tokens';
import { accountEntryDto, entryDto, type WaitlistEntryDto } from './waitlist.dto';
import {
  countLinkResend,
  findEntry,
  insertEntry,
  lockEntry,
  lockWaitingEntryOfPhone,
  moveEntry,
  pageOfAccountEntries,
  pageOfEntries,
  type EntryFilter,
  type EntryRow,
  type NewEntry,
} from './waitlist.repository';
import { isExclusionViolation } from '../../db/db-errors';
import { withdrawOpenOffers } from './waitlist-offer.service';

export interface WaitlistDeps {
  knex: Db;
  signaller: EntitySignaller;
  /** entry tokens are HMACs over the entry id with this key (docs/rules/security.md#keys) */
  entryKey: LinkKey;
  now?: Clock;
}

export interface JoinInput {
  serviceIds: string[];
  resourceId?: string | null;
  fromDate: string;
  toDate: string;
  earliestTime?: string | null;
  latestTime?: string | null;
  customer: { name: string; phone: string; email?: string | null };
  /** the language the customer joined in (the salon's when left out) */
  language?: Language;
}

export type JoinedEntry = WaitlistEntryDto & { token: string };

interface Joiner {
  source: 'PUBLIC' | 'STAFF';
  customerAccountId?: string | null;
  createdBy?: string | null;
}

async function addEntry(deps: WaitlistDeps, tenant: TenantContext, input: JoinInput, joiner: Joiner): Promise<JoinedEntry> {
  const now = nowOf(deps);
  const wish = { fromDate: input.fromDate, toDate: input.toDate, earliestTime: input.earliestTime ?? null, latestTime: input.latestTime ?? null };
  const problems = entryWishProblems(wish, utcToLocalDate(now, tenant.settings.timezone));
  if (problems.length) throw errors.validation('Request validation failed', problems);
  await servicesFor(deps.knex, tenant.id, input.serviceIds);
  await assertResourcesExist(deps.knex, tenant.id, [input.resourceId]);
  const phone = requirePhone(input.customer.phone, phoneRegionOf(tenant), 'customer.phone');
  const id = crypto.randomUUID();
  const { token, hash } = issueEntryToken(deps.entryKey, id);
  const asked: NewEntry = {
    id,
    tenantId: tenant.id,
    source: joiner.source,
    serviceIds: [...new Set(input.serviceIds)],
    resourceId: input.resourceId ?? null,
    ...wish,
    contactName: input.customer.name.trim(),
    contactPhone: phone,
    contactEmail: input.customer.email ? input.customer.email.trim().toLowerCase() : null,
    customerAccountId: joiner.customerAccountId ?? null,
    tokenHash: hash,
    createdBy: joiner.createdBy ?? null,
    language: languageOr(input.language, tenant.settings),
  };
  const join = (trx: Transaction) =>
    changeEntity(deps.signaller, waitlistEntryContract, { write: () => insertEntry(trx, asked), event: 'WaitlistEntryJoined' });
  // staff are the salon: they are told the caller already waits (409 WAITLIST_ENTRY_EXISTS)
  if (joiner.source === 'STAFF') return { ...entryDto(await deps.knex.transaction(join)), token };
  const entry = await deps.knex.transaction(async (trx) => {
    try {
      // a savepoint: the phone's entry is looked up in the same transaction when the constraint refuses this one
      return await trx.transaction(join);
    } catch (err) {
      if (!isExclusionViolation(err, 'waitlist_entries_one_per_phone')) throw err;
      await sendLinkAgain(deps, trx, tenant.id, asked);
      // the phone already waits: answered with a decoy of what was asked, so neither the answer nor its link tells that it does
      return insertEntry(trx, asked, true);
    }
  });
  return { ...entryDto(entry), token };
}

/**
 * A public join with a phone that already waits over overlapping dates (docs/rules/waitlist.md#joining):
 * the waiting entry's own contacts get its link again (its workflow, told WaitlistEntryLinkAsked),
 * at most WAITLIST_LINK_RESENDS times, so joins cannot be used to send its owner message after message.
 */
async function sendLinkAgain(deps: WaitlistDeps, trx: Transaction, tenantId: string, asked: NewEntry): Promise<void> {
  const waiting = await lockWaitingEntryOfPhone(trx, tenantId, asked.contactPhone, asked.fromDate, asked.toDate);
  if (!waiting || waiting.linkResends >= WAITLIST_LINK_RESENDS) return;
  await changeEntity(deps.signaller, waitlistEntryContract, { write: () => countLinkResend(trx, waiting), event: 'WaitlistEntryLinkAsked' });
}

/** POST /public/tenants/:slug/waitlist: a guest, or a signed-in customer's account. */
export async function joinWaitlist(deps: WaitlistDeps, tenant: TenantContext, input: JoinInput, customerAccountId?: string): Promise<JoinedEntry> {
  assertAcceptingBookings(tenant, nowOf(deps));
  return addEntry(deps, tenant, input, { source: 'PUBLIC', customerAccountId });
}

/** POST /waitlist: staff add a caller. */
export async function addWaitlistEntry(deps: WaitlistDeps, tenant: TenantContext, userId: string, input: JoinInput): Promise<JoinedEntry> {
  return addEntry(deps, tenant, input, { source: 'STAFF', createdBy: userId });
}

/** The entry when the token is its own; 404 otherwise (an unknown, another salon's or a wrong token look the same). */
async function entryWithToken(db: Db, tenantId: string, id: string, token: unknown): Promise<EntryRow> {
  const entry = await findEntry(db, tenantId, id);
  if (!entry || !entryTokenMatches(token, entry.tokenHash)) throw errors.notFound('waitlistEntry');
  return entry;
}

/** A decoy has no workflow to end it: past its last date it reads as an entry its workflow ended would. */
function asSeen(entry: EntryRow, tenant: TenantContext, now: Date): EntryRow {
  const over = entry.decoy && entry.status === 'WAITING' && entry.toDate < utcToLocalDate(now, tenant.settings.timezone);
  return over ? { ...entry, status: 'EXPIRED' } : entry;
}

/** GET /public/tenants/:slug/waitlist/:id?token= */
export async function viewEntry(deps: WaitlistDeps, tenant: TenantContext, id: string, token: unknown): Promise<WaitlistEntryDto> {
  return entryDto(asSeen(await entryWithToken(deps.knex, tenant.id, id, token), tenant, nowOf(deps)));
}

/**
 * Ends a WAITING entry (LEFT) and withdraws its open offer, releasing the held time. Leaving twice
 * is harmless; a BOOKED or EXPIRED entry is 409 WAITLIST_ENTRY_CLOSED.
 */
async function leave(deps: WaitlistDeps, trx: Transaction, tenant: TenantContext, row: EntryRow): Promise<void> {
  const entry = asSeen(row, tenant, nowOf(deps));
  if (entry.status === 'LEFT') return;
  if (entry.status !== 'WAITING') throw errors.conflict('WAITLIST_ENTRY_CLOSED', `The entry is ${entry.status.toLowerCase()}; it can no longer be left`);
  // a decoy has no workflow and no offers: leaving it is its row alone
  if (entry.decoy) return void (await moveEntry(trx, entry, 'LEFT'));
  await changeEntry(deps.signaller, trx, entry, 'LEFT', 'WaitlistEntryLeft');
  await withdrawOpenOffers(deps, trx, { entryId: entry.id });
}

/** DELETE /public/tenants/:slug/waitlist/:id?token= */
export async function leaveWaitlist(deps: WaitlistDeps, tenant: TenantContext, id: string, token: unknown): Promise<void> {
  await entryWithToken(deps.knex, tenant.id, id, token);
  await deps.knex.transaction(async (trx) => leave(deps, trx, tenant, (await lockEntry(trx, tenant.id, id))!));
}

/** DELETE /waitlist/:id (staff). */
export async function removeWaitlistEntry(deps: WaitlistDeps, tenant: TenantContext, id: string): Promise<void> {
  await deps.knex.transaction(async (trx) => {
    const entry = await lockEntry(trx, tenant.id, id);
    if (!entry) throw errors.notFound('waitlistEntry');
    await leave(deps, trx, tenant, entry);
  });
}

/** GET /waitlist (staff): first in line first. */
export async function listWaitlist(db: Db, tenant: TenantContext, filter: EntryFilter, page: PageQuery): Promise<PageResult<WaitlistEntryDto>> {
  const result = await pageOfEntries(db, tenant.id, filter, page);
  return { ...result, rows: result.rows.map(entryDto) };
}

/** GET /customer/me/waitlist: the signed-in customer's entries in every salon. */
export async function listOwnWaitlist(db: Db, customerAccountId: string, page: PageQuery): Promise<PageResult<ReturnType<typeof accountEntryDto>>> {
  const result = await pageOfAccountEntries(db, customerAccountId, page);
  return { ...result, rows: result.rows.map(accountEntryDto) };
}
