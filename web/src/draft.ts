// The customer's choices so far, kept in sessionStorage on every change, and the step in the URL
// (`#staff`, `#time`, `#contact`; the first step has none), so each step is a history entry
// (docs/rules/booking-page.md#steps-and-history): the browser's Back goes to the previous step, and a
// reload, or a trip away from the page (the language switch, customer sign-in), comes back to the same
// step with the same choices. A visit without a step in the URL and no trip starts fresh.
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

export const emptyDraft = (services: string[]): Draft => ({
  step: 'services',
  services,
  staff: 'any',
  date: null,
  week: null,
  slot: null,
  contact: { name: '', phone: '', email: '', notes: '' },
  voucher: '',
});

const key = (slug: string) => `salon-booking-draft:${slug}`;
const tripKey = (slug: string) => `salon-booking-trip:${slug}`;
const STEPS: Step[] = ['services', 'staff', 'time', 'contact'];

export function saveDraft(slug: string, draft: Draft): void {
  try {
    sessionStorage.setItem(key(slug), JSON.stringify(draft));
  } catch {
    // private mode without storage: a reload starts over, nothing worse
  }
}

/** Before leaving the page for a trip that comes back without the step in the URL (language switch, sign-in). */
export function markTrip(slug: string): void {
  try {
    sessionStorage.setItem(tripKey(slug), '1');
  } catch {
    // as above
  }
}

/** The step the URL names (`#time`), or null. */
export function stepOfUrl(): Step | null {
  const step = location.hash.slice(1) as Step;
  return STEPS.includes(step) && step !== 'services' ? step : null;
}

/** The URL of a step: this page with `#<step>` (none for the first). */
export function urlOfStep(step: Step): string {
  return `${location.pathname}${location.search}${step === 'services' ? '' : `#${step}`}`;
}

/** Whether the choices made so far let the customer be at `step`. */
export function reachable(draft: Draft, step: Step): boolean {
  if (step === 'services') return true;
  if (draft.services.length === 0) return false;
  return step !== 'contact' || draft.slot !== null;
}

/** The kept draft, when the URL names a step (a reload, Back) or the customer comes back from a trip; null: start fresh. */
export function restoredDraft(slug: string): Draft | null {
  try {
    const trip = sessionStorage.getItem(tripKey(slug));
    sessionStorage.removeItem(tripKey(slug));
    const step = stepOfUrl();
    if (!step && !trip) return null;
    const raw = sessionStorage.getItem(key(slug));
    if (!raw) return null;
    const saved = JSON.parse(raw) as Draft;
    const at = step ?? saved.step;
    return { ...saved, step: reachable(saved, at) ? at : 'services' };
  } catch {
    return null;
  }
}
