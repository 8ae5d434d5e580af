// Pure normalisation of customer contact data, applied before storing and before matching, so
// "+47 912 34 567" and "+4791234567", or "Kari@Example.no" and "kari@example.no", are the same customer.

/** Trims and strips whitespace, dashes, dots and brackets: "+47 (912) 34-567" -> "+4791234567". Empty -> null. */
export function normalisePhone(phone: string | null | undefined): string | null {
  if (phone === null || phone === undefined) return null;
  const normalised = phone.replace(/[\s\-.()]/g, '');
  return normalised === '' ? null : normalised;
}

/**
 * Whether two phone numbers are the same number: the one place phones are compared (linking an
 * account to a salon's customer, proving a booking, a login's phone), so a stricter normalisation
 * (E.164) changes every comparison at once. Two missing numbers are not the same number.
 */
export function samePhone(a: string | null | undefined, b: string | null | undefined): boolean {
  const x = normalisePhone(a);
  return x !== null && x === normalisePhone(b);
}

/** Trims and lower-cases. Empty -> null. */
export function normaliseEmail(email: string | null | undefined): string | null {
  if (email === null || email === undefined) return null;
  const normalised = email.trim().toLowerCase();
  return normalised === '' ? null : normalised;
}

/** Escapes LIKE wildcards so a search for "50%" means the characters, not a pattern. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
