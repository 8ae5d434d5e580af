// The steps of an erasure (docs/rules/personal-data.md#erasure), each one an activity of the request's
// workflow and each safe to run again: the moment of erasure, the cancellations, the notice, the rest
// of the person's data, the account, the outbox copies, the outcome. A step's writes and its counts
// commit together. The retention's pseudonymisation (retention.service.ts) is the moment and the
// rest, for a customer with nothing still to come, in one transaction.
import type { Db, DbPool, Transaction } from '../../db/db-handle';
import { errors } from '../errors';
import { nowOf } from '../time/clock';
import { tenantById, type TenantContext } from '../tenant/tenant-context';
import { salonLanguage, type Language } from '../language/language.rules';
import type { LinkKey } from '../crypto/link-key';
import type { BookingDeps, Actor } from '../booking/booking.types';
import { GUEST_ACTOR } from '../booking/booking.types';
import { REMINDABLE_BOOKING_STATUSES } from '../booking/booking-status.rules';
import { lockBookingRow } from '../booking/booking.repository';
import { applyCancellation } from '../booking/booking-cancel.service';
import * as bookings from '../booking/booking-personal-data.repository';
import {
  lockCustomerRecord,
  eraseCustomerIdentity,
  clearSalonNotes,
  deletePhoneIssuesOf,
  recordsOfAccount,
} from '../customer/customer-personal-data.repository';
import { findCustomer } from '../customer/customer.repository';
import { tenantCustomerIdOf } from '../customer/tenant-customer.repository';
import { deleteMarketingConsentsOf } from '../customer/marketing-consent.repository';
import { entriesOfPerson, clearEntryContacts } from '../waitlist/waitlist-personal-data.repository';
import { removeWaitlistEntry } from '../waitlist/waitlist.service';
import { activeVoucherIdsOf, clearVoucherMessages, vouchersCancelledWithReason } from '../loyalty/loyalty-personal-data.repository';
import { cancelVoucher } from '../loyalty/loyalty-voucher.service';
import { seriesOfOwner, clearSeriesIdentity, type SeriesOwner } from '../series/series-personal-data.repository';
import { endSeries } from '../series/series.service';
import { nudgeIdsOf, clearNudgeMessages } from '../rebooking/rebooking-personal-data.repository';
import { clearRepliesOf } from '../notifications/sms-reply-personal-data.repository';
import { renderErasureNotice } from '../notifications/personal-data-messages.rules';
import type { RenderedMessage } from '../notifications/booking-messages.rules';
import { findAccount, deleteAccount, revokeCustomerRefreshTokens } from '../customer-account/customer-account.repository';
import { ERASED_CUSTOMER_NAME } from './personal-data.rules';
import { ERASURE_CANCEL_REASON } from './erasure-events.rules';
import {
  addToOutcome,
  childErasures,
  claimErasure,
  completeErasureRow,
  erasureNoticeChannels,
  findErasure,
  keepNoticeAddress,
  lockErasure,
  type ErasureRow,
} from './personal-data.repository';
import type { ErasureSnapshot } from './erasure-events.rules';

/** What the steps need: the booking services' dependencies (the cancellations), the waitlist's key. */
export interface ErasureDeps extends Omit<BookingDeps, 'knex'> {
  knex: DbPool;
  entryKey: LinkKey;
}

const customerSubject = (e: ErasureRow): e is ErasureRow & { tenantId: string; customerId: string } => e.customerId !== null && e.tenantId !== null;

async function existing(db: Db, erasureId: string): Promise<ErasureRow> {
  const erasure = await findErasure(db, erasureId);
  if (!erasure) throw errors.notFound('erasure');
  return erasure;
}

export async function erasureSnapshot(db: Db, erasureId: string): Promise<ErasureSnapshot | undefined> {
  const e = await findErasure(db, erasureId);
  return e && { erasureId: e.id, version: e.version, status: e.status, subject: e.customerId ? 'CUSTOMER' : 'ACCOUNT' };
}

// ---------------------------------------------------------------- the person at one salon, shared with the retention

export interface PersonAtSalon {
  tenant: TenantContext;
  customerId: string;
}

