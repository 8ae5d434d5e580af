// Every query of the loyalty area. Each function takes the pool or the caller's transaction first,
// is scoped by tenant, and returns plain rows (camelCase through knexSnakeCaseMappers).
import type { PointsLedgerEntry, PointsTransactionType } from './points-expiry.rules';
import type { Db } from '../../db/db-handle';
import type { PageQuery, PageResult } from '../../db/paginate';
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

const UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === UNIQUE_VIOLATION && e.constraint === constraint;
}

// ---- cards

export async function insertCard(db: Db, tenantId: string, fields: CardFields): Promise<CardRow> {
  const [row] = await db('loyaltyCards').insert({ ...fields, tenantId }).returning('*');
  return row;
}

export async function findCard(db: Db, tenantId: string, id: string): Promise<CardRow | undefined> {
  return db('loyaltyCards').where({ tenantId, id }).whereNull('deletedAt').first();
}

export async function pageOfCards(db: Db, tenantId: string, filter: { type?: LoyaltyCardType; isActive?: boolean }, { page = 1, limit = 20 }: PageQuery): Promise<PageResult<CardRow>> {
  const q = db('loyaltyCards').where({ tenantId }).whereNull('deletedAt');
  if (filter.type) q.where({ type: filter.type });
  if (filter.isActive !== undefined) q.where({ isActive: filter.isActive });
  const [{ count }] = await q.clone().count({ count: '*' });
  const rows = await q.orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit).offset((page - 1) * limit);
  return { rows, total: Number(count), page, limit };
}

export async function activeCards(db: Db, tenantId: string, type?: LoyaltyCardType): Promise<CardRow[]> {
  const q = db('loyaltyCards').where({ tenantId, isActive: true }).whereNull('deletedAt');
  if (type) q.where({ type });
  return q.orderBy('createdAt');
}

export async function cardsOfTenant(db: Db, tenantId: string): Promise<CardRow[]> {
  return db('loyaltyCards').where({ tenantId }).whereNull('deletedAt').orderBy('createdAt');
}

export async function updateCard(db: Db, tenantId: string, id: string, fields: CardFields): Promise<void> {
  await db('loyaltyCards').where({ tenantId, id }).update({ ...fields, updatedAt: db.fn.now() });
}

export async function softDeleteCard(db: Db, tenantId: string, id: string): Promise<boolean> {
  const n = await db('loyaltyCards').where({ tenantId, id }).whereNull('deletedAt').update({ deletedAt: db.fn.now(), isActive: false, updatedAt: db.fn.now() });
  return n > 0;
}

// ---- tenant customers (the loyalty view of them)

export async function tenantCustomerExists(db: Db, tenantId: string, id: string): Promise<boolean> {
  return !!(await db('tenantCustomers').where({ tenantId, id }).first('id'));
}

export async function tenantCustomerIdOf(db: Db, tenantId: string, customerId: string): Promise<string | undefined> {
  return (await db('tenantCustomers').where({ tenantId, customerId }).first('id'))?.id;
}

// ---- stamps

export async function countVouchersIssued(db: Db, cardId: string, tenantCustomerId: string): Promise<number> {
  const [{ count }] = await db('loyaltyVouchers').where({ loyaltyCardId: cardId, tenantCustomerId }).count({ count: '*' });
  return Number(count);
}

export async function countStampsInCycle(db: Db, cardId: string, tenantCustomerId: string, cycleNumber: number): Promise<number> {
  const [{ count }] = await db('loyaltyStamps').where({ loyaltyCardId: cardId, tenantCustomerId, cycleNumber }).count({ count: '*' });
  return Number(count);
}

/** One stamp per (card, booking): false when the booking already has its stamp. */
export async function insertStampOnce(db: Db, stamp: Omit<StampRow, 'id' | 'createdAt'>): Promise<StampRow | undefined> {
  const [row] = await db('loyaltyStamps').insert(stamp).onConflict(['loyalty_card_id', 'booking_id']).ignore().returning('*');
  return row;
}

export async function stampsOf(db: Db, tenantId: string, cardId: string, tenantCustomerId: string): Promise<StampRow[]> {
  return db('loyaltyStamps').where({ tenantId, loyaltyCardId: cardId, tenantCustomerId }).orderBy([{ column: 'cycleNumber' }, { column: 'stampNumber' }]);
}

// ---- vouchers

export async function insertVoucher(db: Db, voucher: Omit<VoucherRow, 'id' | 'status' | 'version' | 'createdAt' | 'updatedAt' | 'reservedBookingId' | 'reservedAt' | 'redeemedBookingId' | 'redeemedAt' | 'discountApplied' | 'cancelledAt' | 'cancelledReason'>): Promise<VoucherRow> {
  const [row] = await db('loyaltyVouchers').insert(voucher).returning('*');
  return row;
}

export async function findVoucher(db: Db, tenantId: string, id: string): Promise<VoucherRow | undefined> {
  return db('loyaltyVouchers').where({ tenantId, id }).first();
}

