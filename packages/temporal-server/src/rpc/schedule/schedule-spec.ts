// A schedule spec: compiled once (cron strings become structured calendars, the zone is checked)
// and asked for its nominal times: intervals counted from the epoch plus their phase, calendars
// in the spec's time zone, minus the excluded calendars, within start and end time. Jitter
// delays each action by a deterministic amount below the spec's jitter.
import { createHash } from 'node:crypto';
import { momentTz } from './time-zone';
import { invalidArgument } from '../../errors';
import type { ScheduleSpec, StructuredCalendarSpec } from '../../messages';
import { durationMs, timestampMs } from '../../proto';
import { calendarMatches, nextCalendarTime } from './calendar';
import { cronToCalendar } from './cron';

/** Returns the spec as Describe shows it: cron strings compiled into structured calendars. */
export function compileSpec(spec: ScheduleSpec | undefined): ScheduleSpec {
  const out: ScheduleSpec = { ...spec, cronString: undefined, structuredCalendar: [...(spec?.structuredCalendar ?? [])] };
  for (const cron of spec?.cronString ?? []) {
    const { calendar, timezone } = cronToCalendar(cron);
    if (timezone) out.timezoneName = timezone;
    out.structuredCalendar!.push(calendar);
  }
  if (spec?.calendar?.length)
    throw invalidArgument('Invalid schedule spec: string calendars are not supported by this dev server; use structured calendars or cron strings');
  if (out.timezoneName && !momentTz().tz.zone(out.timezoneName)) throw invalidArgument(`Invalid schedule spec: unknown time zone '${out.timezoneName}'`);
  for (const i of out.interval ?? []) if (durationMs(i.interval) <= 0) throw invalidArgument('Invalid schedule spec: interval must be positive');
  return out;
}

function nextIntervalTime(everyMs: number, phaseMs: number, afterMs: number): number {
  return phaseMs + (Math.floor((afterMs - phaseMs) / everyMs) + 1) * everyMs;
}

function excluded(spec: ScheduleSpec, t: number, zone: string): boolean {
  return (spec.excludeStructuredCalendar ?? []).some((c: StructuredCalendarSpec) => calendarMatches(c, t, zone));
}

/** The first nominal time strictly after `afterMs`, or undefined. */
export function nextNominalTime(spec: ScheduleSpec, afterMs: number): number | undefined {
  const zone = spec.timezoneName || 'UTC';
  const start = timestampMs(spec.startTime);
  const end = timestampMs(spec.endTime);
  let after = start !== undefined ? Math.max(afterMs, start - 1) : afterMs;
  for (let guard = 0; guard < 10_000; guard++) {
    let best: number | undefined;
    for (const i of spec.interval ?? []) {
      const t = nextIntervalTime(durationMs(i.interval), durationMs(i.phase), after);
      if (best === undefined || t < best) best = t;
    }
    for (const c of spec.structuredCalendar ?? []) {
      const t = nextCalendarTime(c, after, zone);
      if (t !== undefined && (best === undefined || t < best)) best = t;
    }
    if (best === undefined || (end !== undefined && best > end)) return undefined;
    if (!excluded(spec, best, zone)) return best;
    after = best;
  }
  return undefined;
}

/** When the action for `nominal` runs: delayed by up to the jitter, never past the next nominal time. */
export function actualTime(spec: ScheduleSpec, scheduleId: string, nominal: number): number {
  const jitter = durationMs(spec.jitter);
  if (jitter <= 0) return nominal;
  const next = nextNominalTime(spec, nominal);
  const limit = Math.min(jitter, next !== undefined ? next - nominal : jitter);
  const hash = createHash('sha256').update(`${scheduleId}:${nominal}`).digest().readUInt32BE(0);
  return nominal + Math.floor((hash / 0x1_0000_0000) * limit);
}

/** Nominal times in (fromMs, toMs], at most `max`. */
export function nominalTimesBetween(spec: ScheduleSpec, fromMs: number, toMs: number, max = 1000): number[] {
  const out: number[] = [];
  let t = nextNominalTime(spec, fromMs);
  while (t !== undefined && t <= toMs && out.length < max) {
    out.push(t);
    t = nextNominalTime(spec, t);
  }
  return out;
}
