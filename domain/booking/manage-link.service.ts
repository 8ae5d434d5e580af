/**
 * The manage link (docs/rules/booking-page.md#manage-links): where a customer sees, moves, promises
 * to come to or cancels a booking on the platform's own pages, `/<slug>/bookings/<id>?token=<manage
 * token>`. The page links to it after booking and the booking's messages carry it (with
 * PUBLIC_BASE_URL in front); its token is the customer's proof.
 *
 * The manage token is `<nonce>.<hmac>`, handed out once at a public booking's creation: the HMAC
 * (SHA-256, keyed with the manage-link key, docs/rules/security.md#keys) covers the booking id and
 * the nonce, so a token only works for its booking. Only a SHA-256 hash of the token is stored. The
 * nonce is derived from the booking id with the key, so the platform can put the same token into the
 * booking's messages later without storing it. Tokens made with the legacy key (before each link got
 * its own key) still verify and are still re-issued for their booking's messages.
 */
import crypto from 'node:crypto';
import { verifyingKeys, type LinkKey } from '../crypto/link-key';
import type { Language } from '../language/language.rules';

/** How long a manage link proves its booking: until 14 days after the appointment ended (at exactly 14 days it still works, a millisecond later it does not). */
export const MANAGE_LINK_DAYS_AFTER_END = 14;

export function isManageLinkValid(bookingEnd: Date | string, now: Date): boolean {
  return now.getTime() <= new Date(bookingEnd).getTime() + MANAGE_LINK_DAYS_AFTER_END * 86_400_000;
}

// The HMAC's labels keep the words tokens were first issued under: another label would void every link out there.
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

export function issueManageToken(linkKey: LinkKey, bookingId: string): { token: string; hash: string } {
  const token = tokenFor(linkKey.key, bookingId);
  return { token, hash: hashToken(token) };
}

/**
 * The booking's token again, for a link in its messages; null when the booking has none (the salon
 * made it) or its stored hash is of a token none of the keys derives (another secret, or a token
 * issued before tokens were derived).
 */
export function reissueManageToken(linkKey: LinkKey, bookingId: string, storedHash: string | null): string | null {
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

export function verifyManageToken(linkKey: LinkKey, bookingId: string, token: string, storedHash: string | null): boolean {
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

/** The manage page; in English when the booking was made in English (`&lang=en`), Norwegian is the page's default. */
export function manageLinkPath(slug: string, bookingId: string, token: string, language: Language = 'nb'): string {
  return `/${encodeURIComponent(slug)}/bookings/${bookingId}?token=${encodeURIComponent(token)}${language === 'en' ? '&lang=en' : ''}`;
}

/** The booking's calendar file, proven by the same token. */
export function bookingCalendarPath(slug: string, bookingId: string, token: string): string {
  return `/${encodeURIComponent(slug)}/bookings/${bookingId}/calendar.ics?token=${encodeURIComponent(token)}`;
}