export async function findVoucherById(db: Db, id: string): Promise<VoucherRow | undefined> {
  return db('loyaltyVouchers').where({ id }).first();
}

/** Case-insensitive lookup of a normalised code in one salon. */
export async function findVoucherByCode(db: Db, tenantId: string, code: string): Promise<VoucherRow | undefined> {
  return db('loyaltyVouchers').where({ tenantId }).whereRaw('upper(code) = ?', [code.toUpperCase()]).first();
}

export async function findVoucherReservedFor(db: Db, tenantId: string, bookingId: string): Promise<VoucherRow | undefined> {
  return db('loyaltyVouchers').where({ tenantId, reservedBookingId: bookingId, status: 'RESERVED' }).first();
}

/**
 * Compare-and-set: writes `changes` (version + 1) only while the voucher is still in `from`.
 * Returns the new row, or undefined when someone else moved it first.
 */
export async function transitionVoucher(db: Db, voucher: { id: string; tenantId: string }, from: VoucherStatus, changes: Partial<VoucherRow>): Promise<VoucherRow | undefined> {
  const [row] = await db('loyaltyVouchers')
    .where({ id: voucher.id, tenantId: voucher.tenantId, status: from })
    .update({ ...changes, version: db.raw('version + 1'), updatedAt: db.fn.now() })
    .returning('*');
  return row;
}

export async function insertVoucherEvent(db: Db, tenantId: string, event: Omit<VoucherEventRow, 'id' | 'createdAt'>): Promise<void> {
  await db('loyaltyVoucherEvents').insert({ ...event, tenantId });
}

export async function countVoucherEvents(db: Db, voucherId: string, action: string): Promise<number> {
  const [{ count }] = await db('loyaltyVoucherEvents').where({ voucherId, action }).count({ count: '*' });
  return Number(count);
}

export async function voucherEvents(db: Db, tenantId: string, voucherId: string): Promise<VoucherEventRow[]> {
  return db('loyaltyVoucherEvents').where({ tenantId, voucherId }).orderBy([{ column: 'createdAt' }, { column: 'id' }]);
}

export interface VoucherFilter {
  status?: VoucherStatus[];
  customerId?: string;
  tenantCustomerId?: string;
  loyaltyCardId?: string;
}

export async function pageOfVouchers(db: Db, tenantId: string, filter: VoucherFilter, { page = 1, limit = 20 }: PageQuery): Promise<PageResult<VoucherRow>> {
  const q = db('loyaltyVouchers as v').where('v.tenantId', tenantId);
  if (filter.status?.length) q.whereIn('v.status', filter.status);
  if (filter.tenantCustomerId) q.where('v.tenantCustomerId', filter.tenantCustomerId);
  if (filter.loyaltyCardId) q.where('v.loyaltyCardId', filter.loyaltyCardId);
  if (filter.customerId) q.join('tenantCustomers as tc', 'tc.id', 'v.tenantCustomerId').where('tc.customerId', filter.customerId);
  const [{ count }] = await q.clone().count({ count: '*' });
  const rows = await q.select('v.*').orderBy([{ column: 'v.issuedAt', order: 'desc' }, { column: 'v.id', order: 'desc' }]).limit(limit).offset((page - 1) * limit);
  return { rows, total: Number(count), page, limit };
}

export async function vouchersOfTenantCustomer(db: Db, tenantId: string, tenantCustomerId: string, statuses?: VoucherStatus[]): Promise<VoucherRow[]> {
  const q = db('loyaltyVouchers').where({ tenantId, tenantCustomerId });
  if (statuses) q.whereIn('status', statuses);
  return q.orderBy([{ column: 'issuedAt', order: 'desc' }, { column: 'id', order: 'desc' }]);
}

/** Vouchers of the given customer rows (one per salon) in any salon, with the salon's name and slug. */
export async function vouchersOfCustomers(db: Db, customerIds: string[], statuses: VoucherStatus[]): Promise<(VoucherRow & { tenantName: string; tenantSlug: string })[]> {
  if (!customerIds.length) return [];
  return db('loyaltyVouchers as v')
    .join('tenantCustomers as tc', 'tc.id', 'v.tenantCustomerId')
    .join('tenants as t', 't.id', 'v.tenantId')
    .whereIn('tc.customerId', customerIds)
    .whereIn('v.status', statuses)
    .select('v.*', 't.name as tenantName', 't.slug as tenantSlug')
    .orderBy([{ column: 'v.issuedAt', order: 'desc' }, { column: 'v.id', order: 'desc' }]);
}

// ---- bookings, as loyalty sees them

export interface LoyaltyBookingRow {
  id: string;
  tenantId: string;
  customerId: string | null;
  status: string;
  totalAmount: number;
  discountAmount: number;
  appliedVoucherId: string | null;
  startTime: Date;
}

/**
 * Compare-and-set (docs/rules/loyalty.md#completion): marks a COMPLETED booking processed for loyalty; undefined when it was
 * already processed (or is not COMPLETED), so the caller does nothing.
 */
