/**
 * The cancellation token handed to a guest at public booking creation: `<nonce>.<hmac>` where the
 * HMAC (SHA-256, keyed with the server secret) covers the booking id and the nonce, so a token only
 * works for its booking. Only a SHA-256 hash of the token is stored (bookings.cancellation_token_hash).
 * The nonce is derived from the booking id with the secret, so the platform can put the same token
 * into the booking's messages later (the manage link, docs/rules/booking-page.md) without storing it.
 */
import crypto from 'node:crypto';

function mac(secret: string, bookingId: string, nonce: string): string {
  return crypto.createHmac('sha256', secret).update(`booking-cancel:${bookingId}:${nonce}`).digest('base64url');
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

function tokenFor(secret: string, bookingId: string): string {
  const nonce = crypto.createHmac('sha256', secret).update(`booking-cancel-nonce:${bookingId}`).digest().subarray(0, 18).toString('base64url');
  return `${nonce}.${mac(secret, bookingId, nonce)}`;
}

export function issueCancellationToken(secret: string, bookingId: string): { token: string; hash: string } {
  const token = tokenFor(secret, bookingId);
  return { token, hash: hashToken(token) };
}

/**
 * The booking's token again, for a link in its messages; null when the booking has none (the salon
 * made it) or its stored hash is of a token this secret did not derive (another secret, or a token
 * issued before tokens were derived).
 */
export function reissueCancellationToken(secret: string, bookingId: string, storedHash: string | null): string | null {
  if (!storedHash) return null;
  const token = tokenFor(secret, bookingId);
  return verifyCancellationToken(secret, bookingId, token, storedHash) ? token : null;
}

export function verifyCancellationToken(secret: string, bookingId: string, token: string, storedHash: string | null): boolean {
  if (!storedHash || typeof token !== 'string') return false;
  const [nonce, sig, extra] = token.split('.');
  if (!nonce || !sig || extra !== undefined) return false;
  const expected = Buffer.from(mac(secret, bookingId, nonce));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return false;
  const a = Buffer.from(hashToken(token));
  const b = Buffer.from(storedHash);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
