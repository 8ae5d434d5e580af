/**
 * Salon-local time <-> UTC. THE one module that converts between the two
 * (docs/rules/conventions.md#time). Pure and deterministic: no Date.now(), no I/O; safe to import from
 * Temporal workflows. Time-zone data comes from moment-timezone (the project's chosen library);
 * the conversion itself is done here over the zone's offset table so the DST rules are explicit.
 *
 * Vocabulary
 * - LocalDate: 'YYYY-MM-DD' calendar date in the salon's timezone.
 * - LocalTime: 'HH:mm' wall-clock time (00:00..23:59). As an END time '24:00' is also accepted and
 *   means midnight at the end of the date (see {@link parseEndTimeMinutes}).
 * - Instants are JS Date (UTC) or epoch milliseconds.
 *
 * DST policy (deterministic, the same as moment-timezone and the TC39 Temporal 'compatible' mode):
 * - Gap (spring forward, e.g. Europe/Oslo 2026-03-29 02:00 -> 03:00): a wall time inside the gap
 *   does not exist; it is SHIFTED FORWARD by the length of the gap (02:30 -> 03:30 CEST =
 *   01:30Z). The gap's start (02:00) and end (03:00) therefore map to the same instant, so an
 *   interval 01:00-04:00 local on that day lasts 2 real hours.
 * - Overlap (fall back, e.g. Europe/Oslo 2026-10-25 03:00 -> 02:00): an ambiguous wall time
 *   resolves to its FIRST occurrence (the earlier instant, still on summer time): 02:30 ->
 *   00:30Z. 03:00 is not ambiguous (03:00 CET = 02:00Z), so 01:00-04:00 local lasts 4 real hours.
 */
import moment from 'moment-timezone';

export type LocalDate = string; // 'YYYY-MM-DD'
export type LocalTime = string; // 'HH:mm'

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

// ---------------------------------------------------------------------------------------------
// Validation

/** True for a real calendar date written 'YYYY-MM-DD' (rejects 2026-02-30, 2026-2-3, ...). */
// Pure memo caches (results depend only on the arguments): availability scans call these
// thousands of times per request (90 days x 20 staff). Bounded: cleared when they grow too large.
const MEMO_LIMIT = 50_000;
const validDates = new Set<string>();
const zoneCache = new Map<string, moment.MomentZone>();
const localMsCache = new Map<string, number>();
const dowCache = new Map<string, number>();
const addDaysCache = new Map<string, string>();

export function isValidLocalDate(value: unknown): value is LocalDate {
  if (typeof value !== 'string') return false;
  if (validDates.has(value)) return true;
  const ok = checkLocalDate(value);
  if (ok) {
    if (validDates.size >= MEMO_LIMIT) validDates.clear();
    validDates.add(value);
  }
  return ok;
}

function checkLocalDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const probe = new Date(Date.UTC(y, mo - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
}

/** True for 'HH:mm' with HH 00-23 and mm 00-59 (two digits each). */
export function isValidLocalTime(value: unknown): value is LocalTime {
  return typeof value === 'string' && TIME_RE.test(value);
}

/** Like {@link isValidLocalTime} but also accepts '24:00' (end of day), for interval END times. */
export function isValidEndTime(value: unknown): value is LocalTime {
  return value === '24:00' || isValidLocalTime(value);
}

let zoneNames: Set<string> | null = null;
/** True for an IANA zone name known to moment-timezone, spelled exactly (case-sensitive). */
export function isValidTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0) return false;
  if (!zoneNames) zoneNames = new Set(moment.tz.names());
  return zoneNames.has(value);
}

// ---------------------------------------------------------------------------------------------
// Dates and minutes of day

function assertDate(date: string): void {
  if (!isValidLocalDate(date)) throw new RangeError(`Invalid local date '${date}', expected YYYY-MM-DD`);
}

function assertZone(timezone: string): moment.MomentZone {
  const cached = zoneCache.get(timezone);
  if (cached) return cached;
  const zone = isValidTimeZone(timezone) ? moment.tz.zone(timezone) : null;
  if (!zone) throw new RangeError(`Unknown IANA time zone '${timezone}'`);
  zoneCache.set(timezone, zone);
  return zone;
}

/** Epoch ms of the date's midnight as if it were UTC (a "wall clock" number, not an instant). */
function wallMs(date: LocalDate, minutesOfDay: number): number {
  const m = DATE_RE.exec(date)!;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) + minutesOfDay * MINUTE_MS;
}

