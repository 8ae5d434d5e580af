// Where a customer manages a booking on the platform's own pages (docs/rules/booking-page.md): the page
// links to it after booking, and the booking's messages carry it (with PUBLIC_BASE_URL in front).
// The token is the booking's cancellation token, the customer's proof.
import type { Language } from '../language/language.rules';

/** The manage page; in English when the booking was made in English (`&lang=en`), Norwegian is the page's default. */
export function manageBookingPath(slug: string, bookingId: string, token: string, language: Language = 'nb'): string {
  return `/${encodeURIComponent(slug)}/bookings/${bookingId}?token=${encodeURIComponent(token)}${language === 'en' ? '&lang=en' : ''}`;
}

export function bookingCalendarPath(slug: string, bookingId: string, token: string): string {
  return `/${encodeURIComponent(slug)}/bookings/${bookingId}/calendar.ics?token=${encodeURIComponent(token)}`;
}