export async function claimBookingForLoyalty(db: Db, bookingId: string): Promise<LoyaltyBookingRow | undefined> {
  const [row] = await db('bookings')
    .where({ id: bookingId, processedForLoyalty: false, status: 'COMPLETED' })
    .update({ processedForLoyalty: true })
    .returning(['id', 'tenantId', 'customerId', 'status', 'totalAmount', 'discountAmount', 'appliedVoucherId', 'startTime']);
  return row;
}

export async function serviceIdsOfBooking(db: Db, bookingId: string): Promise<string[]> {
  return (await db('bookingItems').where({ bookingId }).select('serviceId')).map((r: { serviceId: string }) => r.serviceId);
}

// ---- points

export async function lockBalance(db: Db, tenantId: string, cardId: string, tenantCustomerId: string): Promise<number> {
  await db('loyaltyPointsBalances').insert({ tenantId, loyaltyCardId: cardId, tenantCustomerId, balance: 0 }).onConflict(['loyalty_card_id', 'tenant_customer_id']).ignore();
  const row = await db('loyaltyPointsBalances').where({ loyaltyCardId: cardId, tenantCustomerId }).forUpdate().first('balance');
  return row.balance;
}

export async function setBalance(db: Db, cardId: string, tenantCustomerId: string, balance: number): Promise<void> {
  await db('loyaltyPointsBalances').where({ loyaltyCardId: cardId, tenantCustomerId }).update({ balance, updatedAt: db.fn.now() });
}

export async function insertPointsTransaction(db: Db, tenantId: string, tx: Omit<PointsTransactionRow, 'id' | 'createdAt'>): Promise<PointsTransactionRow | undefined> {
  const [row] = await db('loyaltyPointsTransactions').insert({ ...tx, tenantId }).returning('*');
  return row;
}

export async function hasEarnedFor(db: Db, cardId: string, bookingId: string): Promise<boolean> {
  return !!(await db('loyaltyPointsTransactions').where({ loyaltyCardId: cardId, bookingId, type: 'EARN' }).first('id'));
}

export async function pointsTransactions(db: Db, tenantId: string, cardId: string, tenantCustomerId: string, limit = 100): Promise<PointsTransactionRow[]> {
  return db('loyaltyPointsTransactions').where({ tenantId, loyaltyCardId: cardId, tenantCustomerId }).orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit);
}

/** Every points transaction of one (card, customer), oldest first: what expiry is computed from. */
export async function pointsLedger(db: Db, tenantId: string, cardId: string, tenantCustomerId: string): Promise<PointsLedgerEntry[]> {
  return db('loyaltyPointsTransactions')
    .where({ tenantId, loyaltyCardId: cardId, tenantCustomerId })
    .orderBy([{ column: 'createdAt', order: 'asc' }, { column: 'id', order: 'asc' }])
    .select('type', 'points', 'expiresAt', 'createdAt');
}

export async function balancesOfTenantCustomer(db: Db, tenantId: string, tenantCustomerId: string): Promise<{ loyaltyCardId: string; balance: number }[]> {
  return db('loyaltyPointsBalances').where({ tenantId, tenantCustomerId }).select('loyaltyCardId', 'balance');
}

// ---- voucher messages

export interface VoucherMessageContext {
  voucher: VoucherRow;
  tenantName: string;
  timezone: string;
  customerName: string;
  phone: string | null;
  email: string | null;
}

export async function voucherMessageContext(db: Db, voucherId: string): Promise<VoucherMessageContext | undefined> {
  const voucher = await findVoucherById(db, voucherId);
  if (!voucher) return undefined;
  const row = await db('tenantCustomers as tc')
    .join('customers as c', 'c.id', 'tc.customerId')
    .join('tenants as t', 't.id', 'tc.tenantId')
    .where('tc.id', voucher.tenantCustomerId)
    .first('c.name as customerName', 'c.phone', 'c.email', 't.name as tenantName', 't.settings');
  return { voucher, tenantName: row.tenantName, timezone: row.settings?.timezone ?? 'Europe/Oslo', customerName: row.customerName, phone: row.phone, email: row.email };
}

/** Claims the (voucher, channel, dedupe key) message row; returns its id and whether it was already sent. */
export async function claimVoucherNotification(db: Db, claim: { tenantId: string; voucherId: string; channel: string; kind: string; dedupeKey: string }): Promise<{ id: string; sentAt: Date | null }> {
  await db('loyaltyVoucherNotifications').insert(claim).onConflict(['voucher_id', 'channel', 'dedupe_key']).ignore();
  return db('loyaltyVoucherNotifications').where({ voucherId: claim.voucherId, channel: claim.channel, dedupeKey: claim.dedupeKey }).first('id', 'sentAt');
}

export async function markVoucherNotificationSent(db: Db, id: string): Promise<void> {
  await db('loyaltyVoucherNotifications').where({ id }).update({ sentAt: db.fn.now() });
}
