// Points cards (docs/rules/loyalty.md#points): the balance per (card, tenant customer) with its transactions.
// Every change locks the balance row, writes the transaction with the balance after it, and sets
// the balance (never below 0: a CHECK constraint backs the service's 422).
// Expired points leave the balance lazily (no sweep): every read or change first writes them off
// with one EXPIRE transaction under the same row lock (writeOffExpiredPoints).
import type { Db } from '../../db/db-handle';
import { errors } from '../errors';
import { pointsValue } from './loyalty.rules';
import { pointsDueToExpire } from './points-expiry.rules';
import * as repo from './loyalty.repository';
import { pointsTransactionDto } from './loyalty.dto';
import { existingCardOfType } from './loyalty-card.service';
import { tenantCustomerExists } from '../customer/tenant-customer.repository';

async function assertTenantCustomer(db: Db, tenantId: string, tenantCustomerId: string): Promise<void> {
  if (!(await tenantCustomerExists(db, tenantId, tenantCustomerId))) throw errors.notFound('tenantCustomer');
}

/**
 * Locks the balance row of (card, customer), writes off the points expired by `now` and not yet
 * written off (one EXPIRE transaction, negative points, FIFO by earn lot: points-expiry.rules.ts),
 * and answers the balance after it. Call it inside a transaction, before any other change of the
 * balance: the caller keeps the lock until it commits.
 */
export async function writeOffExpiredPoints(trx: Db, tenantId: string, cardId: string, tenantCustomerId: string, now: Date): Promise<number> {
  const before = await repo.lockBalance(trx, tenantId, cardId, tenantCustomerId);
  const due = Math.min(before, pointsDueToExpire(await repo.pointsLedger(trx, tenantId, cardId, tenantCustomerId), now));
  if (due <= 0) return before;
  const balance = before - due;
  await repo.insertPointsTransaction(trx, tenantId, {
    loyaltyCardId: cardId,
    tenantCustomerId,
    type: 'EXPIRE',
    points: -due,
    balanceAfter: balance,
    bookingId: null,
    reason: null,
    actorUserId: null,
    expiresAt: null,
  });
  await repo.setBalance(trx, cardId, tenantCustomerId, balance);
  return balance;
}

export async function getPoints(db: Db, tenantId: string, cardId: string, tenantCustomerId: string, now: Date) {
  return db.transaction(async (trx) => {
    const card = await existingCardOfType(trx, tenantId, cardId, 'POINTS_BASED');
    await assertTenantCustomer(trx, tenantId, tenantCustomerId);
    const balance = await writeOffExpiredPoints(trx, tenantId, cardId, tenantCustomerId, now);
    return {
      loyaltyCardId: cardId,
      tenantCustomerId,
      balance,
      balanceValue: pointsValue(balance, card.redeemRate!),
      minRedemption: card.minRedemption ?? 0,
      transactions: (await repo.pointsTransactions(trx, tenantId, cardId, tenantCustomerId)).map(pointsTransactionDto),
    };
  });
}

interface PointsChange {
  tenantCustomerId: string;
  points: number;
  bookingId?: string | null;
  reason?: string | null;
}

async function changePoints(
  db: Db,
  tenantId: string,
  cardId: string,
  type: 'REDEEM' | 'ADJUST',
  input: PointsChange,
  actorUserId: string | null,
  now: Date,
  check: (card: repo.CardRow, balance: number) => void,
) {
  return db.transaction(async (trx) => {
    const card = await existingCardOfType(trx, tenantId, cardId, 'POINTS_BASED');
    await assertTenantCustomer(trx, tenantId, input.tenantCustomerId);
    const before = await writeOffExpiredPoints(trx, tenantId, cardId, input.tenantCustomerId, now);
    check(card, before);
    const delta = type === 'REDEEM' ? -input.points : input.points;
    const balance = before + delta;
    const tx = await repo.insertPointsTransaction(trx, tenantId, {
      loyaltyCardId: cardId,
      tenantCustomerId: input.tenantCustomerId,
      type,
      points: delta,
      balanceAfter: balance,
      bookingId: input.bookingId ?? null,
      reason: input.reason?.trim() || null,
      actorUserId,
      expiresAt: null,
    });
    await repo.setBalance(trx, cardId, input.tenantCustomerId, balance);
    return { card, balance, transaction: pointsTransactionDto(tx!) };
  });
}

function insufficient(balance: number, wanted: number) {
  return errors.unprocessable('LOYALTY_POINTS_INSUFFICIENT', `The balance is ${balance} points; ${wanted} were asked for`);
}

/** STAFF+: spends points (at least the card's minRedemption); answers the discount they are worth. */
export async function redeemPoints(db: Db, tenantId: string, cardId: string, input: PointsChange, actorUserId: string | null, now: Date) {
  const { card, balance, transaction } = await changePoints(db, tenantId, cardId, 'REDEEM', input, actorUserId, now, (c, before) => {
    if (input.points < (c.minRedemption ?? 0)) {
      throw errors.unprocessable('LOYALTY_POINTS_BELOW_MINIMUM', `At least ${c.minRedemption} points must be redeemed at once`, [
        { field: 'points', message: `must be at least ${c.minRedemption}` },
      ]);
    }
    if (before < input.points) throw insufficient(before, input.points);
  });
  return { loyaltyCardId: cardId, tenantCustomerId: input.tenantCustomerId, balance, discountValue: pointsValue(input.points, card.redeemRate!), transaction };
}

/** OWNER: adds (positive) or removes (negative) points with a reason; the balance never goes below 0. */
export async function adjustPoints(db: Db, tenantId: string, cardId: string, input: PointsChange, actorUserId: string | null, now: Date) {
  if (input.points === 0) throw errors.validation('Request validation failed', [{ field: 'points', message: 'must not be 0' }]);
  if (!input.reason?.trim()) throw errors.validation('Request validation failed', [{ field: 'reason', message: 'is required' }]);
  const { balance, transaction } = await changePoints(db, tenantId, cardId, 'ADJUST', input, actorUserId, now, (_c, before) => {
    if (before + input.points < 0) throw insufficient(before, -input.points);
  });
  return { loyaltyCardId: cardId, tenantCustomerId: input.tenantCustomerId, balance, transaction };
}
