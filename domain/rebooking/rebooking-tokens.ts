/**
 * The unsubscribe link's token (docs/rules/series.md#rebooking-nudges): an HMAC (the nudges' own key, docs/rules/security.md#keys)
 * over the salon's customer id, so the worker can write it into any nudge without storing it, and
 * it turns off that salon's nudges for that customer only. Compared in constant time.
 */
import crypto from 'node:crypto';

export function unsubscribeToken(secret: string, customerId: string): string {
  return crypto.createHmac('sha256', secret).update(`rebooking-nudge-unsubscribe:${customerId}`).digest('base64url');
}

export function unsubscribeTokenMatches(secret: string, customerId: string, token: unknown): boolean {
  if (typeof token !== 'string' || token.length === 0) return false;
  const x = Buffer.from(unsubscribeToken(secret, customerId));
  const y = Buffer.from(token);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
