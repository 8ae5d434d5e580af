// The customer's choices so far. Kept in sessionStorage across a full-page trip (the language switch,
// customer sign-in at the identity provider) and restored once when the page comes back.
import type { components } from '../generated/api';

export type Slot = components['schemas']['AvailabilitySlot'];
export type Step = 'services' | 'staff' | 'time' | 'contact';

export interface Contact {
  name: string;
  phone: string;
  email: string;
  notes: string;
}

export interface Draft {
  step: Step;
  services: string[];
  /** a staff member's id, or 'any' */
  staff: string;
  date: string | null;
  week: string | null;
  slot: Slot | null;
  contact: Contact;
  voucher: string;
}

/** A link that chose the services and the staff member (a rebooking nudge) opens at the time step. */
export const emptyDraft = (services: string[], staff: string | null = null): Draft => ({
  step: services.length && staff ? 'time' : 'services',
  services,
  staff: staff ?? 'any',
  date: null,
  week: null,
  slot: null,
  contact: { name: '', phone: '', email: '', notes: '' },
  voucher: '',
});

const key = (slug: string) => `salon-booking-draft:${slug}`;

export function saveDraft(slug: string, draft: Draft): void {
  try {
    sessionStorage.setItem(key(slug), JSON.stringify(draft));
  } catch {
    // private mode without storage: the trip starts over, nothing worse
  }
}

/** The saved draft, removed as it is read (a later visit starts fresh). */
export function takeDraft(slug: string): Draft | null {
  try {
    const raw = sessionStorage.getItem(key(slug));
    sessionStorage.removeItem(key(slug));
    return raw ? (JSON.parse(raw) as Draft) : null;
  } catch {
    return null;
  }
}
