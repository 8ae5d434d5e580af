// Salon-local times of the front desk: every instant is shown in the salon's zone, never the
// browser's (docs/rules/front-desk.md#the-day). Pure: Intl only. The formatters are made once per
// zone and locale and kept: making one costs far more than using it, and a busy day formats
// thousands of times (npm run bench:desk).
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = formatters.get(key);
  if (!f) {
    f = make();
    formatters.set(key, f);
  }
  return f;
}

/** The salon-local date and minutes since its midnight of an instant. */
export function localParts(instant: string | Date, tz: string): { date: string; minutes: number } {
  const f = formatter(
    `parts|${tz}`,
    () =>
      new Intl.DateTimeFormat('en-CA', {
        timeZone: tz,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }),
  );
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(new Date(instant))) p[part.type] = part.value;
  return { date: `${p.year}-${p.month}-${p.day}`, minutes: (Number(p.hour) % 24) * 60 + Number(p.minute) };
}

/** Minutes since the salon-local midnight of the instant's own day. */
export function minutesOfDay(instant: string | Date, tz: string): number {
  return localParts(instant, tz).minutes;
}

/** Minutes of the instant on the grid of `date`: before the day is 0, after it 24 h. */
export function minutesOn(instant: string | Date, date: string, tz: string): number {
  const local = localParts(instant, tz);
  if (local.date < date) return 0;
  if (local.date > date) return 24 * 60;
  return local.minutes;
}

/** "14:30" in the salon's zone. */
export function clock(instant: string | Date, tz: string, locale: string): string {
  return formatter(
    `clock|${tz}|${locale}`,
    () => new Intl.DateTimeFormat(locale, { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  ).format(new Date(instant));
}

export function hhmm(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

export function timeRange(from: string, to: string, tz: string, locale: string): string {
  return `${clock(from, tz, locale)}–${clock(to, tz, locale)}`;
}

export function todayIn(tz: string): string {
  return localParts(new Date(), tz).date;
}