/**
 * The moment of erasure of one salon record, in the caller's transaction: their waiting waitlist
 * entries are left and every entry of theirs loses its contact; then, under the record's row lock,
 * their bookings lose their contact and the record its identity. Waitlist first, record second: the
 * order an accepted offer takes its locks in. Undefined when the record was erased already; else
 * what it found and did.
 */
export async function eraseAtTheMoment(
  deps: ErasureDeps,
  trx: Transaction,
  person: PersonAtSalon,
  at: Date,
): Promise<{ phone: string | null; email: string | null; waitlistEntriesLeft: number } | undefined> {
  const { tenant, customerId } = person;
  const before = await findCustomer(trx, tenant.id, customerId);
  if (!before || before.erased) return undefined;
  const entries = await entriesOfPerson(trx, tenant.id, {
    phones: before.phone ? [before.phone] : [],
    emails: before.email ? [before.email] : [],
    accountId: before.accountId,
  });
  const waiting = entries.filter((e) => e.status === 'WAITING');
  for (const entry of waiting) await removeWaitlistEntry({ knex: trx, signaller: deps.signaller, entryKey: deps.entryKey }, tenant, entry.id);
  await clearEntryContacts(
    trx,
    entries.map((e) => e.id),
  );
  await deletePhoneIssuesOf(
    trx,
    entries.map((e) => e.id),
  );
  const customer = await lockCustomerRecord(trx, tenant.id, customerId);
  if (!customer || customer.erased) return undefined;
  await bookings.clearBookingContacts(trx, await bookings.bookingIdsOf(trx, { tenantId: tenant.id, customerId }));
  await eraseCustomerIdentity(trx, tenant.id, customerId, ERASED_CUSTOMER_NAME, at);
  return { phone: customer.phone, email: customer.email, waitlistEntriesLeft: waiting.length };
}

/** The rest of one salon record's personal data, in the caller's transaction; answers its counts. */
export async function eraseTheRest(
  trx: Transaction,
  person: PersonAtSalon,
  phones: string[],
  at: Date,
): Promise<{ bookingsKeptForAccounts: number; messagesCleared: number }> {
  const { tenant, customerId } = person;
  const bookingIds = await bookings.bookingIdsOf(trx, { tenantId: tenant.id, customerId });
  let messagesCleared = await bookings.clearBookingMessages(trx, bookingIds);
  const bookingsKeptForAccounts = await bookings.removeBookingIdentity(trx, bookingIds, ERASURE_CANCEL_REASON, at);
  messagesCleared += await clearRepliesOf(trx, tenant.id, { bookingIds, phones });
  await clearSalonNotes(trx, tenant.id, customerId);
  const tenantCustomerId = await tenantCustomerIdOf(trx, tenant.id, customerId);
  if (tenantCustomerId) messagesCleared += await clearVoucherMessages(trx, tenant.id, tenantCustomerId);
  messagesCleared += await clearSeriesIdentity(
    trx,
    (await seriesOfOwner(trx, { tenantId: tenant.id, customerId })).map((s) => s.id),
  );
  messagesCleared += await clearNudgeMessages(trx, await nudgeIdsOf(trx, tenant.id, customerId));
  await deleteMarketingConsentsOf(trx, customerId);
  await deletePhoneIssuesOf(trx, [customerId, ...bookingIds]);
  return { bookingsKeptForAccounts, messagesCleared };
}

// ---------------------------------------------------------------- step 1: the moment of erasure

async function beginRecord(deps: ErasureDeps, erasureId: string, at: Date): Promise<void> {
  await deps.knex.transaction(async (trx) => {
    const e = await lockErasure(trx, erasureId);
    if (!e || e.status === 'COMPLETED' || !customerSubject(e)) return;
    const tenant = await tenantById(trx, e.tenantId);
    const erased = await eraseAtTheMoment(deps, trx, { tenant, customerId: e.customerId }, at);
    if (!erased) return;
    await keepNoticeAddress(trx, e.id, { phone: erased.phone, email: erased.email, language: salonLanguage(tenant.settings) });
    await addToOutcome(trx, e.id, { waitlistEntriesLeft: erased.waitlistEntriesLeft });
  });
}