function formatWallDate(ms: number): LocalDate {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Day of week (0 = Sunday ... 6 = Saturday) of a date string, computed at NOON UTC of that date. */
export function dayOfWeek(date: LocalDate): number {
  const hit = dowCache.get(date);
  if (hit !== undefined) return hit;
  assertDate(date);
  const dow = new Date(`${date}T12:00:00.000Z`).getUTCDay();
  if (dowCache.size >= MEMO_LIMIT) dowCache.clear();
  dowCache.set(date, dow);
  return dow;
}

/** Calendar arithmetic on a date string (no time zone involved). `days` may be negative. */
export function addDays(date: LocalDate, days: number): LocalDate {
  const key = `${date}|${days}`;
  const hit = addDaysCache.get(key);
  if (hit !== undefined) return hit;
  assertDate(date);
  if (!Number.isInteger(days)) throw new RangeError(`addDays expects an integer, got ${days}`);
  const result = formatWallDate(wallMs(date, 0) + days * DAY_MS);
  if (addDaysCache.size >= MEMO_LIMIT) addDaysCache.clear();
  addDaysCache.set(key, result);
  return result;
}

/** Whole calendar days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: LocalDate, to: LocalDate): number {
  assertDate(from);
  assertDate(to);
  return Math.round((wallMs(to, 0) - wallMs(from, 0)) / DAY_MS);
}

/** 'HH:mm' -> minutes since midnight (0..1439). Throws on invalid input. */
export function timeToMinutes(time: LocalTime): number {
  const m = TIME_RE.exec(time);
  if (!m) throw new RangeError(`Invalid local time '${time}', expected HH:mm`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** Like {@link timeToMinutes} but '24:00' -> 1440 (end of day). For interval END times. */
export function parseEndTimeMinutes(time: LocalTime): number {
  return time === '24:00' ? 1440 : timeToMinutes(time);
}

/** Minutes since midnight (0..1440) -> 'HH:mm' ('24:00' for 1440). */
export function minutesToTime(minutes: number): LocalTime {
  if (!Number.isInteger(minutes) || minutes < 0 || minutes > 1440) {
    throw new RangeError(`minutes of day out of range: ${minutes}`);
  }
  const h = Math.floor(minutes / 60);
  const mm = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(mm).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Offsets and conversion

/** UTC offset in minutes EAST of UTC (Oslo winter +60, New York winter -300) at an instant. */
export function utcOffsetMinutes(instant: Date | number, timezone: string): number {
  const zone = assertZone(timezone);
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  // moment's utcOffset is minutes WEST of UTC (POSIX sign); flip it. `|| 0` avoids -0.
  return -zone.utcOffset(ms) || 0;
}

/**
 * Salon-local date + minutes-of-day -> UTC epoch ms. Minutes may be 0..1440 (1440 = midnight that
 * ends the date). DST gap: shifted forward; DST overlap: first occurrence (see module comment).
 */
export function localMinutesToUtcMs(date: LocalDate, minutesOfDay: number, timezone: string): number {
  const key = `${timezone}|${date}|${minutesOfDay}`;
  const hit = localMsCache.get(key);
  if (hit !== undefined) return hit;
  const ms = computeLocalMinutesToUtcMs(date, minutesOfDay, timezone);
  if (localMsCache.size >= MEMO_LIMIT) localMsCache.clear();
  localMsCache.set(key, ms);
  return ms;
}

function computeLocalMinutesToUtcMs(date: LocalDate, minutesOfDay: number, timezone: string): number {
  assertDate(date);
  const zone = assertZone(timezone);
  if (!Number.isInteger(minutesOfDay) || minutesOfDay < 0 || minutesOfDay > 1440) {
    throw new RangeError(`minutes of day out of range: ${minutesOfDay}`);
  }
  const wall = wallMs(date, minutesOfDay);
  // Offsets (east, ms) in force a day before and a day after this wall time bracket any transition.
  const offBefore = -zone.utcOffset(wall - DAY_MS) * MINUTE_MS;
  const offAfter = -zone.utcOffset(wall + DAY_MS) * MINUTE_MS;
  const candidates: number[] = [];
  for (const off of offBefore === offAfter ? [offBefore] : [offBefore, offAfter]) {
    const t = wall - off;
    if (-zone.utcOffset(t) * MINUTE_MS === off) candidates.push(t);
  }
  if (candidates.length > 0) return Math.min(...candidates); // overlap -> first occurrence
  // Gap: read the wall time with the offset in force BEFORE the transition; the resulting instant
  // lies after the transition, i.e. the wall time is shifted forward by the gap length.
  return wall - offBefore;
}

/** Salon-local 'YYYY-MM-DD' + 'HH:mm' (or '24:00') -> UTC Date. Throws on invalid input. */
export function localToUtc(date: LocalDate, time: LocalTime, timezone: string): Date {
  return new Date(localMinutesToUtcMs(date, parseEndTimeMinutes(time), timezone));
}

/** Local wall-clock parts of a UTC instant in a timezone. */
export interface LocalDateTime {
  date: LocalDate;
  time: LocalTime;
  /** minutes since local midnight, 0..1439 */
  minutesOfDay: number;
  /** 0 = Sunday ... 6 = Saturday */
  dayOfWeek: number;
  /** minutes east of UTC in force at that instant */
  offsetMinutes: number;
}

/** UTC instant -> salon-local date, time, minutes of day, day of week and offset. */
export function utcToLocal(instant: Date | number, timezone: string): LocalDateTime {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('Invalid instant');
  const offsetMinutes = utcOffsetMinutes(ms, timezone);
  const wall = new Date(ms + offsetMinutes * MINUTE_MS);
  const minutesOfDay = wall.getUTCHours() * 60 + wall.getUTCMinutes();
  return {
    date: wall.toISOString().slice(0, 10),
    time: minutesToTime(minutesOfDay),
    minutesOfDay,
    dayOfWeek: wall.getUTCDay(),
    offsetMinutes,
  };
}

/** UTC instant -> salon-local 'YYYY-MM-DD'. */
export function utcToLocalDate(instant: Date | number, timezone: string): LocalDate {
  return utcToLocal(instant, timezone).date;
}

/** UTC instant -> salon-local 'HH:mm'. */
export function utcToLocalTime(instant: Date | number, timezone: string): LocalTime {
  return utcToLocal(instant, timezone).time;
}

/**
 * The UTC interval [start, end) covered by a salon-local calendar date. On DST days it is 23 or 25
 * hours long.
 */
export function localDayBoundsUtcMs(date: LocalDate, timezone: string): { start: number; end: number } {
  return {
    start: localMinutesToUtcMs(date, 0, timezone),
    end: localMinutesToUtcMs(addDays(date, 1), 0, timezone),
  };
}
