// What a day of the week strip is, the same on the server-rendered steps and in the v2 page
// (docs/rules/booking-page.md#the-flow): past, beyond the booking window, closed (nobody who does the
// services works that day: the availability's `working`), full (someone works, nothing is free: the
// waitlist can be joined), or with free times. Pure.
import { freeTimes, t, type MessageKey } from './i18n';
import type { Lang } from './format';

export type DayState = 'past' | 'beyond' | 'closed' | 'full' | 'free';

/** The longest stretch a waitlist entry may wait over (docs/rules/waitlist.md#joining: to at most 60 days after from). */
export const WAITLIST_MAX_DAYS = 60;

export function dayState(date: string, today: string, last: string, working: boolean, free: number): DayState {
  if (date < today) return 'past';
  if (date > last) return 'beyond';
  if (free > 0) return 'free';
  return working ? 'full' : 'closed';
}

/** Whether the day can be chosen: to book a time, or (full) to join the waitlist for it. */
export function isChoosable(state: DayState): boolean {
  return state === 'free' || state === 'full';
}

const LONG: Record<Exclude<DayState, 'free'>, MessageKey> = { past: 'dayPastLong', beyond: 'dayBeyondLong', closed: 'dayClosedLong', full: 'dayFullLong' };

/** The day's state in words for its description: "3 ledige tider", "alt er tatt", "stengt", ... */
export function dayStateText(lang: Lang, state: DayState, free: number): string {
  return state === 'free' ? freeTimes(lang, free) : t(lang, LONG[state]);
}

/**
 * The day's description for a screen reader, a whole sentence: "Fredag 4. desember: alt er tatt." /
 * "Friday 4 December: fully booked." (`day` the date as the page writes it).
 */
export function daySentence(lang: Lang, day: string, state: DayState, free: number): string {
  return t(lang, 'dayButton', { day: day.charAt(0).toUpperCase() + day.slice(1), free: dayStateText(lang, state, free) });
}

/** What the day's button shows under its date: the number of free times, "Fullt", "Stengt", or a dash. */
export function dayBadge(lang: Lang, state: DayState, free: number): string {
  if (state === 'free') return String(free);
  if (state === 'full') return t(lang, 'dayFull');
  if (state === 'closed') return t(lang, 'dayClosed');
  return '–';
}
