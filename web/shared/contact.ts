// The contact step's checks, the same on the server-rendered form and in the v2 page, and the same
// limits as the API's BookingContactInput (name 1-200, phone pattern, e-mail, notes up to 1000). Pure.
import { withCountryCode } from './phone';
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

/** Field -> message key of what is wrong; empty when the contact can be sent. */
export function contactProblems(contact: ContactInput): Partial<Record<ContactField, MessageKey>> {
  const problems: Partial<Record<ContactField, MessageKey>> = {};
  const name = contact.name.trim();
  if (!name) problems.name = 'required';
  const phone = withCountryCode(contact.phone);
  if (!phone) problems.phone = 'required';
  else if (!PHONE.test(phone) || phone.length > 32) problems.phone = 'invalidPhone';
  const email = contact.email.trim();
  if (email && (!EMAIL.test(email) || email.length > 254)) problems.email = 'invalidEmail';
  return problems;
}

/** The body's `customer` of a public booking from what was typed. */
export function contactBody(contact: ContactInput): { name: string; phone: string; email: string | null; notes: string | null } {
  return {
    name: contact.name.trim().slice(0, 200),
    phone: withCountryCode(contact.phone),
    email: contact.email.trim() || null,
    notes: contact.notes.trim().slice(0, 1000) || null,
  };
}
