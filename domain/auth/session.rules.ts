// When a sign-in session is still open (docs/rules/auth.md#sessions): not ended by sign-out, and
// younger than its maximum length. Pure.

/** Open until `maxSeconds` after it started: at exactly that moment it is still open, a millisecond later not. */
export function isSessionOpen(session: { startedAt: Date | string; endedAt: Date | string | null }, maxSeconds: number, now: Date): boolean {
  if (session.endedAt) return false;
  return now.getTime() - new Date(session.startedAt).getTime() <= maxSeconds * 1000;
}

/** When the session reaches its maximum length: no refresh token of it may live longer. */
export function sessionDeadline(startedAt: Date | string, maxSeconds: number): Date {
  return new Date(new Date(startedAt).getTime() + maxSeconds * 1000);
}
