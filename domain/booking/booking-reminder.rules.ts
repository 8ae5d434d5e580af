/**
 * The reminder the customer answers (docs/rules/reminders.md): when it goes out, the customer's
 * promise to come, the salon's flag of a booking nobody promised, and what an SMS reply asks for.
 * Pure: the workflow, the services and the tests import it.
 *
 * A promise is not the salon's confirmation (PENDING -> CONFIRMED, docs/rules/booking.md#the-words):
 * it is the customer's answer to the reminder, recorded beside the status (promised_at, promised_via)
 * and never changing it.
 */
import { isRemindable, REMINDER_LEAD_MS, type BookingStatus } from './booking-status.rules';

/** How the customer promised to come: the manage page's button or the public API (LINK), a reply by SMS, or told the salon (STAFF). */
export const PROMISE_CHANNELS = ['LINK', 'SMS', 'STAFF'] as const;
export type PromiseChannel = (typeof PROMISE_CHANNELS)[number];

/** settings.reminderHoursBefore: 1 to 168 hours (a week), 24 by default (docs/rules/limits.md#reminders). */
export const REMINDER_HOURS = { min: 1, max: 168, default: 24 } as const;
/** settings.unpromisedFlagHoursBefore: 1 to 168 hours, or null (off, the default). */
export const UNPROMISED_FLAG_HOURS = { min: 1, max: 168 } as const;

const HOUR_MS = 60 * 60 * 1000;

/** The settings the booking's workflow reads (stored complete since migration 150; defaults for safety). */
export interface ReminderSettings {
  reminderHoursBefore?: number | null;
  unpromisedFlagHoursBefore?: number | null;
}

/** How long before the start the reminder goes out, in ms. */
export function reminderLeadMs(settings: ReminderSettings): number {
  const hours = settings.reminderHoursBefore;
  return typeof hours === 'number' && hours >= REMINDER_HOURS.min ? hours * HOUR_MS : REMINDER_LEAD_MS;
}

/** How long before the start a booking without the customer's promise is flagged to the salon, in ms; null: never. */
export function unpromisedFlagLeadMs(settings: ReminderSettings): number | null {
  const hours = settings.unpromisedFlagHoursBefore;
  return typeof hours === 'number' && hours >= UNPROMISED_FLAG_HOURS.min ? hours * HOUR_MS : null;
}

/**
 * When a booking the customer has not promised to come to is flagged to the salon, or null when it
 * is not: the salon set no flag time, the customer already promised, the booking is no longer ahead
 * (cancelled, arrived, finished), or it was made closer to its start than the flag time
 * (docs/rules/reminders.md#bookings-without-a-promise).
 */
export function unpromisedFlagDueAt(
  booking: { status: BookingStatus; startTime: string | Date; promisedAt: string | Date | null },
  now: number,
  leadMs: number | null,
): number | null {
  if (leadMs === null || booking.promisedAt !== null || !isRemindable(booking.status)) return null;
  const at = new Date(booking.startTime).getTime() - leadMs;
  return at > now ? at : null;
}

/** Whether the customer may still promise to come: the booking is ahead of them (PENDING or CONFIRMED) and has not started. */
export function canPromise(booking: { status: BookingStatus; startTime: string | Date }, now: number): boolean {
  return isRemindable(booking.status) && new Date(booking.startTime).getTime() > now;
}

/** What an SMS reply asks for (docs/rules/reminders.md#answering-by-sms). */
export type ReplyIntent = 'PROMISE' | 'CANCEL' | 'OTHER';

const PROMISE_WORDS = new Set(['JA', 'YES']);
const CANCEL_WORDS = new Set(['NEI', 'NO']);

/**
 * "JA"/"YES" promises to come and "NEI"/"NO" cancels, in any letter case, with spaces, punctuation and
 * emoji around the word ignored ("Ja!", " nei. "); anything else, a sentence included ("ja, men
 * kan jeg komme senere?"), is OTHER and gets the short help answer.
 */
export function replyIntent(text: string): ReplyIntent {
  const word = text
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .trim()
    .toUpperCase();
  if (PROMISE_WORDS.has(word)) return 'PROMISE';
  if (CANCEL_WORDS.has(word)) return 'CANCEL';
  return 'OTHER';
}
