/**
 * The cancellation token handed to a guest at public booking creation: `<nonce>.<hmac>` where the
 * HMAC (SHA-256, keyed with the server secret) covers the booking id and the nonce, so a token only
 * works for its booking. Only a SHA-256 hash of the token is stored (bookings.cancellation_token_hash).
 */
import crypto from 'node:crypto';

function mac(secret: string, bookingId: string, nonce: string): string {
  return crypto.createHmac('sha256', secret).update(`booking-cancel:${bookingId}:${nonce}`).digest('base64url');
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export function issueCancellationToken(secret: string, bookingId: string): { token: string; hash: string } {
  const nonce = crypto.randomBytes(18).toString('base64url');
  const token = `${nonce}.${mac(secret, bookingId, nonce)}`;
  return { token, hash: hashToken(token) };
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