/**
 * Step 1. A salon record: the moment of erasure. An account: its sign-in sessions end, each salon
 * record linked to it gets its own request (a child of this one) and its moment, and the account's
 * own bookings and entries elsewhere lose their contact. Answers the requests of the records, this
 * one last, which the next steps run over.
 */
export async function beginErasure(deps: ErasureDeps, erasureId: string): Promise<{ records: string[] }> {
  const at = nowOf(deps);
  const erasure = await existing(deps.knex, erasureId);
  if (customerSubject(erasure)) {
    await beginRecord(deps, erasureId, at);
    return { records: [erasureId] };
  }
  const accountId = erasure.customerAccountId!;
  await deps.knex.transaction(async (trx) => {
    const e = await lockErasure(trx, erasureId);
    const account = await findAccount(trx, accountId, true);
    if (!e || e.status === 'COMPLETED' || !account) return;
    await keepNoticeAddress(trx, e.id, { phone: account.phone, email: account.email, language: 'nb' });
    await revokeCustomerRefreshTokens(trx, { accountId }, at);
  });
  for (const record of await recordsOfAccount(deps.knex, accountId)) {
    await claimErasure(deps.knex, {
      ...record,
      customerAccountId: accountId,
      parentId: erasureId,
      requestedBy: 'CUSTOMER',
      requestedByUserId: null,
      requestedAt: at,
    });
  }
  const children = (await childErasures(deps.knex, erasureId)).map((c) => c.id);
  for (const child of children) await beginRecord(deps, child, at);
  await deps.knex.transaction(async (trx) => {
    const e = await lockErasure(trx, erasureId);
    if (!e || e.status === 'COMPLETED') return;
    // the account's own entries and bookings, wherever they are (a phone typed elsewhere may be someone else's: only the account counts)
    const entries = await entriesOfPerson(trx, null, { phones: [], emails: [], accountId });
    const waiting = entries.filter((x) => x.status === 'WAITING');
    for (const entry of waiting)
      await removeWaitlistEntry({ knex: trx, signaller: deps.signaller, entryKey: deps.entryKey }, await tenantById(trx, entry.tenantId), entry.id);
    await clearEntryContacts(
      trx,
      entries.map((x) => x.id),
    );
    await bookings.clearBookingContacts(trx, await bookings.bookingIdsOf(trx, { accountId }));
    await addToOutcome(trx, e.id, { waitlistEntriesLeft: waiting.length });
  });
  return { records: [...children, erasureId] };
}

// ---------------------------------------------------------------- step 2: what is still to come

/** Cancelled as the salon (its owner asked) or as the customer (they asked): the deposit rules of either. */
function cancellingActor(e: ErasureRow): { actor: Actor; bySalon: boolean } {
  if (e.requestedBy === 'SALON') return { actor: { userId: e.requestedByUserId, role: 'OWNER', resourceId: null }, bySalon: true };
  return { actor: GUEST_ACTOR, bySalon: false };
}

/**
 * Step 2, for one request of `records`: the bookings still to come are cancelled through the normal
 * cancellation, one transaction each (a booking settled meanwhile is left alone), and the record's
 * standing appointments ended and its active vouchers cancelled.
 */
