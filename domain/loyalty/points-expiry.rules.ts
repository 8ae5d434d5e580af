// Points expiry (points cards have `expiryMonths`; each EARN carries `expiresAt`).
// Pure: no I/O. Expired points are written off lazily by an EXPIRE transaction whenever a balance is
// read or changed; this computes how many are due.
//
// Points are consumed first-in-first-out by lot:
// - EARN and positive ADJUST add a lot (ADJUST lots and EARNs without `expiresAt` never expire);
// - REDEEM and negative ADJUST take from the oldest lots still unexpired at that moment, then, only
//   if the balance then held expired points not yet written off, from the oldest expired lots;
// - EXPIRE takes from the oldest lots already expired at that moment (then from the oldest others,
//   so the lots never hold more than the balance).
// A lot is expired when `expiresAt <= at` (as vouchers are).

export type PointsTransactionType = 'EARN' | 'REDEEM' | 'ADJUST' | 'EXPIRE';

export interface PointsLedgerEntry {
  type: PointsTransactionType;
  /** signed: EARN > 0, REDEEM < 0, ADJUST either, EXPIRE < 0 */
  points: number;
  expiresAt: Date | null;
  createdAt: Date;
}

interface Lot {
  remaining: number;
  expiresAt: number | null;
}

function isExpired(lot: Lot, at: number): boolean {
  return lot.expiresAt !== null && lot.expiresAt <= at;
}

/** Takes `amount` from the lots, oldest first, preferring those `prefer` picks. */
function consume(lots: Lot[], amount: number, prefer: (lot: Lot) => boolean): void {
  let left = amount;
  for (const pass of [true, false]) {
    for (const lot of lots) {
      if (left <= 0) return;
      if (lot.remaining <= 0 || prefer(lot) !== pass) continue;
      const take = Math.min(lot.remaining, left);
      lot.remaining -= take;
      left -= take;
    }
  }
}

/**
 * The points of one (card, customer) that have expired by `now` and are not yet written off, given
 * all its transactions oldest first (createdAt, then insertion order).
 */
export function pointsDueToExpire(transactions: readonly PointsLedgerEntry[], now: Date): number {
  const lots: Lot[] = [];
  for (const tx of transactions) {
    const at = new Date(tx.createdAt).getTime();
    if (tx.points > 0) {
      lots.push({ remaining: tx.points, expiresAt: tx.type === 'EARN' && tx.expiresAt ? new Date(tx.expiresAt).getTime() : null });
    } else if (tx.points < 0) {
      const expire = tx.type === 'EXPIRE';
      consume(lots, -tx.points, (lot) => (expire ? isExpired(lot, at) : !isExpired(lot, at)));
    }
  }
  const t = now.getTime();
  return lots.reduce((sum, lot) => (isExpired(lot, t) ? sum + lot.remaining : sum), 0);
}
