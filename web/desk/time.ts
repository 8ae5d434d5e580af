// Salon-local times of the front desk: every instant is shown in the salon's zone, never the
// browser's (docs/rules/front-desk.md#the-day). Pure: Intl only.
import { formatTime, localDateOf } from '../shared/format';

const partsCache = new Map<string, Intl.DateTimeFormat>();

function hourMinute(tz: string): Intl.DateTimeFormat {
  let f = partsCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    partsCache.set(tz, f);
  }
  return f;
}

/** Minutes since the salon-local midnight of the instant's own day. */
export function minutesOfDay(instant: string | Date, tz: string): number {
  const parts = hourMinute(tz).formatToParts(new Date(instant));
  const h = Number(parts.find((p) => p.type === 'hour')!.value);
  const m = Number(parts.find((p) => p.type === 'minute')!.value);
  return (h % 24) * 60 + m;
}

/** Minutes of the instant on the grid of `date`: before the day is 0, after it 24 h. */
export function minutesOn(instant: string | Date, date: string, tz: string): number {
  const day = localDateOf(instant, tz);
  if (day < date) return 0;
  if (day > date) return 24 * 60;
  return minutesOfDay(instant, tz);
}

export function hhmm(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

export function timeRange(from: string, to: string, tz: string, locale: string): string {
  return `${formatTime(from, tz, locale)}–${formatTime(to, tz, locale)}`;
}

export function todayIn(tz: string): string {
  return localDateOf(new Date(), tz);
}
