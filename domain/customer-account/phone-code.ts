// A phone verification's one-time code: six digits derived from the verification row with the
// phone-code key (docs/rules/security.md#keys), so the worker can send it and the api can check it
// without the code being stored anywhere.
import crypto from 'node:crypto';

export function phoneCodeFor(key: string, verificationId: string): string {
  const digest = crypto.createHmac('sha256', key).update(`phone-code:${verificationId}`).digest();
  return String(digest.readUInt32BE(0) % 1_000_000).padStart(6, '0');
}

/** Constant-time comparison of a presented code with the verification's. */
export function phoneCodeMatches(key: string, verificationId: string, presented: string): boolean {
  const expected = Buffer.from(phoneCodeFor(key, verificationId));
  const given = Buffer.from(presented.trim());
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}
