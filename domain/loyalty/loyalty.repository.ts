// Every query of the loyalty area. Each function takes the pool or the caller's transaction first,
// is scoped by tenant, queries through the loyalty models of db/models, and returns plain rows
// typed with the domain's enums (camelCase here, snake_case in Postgres).
import { fn, raw } from 'objection';
import type { PointsLedgerEntry, PointsTransactionType } from './points-expiry.rules';
import type { Db } from '../../db/db-handle';
import { LoyaltyCardModel } from '../../db/models/loyalty-card.model';
import { LoyaltyStampModel } from '../../db/models/loyalty-stamp.model';
import { LoyaltyVoucherModel } from '../../db/models/loyalty-voucher.model';
import { LoyaltyVoucherEventModel } from '../../db/models/loyalty-voucher-event.model';
import { LoyaltyVoucherNotificationModel } from '../../db/models/loyalty-voucher-notification.model';
import { LoyaltyPointsBalanceModel } from '../../db/models/loyalty-points-balance.model';
import { LoyaltyPointsTransactionModel } from '../../db/models/loyalty-points-transaction.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain, returnedRows } from '../../db/plain';
import { contactOfTenantCustomer } from '../customer/tenant-customer.repository';
import { latestBookingLanguage } from '../booking/booking-customer.repository';
import type { Language } from '../language/language.rules';
import { phoneRegionOf, type PhoneRegion } from '../phone/phone.rules';
import type { LoyaltyCardType, RewardType, VoucherStatus } from './loyalty.rules';

