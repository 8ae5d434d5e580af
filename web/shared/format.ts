// Formatting for the customer pages, shared by the server-rendered pages (api/pages) and the v2
// bundle (web/src), so both show the same text. Everything is rendered in the salon's time zone and
// currency, never the browser's (docs/rules/booking-page.md). Pure: Intl only, no DOM, no Node.
export type Lang = 'nb' | 'en';

/** The Intl locale of a page: the salon's locale in Norwegian, British English conventions in English. */
export function intlLocale(lang: Lang, salonLocale = 'nb-NO'): string {
  return lang === 'en' ? 'en-GB' : salonLocale;
}

/**
 * Minor units -> "699 kr" / "kr 699": the currency's local sign in both languages (never "NOK"),
 * decimals only when the amount has them. The messages write money the same way
 * (domain/money/money.rules.ts; test/unit/money/money.rules.test.ts holds the two together).
 */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const options = { style: 'currency', currency, currencyDisplay: 'narrowSymbol' } as const;
  const digits = new Intl.NumberFormat(locale, options).resolvedOptions().maximumFractionDigits ?? 2;
  const major = minor / 10 ** digits;
  const whole = Number.isInteger(major);
  return new Intl.NumberFormat(locale, { ...options, minimumFractionDigits: whole ? 0 : digits, maximumFractionDigits: digits }).format(major);
}

/** "fredag 4. desember" of an instant, in the salon's zone. */
export function formatDay(instant: Date | string, timeZone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { timeZone, weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(instant));
}

/** "fredag 4. desember 2026" of an instant, in the salon's zone. */
export function formatLongDay(instant: Date | string, timeZone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(instant));
}

/** "fredag 4. desember kl. 14:30" / "Friday 4 December at 14:30" of an instant, in the salon's zone. */
export function formatDayTime(instant: Date | string, timeZone: string, lang: Lang, locale: string): string {
  return `${formatDay(instant, timeZone, locale)} ${lang === 'nb' ? 'kl.' : 'at'} ${formatTime(instant, timeZone, locale)}`;
}

/** "14:30" of an instant, in the salon's zone. */
export function formatTime(instant: Date | string, timeZone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(instant));
}

/** A salon-local calendar date `YYYY-MM-DD` as a day label ("fredag 4. desember"), read at noon UTC so no zone shifts the day. */
export function formatLocalDate(
  date: string,
  locale: string,
  options: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long' },
): string {
  return new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options }).format(noonUtc(date));
}

/** The salon-local date `YYYY-MM-DD` of an instant. */
export function localDateOf(instant: Date | string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

function noonUtc(date: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d, 12));
}

/** `YYYY-MM-DD` plus n days (calendar arithmetic, no zone). */
export function addDays(date: string, days: number): string {
  const t = noonUtc(date);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}

/** 0 = Sunday ... 6 = Saturday, of a calendar date. */
export function dayOfWeek(date: string): number {
  return noonUtc(date).getUTCDay();
}

/** The Monday of the week a date is in. */
export function mondayOf(date: string): string {
  return addDays(date, -((dayOfWeek(date) + 6) % 7));
}

/** The seven dates of the week that starts on `monday`. */
export function weekOf(monday: string): string[] {
  return [0, 1, 2, 3, 4, 5, 6].map((i) => addDays(monday, i));
}

export const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date `YYYY-MM-DD` (2027-02-30 is not). */
export function isLocalDate(value: unknown): value is string {
  return typeof value === 'string' && LOCAL_DATE.test(value) && noonUtc(value).toISOString().slice(0, 10) === value;
}

/** Minutes as "1 t 30 min" / "1 h 30 min". */
export function formatDuration(minutes: number, lang: Lang): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const hour = lang === 'nb' ? 't' : 'h';
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} ${hour}` : `${h} ${hour} ${m} min`;
}