export async function cancelWhatIsToCome(deps: ErasureDeps, erasureId: string): Promise<void> {
  const now = nowOf(deps);
  const e = await existing(deps.knex, erasureId);
  if (e.status === 'COMPLETED') return;
  const { actor, bySalon } = cancellingActor(e);
  const owner = customerSubject(e) ? { tenantId: e.tenantId, customerId: e.customerId } : { accountId: e.customerAccountId! };
  const seriesOwner: SeriesOwner = owner;
  // read first: cancelling the booking a series was made from ends that series too (docs/rules/series.md)
  const activeSeries = (await seriesOfOwner(deps.knex, seriesOwner)).filter((s) => s.status === 'ACTIVE').map((s) => s.id);
  for (const booking of await bookings.openFutureBookingsOf(deps.knex, owner, now)) {
    await deps.knex.transaction(async (trx) => {
      const row = await lockBookingRow(trx, booking.tenantId, booking.id);
      if (!REMINDABLE_BOOKING_STATUSES.includes(row.status)) return;
      const tenant = await tenantById(trx, booking.tenantId);
      await applyCancellation({ ...deps, knex: trx }, trx, tenant, row, actor, { bySalon, reason: ERASURE_CANCEL_REASON, now });
      await addToOutcome(trx, e.id, { bookingsCancelled: 1 });
    });
  }
  for (const series of (await seriesOfOwner(deps.knex, seriesOwner)).filter((s) => activeSeries.includes(s.id))) {
    const owning: Actor = { userId: e.requestedByUserId, role: 'OWNER', resourceId: null };
    await deps.knex.transaction(async (trx) => {
      if (series.status === 'ACTIVE')
        await endSeries({ ...deps, knex: trx }, await tenantById(trx, series.tenantId), owning, series.id, { cancelBooked: false });
      await addToOutcome(trx, e.id, { seriesEnded: 1 });
    });
  }
  if (!customerSubject(e)) return;
  const tenantCustomerId = await tenantCustomerIdOf(deps.knex, e.tenantId, e.customerId);
  if (!tenantCustomerId) return;
  // a voucher reserved for a booking came back with its cancellation above, so it is cancelled here too
  for (const voucherId of await activeVoucherIdsOf(deps.knex, e.tenantId, tenantCustomerId)) {
    await cancelVoucher(
      deps.knex,
      deps.signaller,
      e.tenantId,
      voucherId,
      ERASURE_CANCEL_REASON,
      { userId: e.requestedByUserId, role: bySalon ? 'OWNER' : 'CUSTOMER' },
      now,
    );
  }
}

// ---------------------------------------------------------------- step 3: the notice

/** Step 3: who the notice goes to (the address kept on the request) and what it says; null once the request is completed. */
export async function erasureNotice(db: Db, erasureId: string): Promise<{ phone: string | null; email: string | null; message: RenderedMessage } | null> {
  const e = await existing(db, erasureId);
  if (e.status === 'COMPLETED') return null;
  const records = customerSubject(e) ? [e] : await childErasures(db, e.id);
  const salons: TenantContext[] = [];
  const cancelled: { start: Date; timezone: string }[] = [];
  for (const r of records) {
    if (!customerSubject(r)) continue;
    const tenant = await tenantById(db, r.tenantId);
    salons.push(tenant);
    const ids = await bookings.bookingIdsOf(db, { tenantId: r.tenantId, customerId: r.customerId });
    for (const b of await bookings.bookingsCancelledWithReason(db, ids, ERASURE_CANCEL_REASON))
      cancelled.push({ start: new Date(b.startTime), timezone: tenant.settings.timezone });
  }
  if (!customerSubject(e)) {
    const own = await bookings.bookingsCancelledWithReason(db, await bookings.bookingIdsOf(db, { accountId: e.customerAccountId! }), ERASURE_CANCEL_REASON);
    for (const b of own) {
      if (cancelled.some((c) => c.start.getTime() === new Date(b.startTime).getTime())) continue;
      const tenant = await tenantById(db, b.tenantId);
      if (!salons.some((s) => s.id === tenant.id)) salons.push(tenant);
      cancelled.push({ start: new Date(b.startTime), timezone: tenant.settings.timezone });
    }
  }
  const language: Language = e.noticeLanguage ?? 'nb';
  const message = renderErasureNotice(
    { salonNames: salons.map((s) => s.name), account: !customerSubject(e), cancelled: cancelled.sort((a, b) => a.start.getTime() - b.start.getTime()) },
    language,
  );
  return { phone: e.noticePhone, email: e.noticeEmail, message };
}

// ---------------------------------------------------------------- step 4: the rest

