// Proving a phone number with a one-time code (docs/rules/customers.md#verifying-a-phone): how long a
// code lives, how many wrong codes end it, and how many codes an account or a number may get in an
// hour (docs/rules/limits.md#sizes-and-counts). Pure.

/** A code works for 10 minutes after it was asked for: at exactly 10 minutes still, a millisecond later not. */
export const PHONE_CODE_TTL_MINUTES = 10;
/** The 5th wrong code ends the code: even the right one is refused after it. */
export const PHONE_CODE_MAX_FAILED_ATTEMPTS = 5;
/** Codes per account, and per phone number (whoever asks), in any hour: the 4th is 429. */
export const PHONE_CODES_PER_HOUR = 3;

export function isCodeExpired(expiresAt: Date | string, now: Date): boolean {
  return now.getTime() > new Date(expiresAt).getTime();
}

export function codeExpiry(askedAt: Date): Date {
  return new Date(askedAt.getTime() + PHONE_CODE_TTL_MINUTES * 60_000);
}

/** The start of the hour the hourly count looks back over. */
export function hourBefore(now: Date): Date {
  return new Date(now.getTime() - 3_600_000);
}
