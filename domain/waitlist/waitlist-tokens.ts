/**
 * The waitlist's two secrets (docs/rules/waitlist.md#tokens), both compared in constant time:
 * - an entry's token, an HMAC (the waitlist-entry key) over the entry id, so the message confirming
 *   the entry can carry its link; only its SHA-256 is stored (entries made before carry a random
 *   one, or one made with the legacy key);
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

function entryMac(key: string, entryId: string): string {
  return crypto.createHmac('sha256', key).update(`waitlist-entry:${entryId}`).digest('base64url');
}

export function issueEntryToken(linkKey: LinkKey, entryId: string): { token: string; hash: string } {
  const token = entryMac(linkKey.key, entryId);
  return { token, hash: sha256(token) };
}

/** The entry's token again, for its message: made with whichever key (current or legacy) made the stored hash; null for a random one. */
export function reissueEntryToken(linkKey: LinkKey, entryId: string, storedHash: string): string | null {
  return (
    verifyingKeys(linkKey)
      .map((key) => entryMac(key, entryId))
      .find((token) => sameBytes(sha256(token), storedHash)) ?? null
  );
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
