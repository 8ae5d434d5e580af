/**
 * The cancellation token handed to a guest at public booking creation: `<nonce>.<hmac>` where the
 * HMAC (SHA-256, keyed with the manage-link key, docs/rules/security.md#keys) covers the booking id
 * and the nonce, so a token only works for its booking. Only a SHA-256 hash of the token is stored
 * (bookings.cancellation_token_hash). The nonce is derived from the booking id with the key, so the
 * platform can put the same token into the booking's messages later (the manage link,
 * docs/rules/booking-page.md) without storing it. Tokens made with the legacy key (before each link
 * got its own key) still verify and are still re-issued for their booking's messages.
 */
import crypto from 'node:crypto';
import { verifyingKeys, type LinkKey } from '../crypto/link-key';

function mac(key: string, bookingId: string, nonce: string): string {
  return crypto.createHmac('sha256', key).update(`booking-cancel:${bookingId}:${nonce}`).digest('base64url');
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

function tokenFor(key: string, bookingId: string): string {
  const nonce = crypto.createHmac('sha256', key).update(`booking-cancel-nonce:${bookingId}`).digest().subarray(0, 18).toString('base64url');
  return `${nonce}.${mac(key, bookingId, nonce)}`;
}

export function issueCancellationToken(linkKey: LinkKey, bookingId: string): { token: string; hash: string } {
  const token = tokenFor(linkKey.key, bookingId);
  return { token, hash: hashToken(token) };
}

/**
 * The booking's token again, for a link in its messages; null when the booking has none (the salon
 * made it) or its stored hash is of a token none of the keys derives (another secret, or a token
 * issued before tokens were derived).
 */
export function reissueCancellationToken(linkKey: LinkKey, bookingId: string, storedHash: string | null): string | null {
  if (!storedHash) return null;
  for (const key of verifyingKeys(linkKey)) {
    const token = tokenFor(key, bookingId);
    if (sameHash(hashToken(token), storedHash)) return token;
  }
  return null;
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export function verifyCancellationToken(linkKey: LinkKey, bookingId: string, token: string, storedHash: string | null): boolean {
  if (!storedHash || typeof token !== 'string') return false;
  const [nonce, sig, extra] = token.split('.');
  if (!nonce || !sig || extra !== undefined) return false;
  const given = Buffer.from(sig);
  const signed = verifyingKeys(linkKey).some((key) => {
    const expected = Buffer.from(mac(key, bookingId, nonce));
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  });
  return signed && sameHash(hashToken(token), storedHash);
}
