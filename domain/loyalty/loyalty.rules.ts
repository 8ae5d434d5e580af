// Pure loyalty rules (docs/rules/loyalty.md): voucher codes, the voucher state machine, reward
// arithmetic in minor units, stamp cycles and points. No I/O: the voucher workflow imports this file.

export type LoyaltyCardType = 'VISIT_BASED' | 'POINTS_BASED';
export type RewardType = 'FREE_SERVICE' | 'DISCOUNT_PERCENT' | 'DISCOUNT_AMOUNT';
export type VoucherStatus = 'ACTIVE' | 'RESERVED' | 'REDEEMED' | 'EXPIRED' | 'CANCELLED';

/** Crockford-style: no I, L, O, U (docs/rules/loyalty.md#voucher-codes). */
export const VOUCHER_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const VOUCHER_PREFIX = 'STAMP';
/** A code that clashes with one of the salon's codes is generated again, at most 5 times */
export const VOUCHER_CODE_RETRIES = 5;
export const BOOKING_FORFEIT = 'BOOKING_FORFEIT';

export const TERMINAL_VOUCHER_STATUSES: readonly VoucherStatus[] = ['REDEEMED', 'EXPIRED', 'CANCELLED'];

export function isTerminalVoucherStatus(status: VoucherStatus): boolean {
  return TERMINAL_VOUCHER_STATUSES.includes(status);
}

/**
 * Customer input -> the stored `STAMP-XXXX-XXXX`, or null when it cannot be a code: trimmed,
 * uppercased, dashes (and the `STAMP` prefix) optional, every other character must be in the alphabet.
 */
export function normaliseVoucherCode(input: string): string | null {
  let body = input.trim().toUpperCase().replace(/-/g, '');
  if (body.length === VOUCHER_PREFIX.length + 8 && body.startsWith(VOUCHER_PREFIX)) body = body.slice(VOUCHER_PREFIX.length);
  if (body.length !== 8) return null;
  for (const ch of body) if (!VOUCHER_ALPHABET.includes(ch)) return null;
  return formatVoucherCode(body);
}

function formatVoucherCode(body: string): string {
  return `${VOUCHER_PREFIX}-${body.slice(0, 4)}-${body.slice(4, 8)}`;
}

/** A code from 8 random bytes (each taken mod 32: the alphabet has 32 characters, so no bias). */
export function voucherCodeFromBytes(bytes: Uint8Array): string {
  if (bytes.length < 8) throw new Error('need 8 random bytes');
  let body = '';
  for (let i = 0; i < 8; i++) body += VOUCHER_ALPHABET[bytes[i] & 31];
  return formatVoucherCode(body);
}

/**
 * The reward in minor units against a booking total: DISCOUNT_AMOUNT and FREE_SERVICE are worth
 * `rewardValue` minor units (FREE_SERVICE: the value of the free service), DISCOUNT_PERCENT is
 * `rewardValue` percent of the total, rounded down. Never more than the total (the excess
 * is forfeited).
 */
export function voucherDiscount(reward: { rewardType: RewardType; rewardValue: number }, bookingTotal: number): number {
  const total = Math.max(0, bookingTotal);
  const worth = reward.rewardType === 'DISCOUNT_PERCENT' ? Math.floor((total * reward.rewardValue) / 100) : reward.rewardValue;
  return Math.max(0, Math.min(worth, total));
}

/** `expiresAt` of a voucher issued at `issuedAt` (UTC calendar months, clamped to the month's end); null = never. */
export function voucherExpiresAt(issuedAt: Date, expiryMonths: number | null): Date | null {
  if (expiryMonths === null || expiryMonths === undefined) return null;
  const y = issuedAt.getUTCFullYear();
  const m = issuedAt.getUTCMonth() + expiryMonths;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(issuedAt.getUTCDate(), lastDay);
  return new Date(Date.UTC(y, m, day, issuedAt.getUTCHours(), issuedAt.getUTCMinutes(), issuedAt.getUTCSeconds(), issuedAt.getUTCMilliseconds()));
}

/** A booking earns a stamp when the paid amount reaches the card's minimum (null: always). */
export function qualifiesForStamp(paidAmount: number, minBookingValue: number | null): boolean {
  return minBookingValue === null || paidAmount >= minBookingValue;
}

/**
 * The stamp a booking gets: cycle = vouchers issued on this card for this customer + 1; number =
 * stamps already in that cycle + 1. A voucher is due when the number reaches `requiredStamps` as the
 * card says now (a lowered requirement completes a cycle that already has more stamps).
 */
export function nextStamp(
  vouchersIssued: number,
  stampsInCycle: number,
  requiredStamps: number,
): { cycleNumber: number; stampNumber: number; completesCycle: boolean } {
  const stampNumber = stampsInCycle + 1;
  return { cycleNumber: vouchersIssued + 1, stampNumber, completesCycle: stampNumber >= requiredStamps };
}

/** Points for a paid amount: `earnRate` points per whole currency unit (100 minor units). */
export function pointsEarned(paidAmount: number, earnRate: number): number {
  return Math.max(0, Math.floor(paidAmount / 100)) * earnRate;
}

/** The discount in minor units that redeeming `points` is worth: `redeemRate` minor units per point. */
export function pointsValue(points: number, redeemRate: number): number {
  return points * redeemRate;
}
