/**
 * The waitlist's two secrets (docs/rules/waitlist.md#tokens), both compared in constant time:
 * - an entry's token, an HMAC (the server secret) over the entry id, so the message confirming the
 *   entry can carry its link; only its SHA-256 is stored (entries made before carry a random one);
 * - an offer's token, an HMAC (the server secret) over the offer id, so the offer's message can be
 *   written by the worker at any time without storing the token itself.
 */
import crypto from 'node:crypto';

function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

function sameBytes(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export function entryToken(secret: string, entryId: string): string {
  return crypto.createHmac('sha256', secret).update(`waitlist-entry:${entryId}`).digest('base64url');
}

export function issueEntryToken(secret: string, entryId: string): { token: string; hash: string } {
  const token = entryToken(secret, entryId);
  return { token, hash: sha256(token) };
}

export function entryTokenMatches(token: unknown, storedHash: string): boolean {
  return typeof token === 'string' && token.length > 0 && sameBytes(sha256(token), storedHash);
}

export function offerToken(secret: string, offerId: string): string {
  return crypto.createHmac('sha256', secret).update(`waitlist-offer:${offerId}`).digest('base64url');
}

export function offerTokenMatches(secret: string, offerId: string, token: unknown): boolean {
  return typeof token === 'string' && token.length > 0 && sameBytes(offerToken(secret, offerId), token);
}
