// Pure normalisation of customer contact data, applied before storing and before matching, so
// "Kari@Example.no" and "kari@example.no" are the same customer. Phone numbers are domain/phone's
// (E.164, read in the salon's country), so "98765433" and "+47 987 65 433" are too.

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
