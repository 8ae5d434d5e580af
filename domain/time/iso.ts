// API timestamps (docs/rules/conventions.md#time): UTC ISO 8601 with millisecond precision and `Z`, whatever the database
// driver handed us (a Date, or a string from a JSON aggregate). And the other way round: THE one
// parser of client-sent dates and date-times. It refuses what `new Date()` would silently roll over
// (2027-02-30 -> March 2nd, 2026-13-01, hour 24, second 60) and years outside the range the platform
// supports, so an impossible value never reaches a service or the database. The OpenAPI validator
// uses the same predicates for the `date` and `date-time` formats (api/openapi.ts).
import { errors } from '../errors';
import { isValidLocalDate, type LocalDate } from './salon-time.rules';

/** Calendar years a client may send. Far enough for any real salon visit or plan; years 0 and
 * 9999 (or +010000 after arithmetic) are refused at the edge instead of failing deep inside. */
export const MIN_API_YEAR = 1900;
export const MAX_API_YEAR = 2200;

// RFC 3339 date-time: seconds required, optional fraction (up to nanoseconds), `Z` or +hh:mm.
const DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

export function toIso(value: Date | string): string {
  return new Date(value).toISOString();
}

export function toIsoOrNull(value: Date | string | null | undefined): string | null {
  return value === null || value === undefined ? null : toIso(value);
}

function yearInRange(year: number): boolean {
  return year >= MIN_API_YEAR && year <= MAX_API_YEAR;
}

/** A real calendar date 'YYYY-MM-DD' in the supported year range (no 2026-02-30, 2026-13-01, 0000-01-01, 9999-12-31). */
export function isApiDate(value: unknown): value is LocalDate {
  return isValidLocalDate(value) && yearInRange(Number(value.slice(0, 4)));
}

/** The instant of an RFC 3339 date-time whose every part is real, or undefined. */
export function parseApiDateTime(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const m = DATE_TIME_RE.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, z, sign, oh, om] = m;
  if (!isApiDate(`${y}-${mo}-${d}`)) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  let offsetMinutes = 0;
  if (!z) {
    if (Number(oh) > 23 || Number(om) > 59) return undefined;
    offsetMinutes = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  }
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0;
  const epoch = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms) - offsetMinutes * 60_000;
  return new Date(epoch);
}

export function isApiDateTime(value: unknown): value is string {
  return parseApiDateTime(value) !== undefined;
}

/** Parses a client date-time the edge already checked; a 400 naming `field` if it is not real. */
export function requireApiDateTime(value: string, field: string): Date {
  const parsed = parseApiDateTime(value);
  if (!parsed)
    throw errors.validation('Request validation failed', [{ field, message: `must be a real date-time (RFC 3339, years ${MIN_API_YEAR}-${MAX_API_YEAR})` }]);
  return parsed;
}
