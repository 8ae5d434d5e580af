// API timestamps (spec 1): UTC ISO 8601 with millisecond precision and `Z`, whatever the database
// driver handed us (a Date, or a string from a JSON aggregate).

export function toIso(value: Date | string): string {
  return new Date(value).toISOString();
}

export function toIsoOrNull(value: Date | string | null | undefined): string | null {
  return value === null || value === undefined ? null : toIso(value);
}
