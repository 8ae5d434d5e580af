// The contact step's checks, the same on the server-rendered form and in the v2 page, and the same
// limits as the API's BookingContactInput (name 1-200, phone pattern, e-mail, notes up to 1000). Pure.
// The phone number goes as typed: the platform reads it in the salon's country and answers 400 naming
// `customer.phone` when it is no number (docs/rules/conventions.md#phone-numbers), so the page needs no
// phone library of its own.
import type { MessageKey } from './i18n';

export interface ContactInput {
  name: string;
  phone: string;
  email: string;
  notes: string;
}

export type ContactField = keyof ContactInput;

const PHONE = /^\+?[0-9][0-9 ()-]{4,30}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// control characters a keyboard does not type (a form post may still carry them); notes keep line breaks
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const clean = (text: string, keepLines = false) => (keepLines ? text : text.replace(/[\r\n\t]/g, ' ')).replace(CONTROL, '').trim();

/** Field -> message key of what is wrong; empty when the contact can be sent. */
export function contactProblems(contact: ContactInput): Partial<Record<ContactField, MessageKey>> {
  const problems: Partial<Record<ContactField, MessageKey>> = {};
  const name = contact.name.replace(CONTROL, '').trim();
  if (!name) problems.name = 'required';
  const phone = contact.phone.trim();
  if (!phone) problems.phone = 'required';
  else if (!PHONE.test(phone) || phone.length > 32) problems.phone = 'invalidPhone';
  const email = contact.email.trim();
  if (email && (!EMAIL.test(email) || email.length > 254)) problems.email = 'invalidEmail';
  return problems;
}

/** The body's `customer` of a public booking from what was typed. */
export function contactBody(contact: ContactInput): { name: string; phone: string; email: string | null; notes: string | null } {
  return {
    name: clean(contact.name).slice(0, 200),
    phone: clean(contact.phone),
    email: clean(contact.email) || null,
    notes: clean(contact.notes, true).slice(0, 1000) || null,
  };
}
