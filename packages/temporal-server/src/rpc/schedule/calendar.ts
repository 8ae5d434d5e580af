// The next time a structured calendar matches, in a time zone (moment-timezone). Empty second,
// minute and hour lists match 0, empty day, month, weekday and year lists match everything (the
// real server's defaults); a range's end below its start means just the start, step 0 means 1.
import { momentTz } from './time-zone';
import type { CalendarRange, StructuredCalendarSpec } from '../../messages';

type Unit = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';

function matches(ranges: CalendarRange[] | undefined, v: number, emptyMatchesAll: boolean): boolean {
  if (!ranges?.length) return emptyMatchesAll || v === 0;
  return ranges.some((r) => {
    const start = r.start ?? 0;
    const end = Math.max(r.end ?? start, start);
    const step = r.step || 1;
    return v >= start && v <= end && (v - start) % step === 0;
  });
}

/** True when `ms` (at whole seconds) matches the calendar in `zone`. */
export function calendarMatches(cal: StructuredCalendarSpec, ms: number, zone: string): boolean {
  const m = momentTz().tz(ms, zone);
  return (
    matches(cal.year, m.year(), true) &&
    matches(cal.month, m.month() + 1, true) &&
    matches(cal.dayOfMonth, m.date(), true) &&
    matches(cal.dayOfWeek, m.day(), true) &&
    matches(cal.hour, m.hour(), false) &&
    matches(cal.minute, m.minute(), false) &&
    matches(cal.second, m.second(), false)
  );
}

/** The first whole second strictly after `afterMs` the calendar matches, or undefined (none within 100 years). */
export function nextCalendarTime(cal: StructuredCalendarSpec, afterMs: number, zone: string): number | undefined {
  const m = momentTz().tz(Math.floor(afterMs / 1000) * 1000 + 1000, zone);
  const limit = m.year() + 100;
  const skip = (unit: Unit) => m.add(1, unit).startOf(unit);
  for (let i = 0; i < 200_000 && m.year() <= limit; i++) {
    if (!matches(cal.year, m.year(), true)) skip('year');
    else if (!matches(cal.month, m.month() + 1, true)) skip('month');
    else if (!matches(cal.dayOfMonth, m.date(), true) || !matches(cal.dayOfWeek, m.day(), true)) skip('day');
    else if (!matches(cal.hour, m.hour(), false)) skip('hour');
    else if (!matches(cal.minute, m.minute(), false)) skip('minute');
    else if (!matches(cal.second, m.second(), false)) skip('second');
    else return m.valueOf();
  }
  return undefined;
}
