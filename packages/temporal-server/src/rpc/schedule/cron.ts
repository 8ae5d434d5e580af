// Cron strings of a schedule spec compiled to structured calendars, as the real server does (its
// Describe returns only structured calendars): `[CRON_TZ=<zone>] min hour day-of-month month
// day-of-week`, an optional leading seconds field (6 fields), an optional trailing year (7),
// names for months and days, `*`, lists, ranges and steps, and the @yearly .. @hourly shorthands.
import { invalidArgument } from '../../errors';
import type { CalendarRange, StructuredCalendarSpec } from '../../messages';

const SHORTHANDS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface Field {
  min: number;
  max: number;
  names?: string[];
  nameBase?: number;
}

function value(text: string, f: Field): number {
  const upper = text.toUpperCase();
  const named = f.names?.indexOf(upper) ?? -1;
  const n = named >= 0 ? named + (f.nameBase ?? 0) : /^\d+$/.test(text) ? Number(text) : NaN;
  if (Number.isNaN(n) || n < f.min || n > f.max) throw invalidArgument(`Invalid schedule spec: bad cron value '${text}'`);
  return n;
}

function ranges(text: string, f: Field): CalendarRange[] {
  return text.split(',').map((part) => {
    const [base, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : value(stepText, { min: 1, max: 1000 });
    if (base === '*' || base === '?') return { start: f.min, end: f.max, step };
    const [a, b] = base.split('-');
    const start = value(a, f);
    const end = b !== undefined ? value(b, f) : stepText !== undefined ? f.max : start;
    return { start, end, step };
  });
}

/** Day-of-week ranges over 0..7 (7 is Sunday too) as ranges over 0..6. */
function weekdays(input: CalendarRange[]): CalendarRange[] {
  const days = new Set<number>();
  for (const r of input) {
    for (let d = r.start ?? 0; d <= Math.max(r.end ?? 0, r.start ?? 0); d += r.step || 1) days.add(d % 7);
  }
  const out: CalendarRange[] = [];
  for (let d = 0; d <= 6; d++) {
    if (!days.has(d)) continue;
    const last = out[out.length - 1];
    if (last && last.end === d - 1) last.end = d;
    else out.push({ start: d, end: d, step: 1 });
  }
  return out;
}

export function cronToCalendar(cron: string): { calendar: StructuredCalendarSpec; timezone?: string } {
  let text = cron.trim();
  let timezone: string | undefined;
  const tz = /^(?:CRON_TZ|TZ)=(\S+)\s+/.exec(text);
  if (tz) {
    timezone = tz[1];
    text = text.slice(tz[0].length);
  }
  const comment = text.includes('#') ? text.slice(text.indexOf('#') + 1).trim() : undefined;
  if (comment !== undefined) text = text.slice(0, text.indexOf('#')).trim();
  text = SHORTHANDS[text.toLowerCase()] ?? text;
  const fields = text.split(/\s+/);
  if (fields.length < 5 || fields.length > 7) throw invalidArgument(`Invalid schedule spec: cron string '${cron}' needs 5 to 7 fields`);
  const second = fields.length >= 6 ? fields.shift()! : '0';
  const year = fields.length === 6 ? fields.pop()! : '*';
  const [minute, hour, dom, month, dow] = fields;
  const dayOfWeek = weekdays(ranges(dow, { min: 0, max: 7, names: DAYS }));
  return {
    timezone,
    calendar: {
      second: ranges(second, { min: 0, max: 59 }),
      minute: ranges(minute, { min: 0, max: 59 }),
      hour: ranges(hour, { min: 0, max: 23 }),
      dayOfMonth: ranges(dom, { min: 1, max: 31 }),
      month: ranges(month, { min: 1, max: 12, names: MONTHS, nameBase: 1 }),
      year: year === '*' ? [] : ranges(year, { min: 1970, max: 9999 }),
      dayOfWeek,
      comment,
    },
  };
}