/** Step 4, for one request of `records`: the rest of the person's data (a salon record), or of the account's own bookings elsewhere. */
export async function eraseRemainingData(deps: ErasureDeps, erasureId: string): Promise<void> {
  const at = nowOf(deps);
  await deps.knex.transaction(async (trx) => {
    const e = await lockErasure(trx, erasureId);
    if (!e || e.status === 'COMPLETED') return;
    const phones = e.noticePhone ? [e.noticePhone] : [];
    if (customerSubject(e)) {
      const counts = await eraseTheRest(trx, { tenant: await tenantById(trx, e.tenantId), customerId: e.customerId }, phones, at);
      await addToOutcome(trx, e.id, counts);
      return;
    }
    const bookingIds = await bookings.bookingIdsOf(trx, { accountId: e.customerAccountId! });
    let messagesCleared = await bookings.clearBookingMessages(trx, bookingIds);
    const bookingsKeptForAccounts = await bookings.removeBookingIdentity(trx, bookingIds, ERASURE_CANCEL_REASON, at);
    messagesCleared += await clearRepliesOf(trx, null, { bookingIds, phones });
    messagesCleared += await clearSeriesIdentity(
      trx,
      (await seriesOfOwner(trx, { accountId: e.customerAccountId! })).map((s) => s.id),
    );
    await deletePhoneIssuesOf(trx, bookingIds);
    await addToOutcome(trx, e.id, { bookingsKeptForAccounts, messagesCleared });
  });
}

/** Step 4 of an account's request: the account goes, with its sign-in identities, sessions and phone checks (the foreign keys cascade). */
export async function removeAccount(deps: ErasureDeps, erasureId: string): Promise<void> {
  const e = await existing(deps.knex, erasureId);
  if (e.status === 'COMPLETED' || customerSubject(e) || !e.customerAccountId) return;
  await deleteAccount(deps.knex, e.customerAccountId);
}

// ---------------------------------------------------------------- step 5 and the end

/** The addresses whose outbox copies go: the request's and its records'. */
export async function erasedAddresses(db: Db, erasureId: string): Promise<string[]> {
  const e = await existing(db, erasureId);
  const rows = [e, ...(customerSubject(e) ? [] : await childErasures(db, e.id))];
  const out = new Set<string>();
  for (const r of rows) {
    if (r.noticePhone) {
      out.add(r.noticePhone);
      out.add(r.noticePhone.replace(/^\+/, ''));
    }
    if (r.noticeEmail) out.add(r.noticeEmail.toLowerCase());
  }
  return [...out];
}

export async function countSentCopiesRemoved(db: DbPool, erasureId: string, removed: number): Promise<void> {
  await db.transaction((trx) => addToOutcome(trx, erasureId, { sentCopiesRemoved: removed }));
}

/** The record's vouchers an erasure cancelled. */
async function vouchersCancelledOf(db: Db, e: ErasureRow): Promise<number> {
  if (!customerSubject(e)) return 0;
  const tenantCustomerId = await tenantCustomerIdOf(db, e.tenantId, e.customerId);
  return tenantCustomerId ? vouchersCancelledWithReason(db, e.tenantId, tenantCustomerId, ERASURE_CANCEL_REASON) : 0;
}

/** Step 6: COMPLETED with its outcome (and each record of an account's request), the kept addresses removed. */
export async function completeErasure(deps: ErasureDeps, erasureId: string): Promise<void> {
  const at = nowOf(deps);
  await deps.knex.transaction(async (trx) => {
    const e = await lockErasure(trx, erasureId);
    if (!e || e.status === 'COMPLETED') return;
    const noticeSentBy = await erasureNoticeChannels(trx, e.id);
    if (customerSubject(e)) {
      await completeErasureRow(trx, e, { ...e.outcome, vouchersCancelled: await vouchersCancelledOf(trx, e), noticeSentBy }, at);
      return;
    }
    const children = await childErasures(trx, e.id);
    for (const child of children) {
      const locked = await lockErasure(trx, child.id);
      if (locked && locked.status !== 'COMPLETED')
        await completeErasureRow(trx, locked, { ...locked.outcome, vouchersCancelled: await vouchersCancelledOf(trx, locked) }, at);
    }
    await completeErasureRow(trx, e, { ...e.outcome, salonRecords: children.length, noticeSentBy }, at);
  });
}