export interface CardRow {
  id: string;
  tenantId: string;
  name: string;
  type: LoyaltyCardType;
  isActive: boolean;
  requiredStamps: number | null;
  minBookingValue: number | null;
  voucherExpiryMonths: number | null;
  rewardType: RewardType | null;
  rewardValue: number | null;
  earnRate: number | null;
  redeemRate: number | null;
  expiryMonths: number | null;
  minRedemption: number | null;
  serviceIds: string[];
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type CardFields = Partial<Omit<CardRow, 'id' | 'tenantId' | 'deletedAt' | 'createdAt' | 'updatedAt'>>;

export interface VoucherRow {
  id: string;
  tenantId: string;
  loyaltyCardId: string;
  tenantCustomerId: string;
  code: string;
  rewardType: RewardType;
  rewardValue: number;
  status: VoucherStatus;
  issuedAt: Date;
  expiresAt: Date | null;
  issuedFromCycleNumber: number;
  issuedFromBookingId: string | null;
  reservedBookingId: string | null;
  reservedAt: Date | null;
  redeemedBookingId: string | null;
  redeemedAt: Date | null;
  discountApplied: number | null;
  cancelledAt: Date | null;
  cancelledReason: string | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface StampRow {
  id: string;
  tenantId: string;
  loyaltyCardId: string;
  tenantCustomerId: string;
  bookingId: string;
  stampNumber: number;
  cycleNumber: number;
  createdAt: Date;
}

export interface VoucherEventRow {
  id: string;
  voucherId: string;
  action: string;
  fromStatus: VoucherStatus | null;
  toStatus: VoucherStatus;
  bookingId: string | null;
  actorUserId: string | null;
  actorRole: string;
  reason: string | null;
  createdAt: Date;
}

export interface PointsTransactionRow {
  id: string;
  loyaltyCardId: string;
  tenantCustomerId: string;
  type: PointsTransactionType;
  points: number;
  balanceAfter: number;
  bookingId: string | null;
  reason: string | null;
  actorUserId: string | null;
  expiresAt: Date | null;
  createdAt: Date;
}

/** db/ types the enums as strings; the domain's rows narrow them. */
const cardRow = (model: LoyaltyCardModel): CardRow => plain(model) as unknown as CardRow;
const voucherRow = (model: LoyaltyVoucherModel): VoucherRow => plain(model) as unknown as VoucherRow;

// ---- cards

export async function insertCard(db: Db, tenantId: string, fields: CardFields): Promise<CardRow> {
  return cardRow(
    await LoyaltyCardModel.query(db)
      .insert({ ...fields, tenantId })
      .returning('*'),
  );
}

export async function findCard(db: Db, tenantId: string, id: string): Promise<CardRow | undefined> {
  const row = await LoyaltyCardModel.query(db).findOne({ tenantId, id }).whereNull('deletedAt');
  return row && cardRow(row);
}

export async function pageOfCards(
  db: Db,
  tenantId: string,
  filter: { type?: LoyaltyCardType; isActive?: boolean },
  page: PageQuery,
): Promise<PageResult<CardRow>> {
  const q = LoyaltyCardModel.query(db).where({ tenantId }).whereNull('deletedAt');
  if (filter.type) q.where({ type: filter.type });
  if (filter.isActive !== undefined) q.where({ isActive: filter.isActive });
  q.orderBy([
    { column: 'createdAt', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
  return (await paginate(q, page)) as unknown as PageResult<CardRow>;
}

export async function activeCards(db: Db, tenantId: string, type?: LoyaltyCardType): Promise<CardRow[]> {
  const q = LoyaltyCardModel.query(db).where({ tenantId, isActive: true }).whereNull('deletedAt');
  if (type) q.where({ type });
  return (await q.orderBy('createdAt')).map(cardRow);
}

export async function cardsOfTenant(db: Db, tenantId: string): Promise<CardRow[]> {
  return (await LoyaltyCardModel.query(db).where({ tenantId }).whereNull('deletedAt').orderBy('createdAt')).map(cardRow);
}

export async function updateCard(db: Db, tenantId: string, id: string, fields: CardFields): Promise<void> {
  await LoyaltyCardModel.query(db)
    .patch({ ...fields, updatedAt: fn.now() })
    .where({ tenantId, id });
}

export async function softDeleteCard(db: Db, tenantId: string, id: string): Promise<boolean> {
  const n = await LoyaltyCardModel.query(db)
    .patch({ deletedAt: fn.now(), isActive: false, updatedAt: fn.now() })
    .where({ tenantId, id })
    .whereNull('deletedAt');
  return n > 0;
}

// ---- stamps

export async function countVouchersIssued(db: Db, cardId: string, tenantCustomerId: string): Promise<number> {
  return LoyaltyVoucherModel.query(db).where({ loyaltyCardId: cardId, tenantCustomerId }).resultSize();
}

export async function countStampsInCycle(db: Db, cardId: string, tenantCustomerId: string, cycleNumber: number): Promise<number> {
  return LoyaltyStampModel.query(db).where({ loyaltyCardId: cardId, tenantCustomerId, cycleNumber }).resultSize();
}

/** One stamp per (card, booking): undefined when the booking already has its stamp. */
export async function insertStampOnce(db: Db, stamp: Omit<StampRow, 'id' | 'createdAt'>): Promise<StampRow | undefined> {
  const [row] = await returnedRows<StampRow>(LoyaltyStampModel.query(db).insert(stamp).onConflict(['loyaltyCardId', 'bookingId']).ignore().returning('*'));
  return row;
}

export async function stampsOf(db: Db, tenantId: string, cardId: string, tenantCustomerId: string): Promise<StampRow[]> {
  return (
    await LoyaltyStampModel.query(db)
      .where({ tenantId, loyaltyCardId: cardId, tenantCustomerId })
      .orderBy([{ column: 'cycleNumber' }, { column: 'stampNumber' }])
  ).map(plain);
}

// ---- vouchers

export async function insertVoucher(
  db: Db,
  voucher: Omit<
    VoucherRow,
    | 'id'
    | 'status'
    | 'version'
    | 'createdAt'
    | 'updatedAt'
    | 'reservedBookingId'
    | 'reservedAt'
    | 'redeemedBookingId'
    | 'redeemedAt'
    | 'discountApplied'
    | 'cancelledAt'
    | 'cancelledReason'
  >,
): Promise<VoucherRow> {
  return voucherRow(await LoyaltyVoucherModel.query(db).insert(voucher).returning('*'));
}

export async function findVoucher(db: Db, tenantId: string, id: string): Promise<VoucherRow | undefined> {
  const row = await LoyaltyVoucherModel.query(db).findOne({ tenantId, id });
  return row && voucherRow(row);
}

export async function findVoucherById(db: Db, id: string): Promise<VoucherRow | undefined> {
  const row = await LoyaltyVoucherModel.query(db).findById(id);
  return row && voucherRow(row);
}

/** Case-insensitive lookup of a normalised code in one salon. */
export async function findVoucherByCode(db: Db, tenantId: string, code: string): Promise<VoucherRow | undefined> {
  const row = await LoyaltyVoucherModel.query(db).where({ tenantId }).whereRaw('upper(code) = ?', [code.toUpperCase()]).first();
  return row && voucherRow(row);
}

/**
 * Compare-and-set: writes `changes` (version + 1) only while the voucher is still in `from`.
 * Returns the new row, or undefined when someone else moved it first.
 */
export async function transitionVoucher(
  db: Db,
  voucher: { id: string; tenantId: string },
  from: VoucherStatus,
  changes: Partial<VoucherRow>,
): Promise<VoucherRow | undefined> {
  const [row] = await LoyaltyVoucherModel.query(db)
    .patch({ ...changes, version: raw('version + 1'), updatedAt: fn.now() })
    .where({ id: voucher.id, tenantId: voucher.tenantId, status: from })
    .returning('*');
  return row && voucherRow(row);
}

export async function insertVoucherEvent(db: Db, tenantId: string, event: Omit<VoucherEventRow, 'id' | 'createdAt'>): Promise<void> {
  await LoyaltyVoucherEventModel.query(db).insert({ ...event, tenantId });
}

export async function countVoucherEvents(db: Db, voucherId: string, action: string): Promise<number> {
  return LoyaltyVoucherEventModel.query(db).where({ voucherId, action }).resultSize();
}

export async function voucherEvents(db: Db, tenantId: string, voucherId: string): Promise<VoucherEventRow[]> {
  return (
    await LoyaltyVoucherEventModel.query(db)
      .where({ tenantId, voucherId })
      .orderBy([{ column: 'createdAt' }, { column: 'id' }])
  ).map((e) => plain(e) as VoucherEventRow);
}

export interface VoucherFilter {
  status?: VoucherStatus[];
  customerId?: string;
  tenantCustomerId?: string;
  loyaltyCardId?: string;
}

export async function pageOfVouchers(db: Db, tenantId: string, filter: VoucherFilter, page: PageQuery): Promise<PageResult<VoucherRow>> {
  const q = LoyaltyVoucherModel.query(db).where('loyalty_vouchers.tenantId', tenantId);
  if (filter.status?.length) q.whereIn('loyalty_vouchers.status', filter.status);
  if (filter.tenantCustomerId) q.where('loyalty_vouchers.tenantCustomerId', filter.tenantCustomerId);
  if (filter.loyaltyCardId) q.where('loyalty_vouchers.loyaltyCardId', filter.loyaltyCardId);
  if (filter.customerId) q.join('tenant_customers as tc', 'tc.id', 'loyalty_vouchers.tenantCustomerId').where('tc.customerId', filter.customerId);
  q.select('loyalty_vouchers.*').orderBy([
    { column: 'loyalty_vouchers.issuedAt', order: 'desc' },
    { column: 'loyalty_vouchers.id', order: 'desc' },
  ]);
  return (await paginate(q, page)) as unknown as PageResult<VoucherRow>;
}

export async function vouchersOfTenantCustomer(db: Db, tenantId: string, tenantCustomerId: string, statuses?: VoucherStatus[]): Promise<VoucherRow[]> {
  const q = LoyaltyVoucherModel.query(db).where({ tenantId, tenantCustomerId });
  if (statuses) q.whereIn('status', statuses);
  return (
    await q.orderBy([
      { column: 'issuedAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
  ).map(voucherRow);
}

/** Vouchers of the given customer rows (one per salon) in any salon, with the salon's name and slug. */
export async function vouchersOfCustomers(
  db: Db,
  customerIds: string[],
  statuses: VoucherStatus[],
): Promise<(VoucherRow & { tenantName: string; tenantSlug: string })[]> {
  if (!customerIds.length) return [];
  const rows = await LoyaltyVoucherModel.query(db)
    .join('tenant_customers as tc', 'tc.id', 'loyalty_vouchers.tenantCustomerId')
    .join('tenants as t', 't.id', 'loyalty_vouchers.tenantId')
    .whereIn('tc.customerId', customerIds)
    .whereIn('loyalty_vouchers.status', statuses)
    .select('loyalty_vouchers.*', 't.name as tenantName', 't.slug as tenantSlug')
    .orderBy([
      { column: 'loyalty_vouchers.issuedAt', order: 'desc' },
      { column: 'loyalty_vouchers.id', order: 'desc' },
    ]);
  return rows.map((r) => plain(r) as unknown as VoucherRow & { tenantName: string; tenantSlug: string });
}

// ---- points

export async function lockBalance(db: Db, tenantId: string, cardId: string, tenantCustomerId: string): Promise<number> {
  await LoyaltyPointsBalanceModel.query(db)
    .insert({ tenantId, loyaltyCardId: cardId, tenantCustomerId, balance: 0 })
    .onConflict(['loyaltyCardId', 'tenantCustomerId'])
    .ignore();
  const row = await LoyaltyPointsBalanceModel.query(db).select('balance').findOne({ loyaltyCardId: cardId, tenantCustomerId }).forUpdate();
  return row!.balance;
}

export async function setBalance(db: Db, cardId: string, tenantCustomerId: string, balance: number): Promise<void> {
  await LoyaltyPointsBalanceModel.query(db).patch({ balance, updatedAt: fn.now() }).where({ loyaltyCardId: cardId, tenantCustomerId });
}

export async function insertPointsTransaction(
  db: Db,
  tenantId: string,
  tx: Omit<PointsTransactionRow, 'id' | 'createdAt'>,
): Promise<PointsTransactionRow | undefined> {
  return plain(
    await LoyaltyPointsTransactionModel.query(db)
      .insert({ ...tx, tenantId })
      .returning('*'),
  ) as PointsTransactionRow;
}

export async function hasEarnedFor(db: Db, cardId: string, bookingId: string): Promise<boolean> {
  return !!(await LoyaltyPointsTransactionModel.query(db).select('id').findOne({ loyaltyCardId: cardId, bookingId, type: 'EARN' }));
}

export async function pointsTransactions(db: Db, tenantId: string, cardId: string, tenantCustomerId: string, limit = 100): Promise<PointsTransactionRow[]> {
  const rows = await LoyaltyPointsTransactionModel.query(db)
    .where({ tenantId, loyaltyCardId: cardId, tenantCustomerId })
    .orderBy([
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);
  return rows.map((r) => plain(r) as PointsTransactionRow);
}

/** Every points transaction of one (card, customer), oldest first: what expiry is computed from. */
export async function pointsLedger(db: Db, tenantId: string, cardId: string, tenantCustomerId: string): Promise<PointsLedgerEntry[]> {
  const rows = await LoyaltyPointsTransactionModel.query(db)
    .where({ tenantId, loyaltyCardId: cardId, tenantCustomerId })
    .orderBy([
      { column: 'createdAt', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .select('type', 'points', 'expiresAt', 'createdAt');
  return rows.map((r) => plain(r) as PointsLedgerEntry);
}

export async function balancesOfTenantCustomer(db: Db, tenantId: string, tenantCustomerId: string): Promise<{ loyaltyCardId: string; balance: number }[]> {
  return (await LoyaltyPointsBalanceModel.query(db).where({ tenantId, tenantCustomerId }).select('loyaltyCardId', 'balance')).map((r) => ({
    loyaltyCardId: r.loyaltyCardId,
    balance: r.balance,
  }));
}

// ---- voucher messages

export interface VoucherMessageContext {
  voucher: VoucherRow;
  tenantName: string;
  timezone: string;
  customerName: string;
  phone: string | null;
  email: string | null;
  currency: string;
  /** the language of the customer's latest booking at the salon (docs/rules/messages.md#language) */
  language: Language;
  /** the salon's country: its numbers alone get its SMS */
  region: PhoneRegion;
}

export async function voucherMessageContext(db: Db, voucherId: string): Promise<VoucherMessageContext | undefined> {
  const voucher = await findVoucherById(db, voucherId);
  if (!voucher) return undefined;
  const contact = (await contactOfTenantCustomer(db, voucher.tenantCustomerId))!;
  const language = (await latestBookingLanguage(db, voucher.tenantId, contact.customerId)) ?? 'nb';
  return {
    voucher,
    tenantName: contact.tenantName,
    timezone: contact.timezone ?? 'Europe/Oslo',
    customerName: contact.customerName,
    phone: contact.phone,
    email: contact.email,
    currency: contact.currency ?? 'NOK',
    language,
    region: phoneRegionOf({ address: contact.address }),
  };
}

/** Claims the (voucher, channel, dedupe key) message row; returns its id and whether it was already sent. */
export async function claimVoucherNotification(
  db: Db,
  claim: { tenantId: string; voucherId: string; channel: string; kind: string; dedupeKey: string },
): Promise<{ id: string; sentAt: Date | null }> {
  await LoyaltyVoucherNotificationModel.query(db).insert(claim).onConflict(['voucherId', 'channel', 'dedupeKey']).ignore();
  const row = (await LoyaltyVoucherNotificationModel.query(db)
    .select('id', 'sentAt')
    .findOne({ voucherId: claim.voucherId, channel: claim.channel, dedupeKey: claim.dedupeKey }))!;
  return { id: row.id, sentAt: row.sentAt };
}

/** Stamped once the gateway took the message, with where it went and what it said (docs/rules/personal-data.md#what-is-kept). */
export async function markVoucherNotificationSent(db: Db, id: string, sent: { to: string; text: string } | null = null): Promise<void> {
  await LoyaltyVoucherNotificationModel.query(db)
    .patch({ sentAt: fn.now(), sentTo: sent?.to ?? null, text: sent?.text ?? null })
    .where({ id });
}
