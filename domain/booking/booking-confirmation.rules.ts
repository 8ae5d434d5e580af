/**
 * The customer's own confirmation that they are coming, and the salon's settings around it
 * (docs/rules/reminders.md). Pure: the workflow, the services and the tests import it.
 *
 * A confirmation is not the salon's PENDING -> CONFIRMED: it is the customer's answer to the
 * reminder, recorded beside the status (confirmed_at, confirmed_via) and never changing it.
 */
import { isRemindable, REMINDER_LEAD_MS, type BookingStatus } from './booking-status.rules';

/** How the customer confirmed: the manage page's button or the public API (LINK), a reply by SMS, or told the salon (STAFF). */
export const CONFIRMATION_CHANNELS = ['LINK', 'SMS', 'STAFF'] as const;
export type ConfirmationChannel = (typeof CONFIRMATION_CHANNELS)[number];

/** settings.reminderHoursBefore: 1 to 168 hours (a week), 24 by default (docs/rules/limits.md#reminders). */
export const REMINDER_HOURS = { min: 1, max: 168, default: 24 } as const;
/** settings.unconfirmedFlagHoursBefore: 1 to 168 hours, or null (off, the default). */
export const UNCONFIRMED_FLAG_HOURS = { min: 1, max: 168 } as const;

const HOUR_MS = 60 * 60 * 1000;

/** The settings the booking's workflow reads (stored complete since migration 150; defaults for safety). */
export interface ReminderSettings {
  reminderHoursBefore?: number | null;
  unconfirmedFlagHoursBefore?: number | null;
}

/** How long before the start the reminder goes out, in ms. */
export function reminderLeadMs(settings: ReminderSettings): number {
  const hours = settings.reminderHoursBefore;
  return typeof hours === 'number' && hours >= REMINDER_HOURS.min ? hours * HOUR_MS : REMINDER_LEAD_MS;
}

/** How long before the start a still-unconfirmed booking is flagged to the salon, in ms; null: never. */
export function unconfirmedFlagLeadMs(settings: ReminderSettings): number | null {
  const hours = settings.unconfirmedFlagHoursBefore;
  return typeof hours === 'number' && hours >= UNCONFIRMED_FLAG_HOURS.min ? hours * HOUR_MS : null;
}

/**
 * When a booking still unconfirmed is flagged to the salon, or null when it is not: the salon set
 * no flag time, the customer already confirmed, the booking is no longer ahead (cancelled,
 * arrived, finished), or it was made closer to its start than the flag time (docs/rules/reminders.md#unconfirmed-bookings).
 */
export function unconfirmedFlagDueAt(
  booking: { status: BookingStatus; startTime: string | Date; confirmedAt: string | Date | null },
  now: number,
  leadMs: number | null,
): number | null {
  if (leadMs === null || booking.confirmedAt !== null || !isRemindable(booking.status)) return null;
  const at = new Date(booking.startTime).getTime() - leadMs;
  return at > now ? at : null;
}

/** Whether the customer may still confirm: the booking is ahead of them (PENDING or CONFIRMED) and has not started. */
export function canConfirmAttendance(booking: { status: BookingStatus; startTime: string | Date }, now: number): boolean {
  return isRemindable(booking.status) && new Date(booking.startTime).getTime() > now;
}

/** What an SMS reply asks for (docs/rules/reminders.md#answering-by-sms). */
export type ReplyIntent = 'CONFIRM' | 'CANCEL' | 'OTHER';

const CONFIRM_WORDS = new Set(['JA', 'YES']);
const CANCEL_WORDS = new Set(['NEI', 'NO']);

/**
 * "JA"/"YES" confirms and "NEI"/"NO" cancels, in any letter case, with spaces, punctuation and
 * emoji around the word ignored ("Ja!", " nei. "); anything else, a sentence included ("ja, men
 * kan jeg komme senere?"), is OTHER and gets the short help answer.
 */
export function replyIntent(text: string): ReplyIntent {
  const word = text
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .trim()
    .toUpperCase();
  if (CONFIRM_WORDS.has(word)) return 'CONFIRM';
  if (CANCEL_WORDS.has(word)) return 'CANCEL';
  return 'OTHER';
}
