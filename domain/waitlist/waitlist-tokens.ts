/**
 * The waitlist's two secrets (docs/rules/waitlist.md#tokens), both compared in constant time:
 * - an entry's token, random, given once when the entry is made; only its SHA-256 is stored;
 * - an offer's token, an HMAC (the waitlist-offer key, docs/rules/security.md#keys) over the offer
 *   id, so the offer's message can be written by the worker at any time without storing the token
 *   itself. Tokens made with the legacy key still verify.
 */
import crypto from 'node:crypto';
import { verifyingKeys, type LinkKey } from '../crypto/link-key';

function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

function sameBytes(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export function issueEntryToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(24).toString('base64url');
  return { token, hash: sha256(token) };
}

export function entryTokenMatches(token: unknown, storedHash: string): boolean {
  return typeof token === 'string' && token.length > 0 && sameBytes(sha256(token), storedHash);
}

function offerMac(key: string, offerId: string): string {
  return crypto.createHmac('sha256', key).update(`waitlist-offer:${offerId}`).digest('base64url');
}

export function offerToken(linkKey: LinkKey, offerId: string): string {
  return offerMac(linkKey.key, offerId);
}

export function offerTokenMatches(linkKey: LinkKey, offerId: string, token: unknown): boolean {
  return typeof token === 'string' && token.length > 0 && verifyingKeys(linkKey).some((key) => sameBytes(offerMac(key, offerId), token));
}
