/**
 * Reading an inbound SMS (docs/rules/reminders.md#answering-by-sms). Pure.
 */
import { DEFAULT_PHONE_REGION, toE164 } from '../phone/phone.rules';

/**
 * The sender's number in E.164, as bookings store it (docs/rules/conventions.md#phone-numbers), or
 * null when it is no phone number. The gateway writes numbers with their country code and no plus
 * (4791234567); 8 digits are a number of Norway, the platform's country.
 */
export function senderPhone(number: string): string | null {
  const typed = number.trim();
  return toE164(/^[1-9]\d{8,14}$/.test(typed) ? `+${typed}` : typed, DEFAULT_PHONE_REGION);
}

/** The longest inbound text kept (a reply longer than this is cut; sms_replies.text). */
export const SMS_REPLY_MAX_LENGTH = 1000;
