/**
 * Reading an inbound SMS (docs/rules/reminders.md#answering-by-sms). Pure.
 */

/**
 * The spellings a sender's number may be stored under, E.164 first. The gateway sends numbers with
 * the country code and no plus (4791234567), or 8 national digits for Norway; bookings store E.164,
 * and ones stored before numbers were checked may hold the 8 national digits.
 */
export function senderPhones(number: string): string[] {
  const typed = number.trim();
  const digits = typed.replace(/\D/g, '');
  if (digits.length < 5 || digits.length > 15) return [];
  const international = typed.startsWith('+') ? digits : digits.startsWith('00') ? digits.slice(2) : digits.length === 8 ? `47${digits}` : digits;
  const phones = [`+${international}`];
  if (international.startsWith('47') && international.length === 10) phones.push(international.slice(2));
  return phones;
}

/** The longest inbound text kept (a reply longer than this is cut; sms_replies.text). */
export const SMS_REPLY_MAX_LENGTH = 1000;
