// The texts of the standing appointments and the rebooking nudge
// (docs/rules/messages.md#standing-appointments-and-rebooking-nudges), in Norwegian Bokmål or English
// (docs/rules/messages.md#language): the customer's in the language of the booking they are about,
// the salon's in the salon's. Pure: times are rendered in the salon's time zone.
import type { Language } from '../language/language.rules';
import { contactTheSalon, messageDateTime, type RenderedMessage, type SalonContactFacts } from './booking-messages.rules';

/** MOVED: the occurrence was booked at the nearest free time; SKIPPED: nothing was free within the tolerance. */
export type SeriesMessageKind = 'MOVED' | 'SKIPPED';

export interface SeriesOccurrenceFacts {
  salonName: string;
  /** how the customer reaches the salon, for the occurrence that was not booked */
  salonContact?: SalonContactFacts | null;
  customerName: string;
  timezone: string;
  services: string[];
  staffName: string | null;
  /** the planned time */
  plannedStart: Date;
  /** the booked time (MOVED) */
  startTime: Date | null;
  toleranceDays: number;
  /** the booking's manage link (MOVED), when there is one */
  manageUrl: string | null;
}

function what(facts: { services: string[]; staffName: string | null }, language: Language): string {
  if (!facts.staffName) return facts.services.join(', ');
  return `${facts.services.join(', ')} ${language === 'nb' ? 'hos' : 'with'} ${facts.staffName}`;
}

/** To the customer, in the language of the series' bookings. */
export function renderSeriesMessage(kind: SeriesMessageKind, facts: SeriesOccurrenceFacts, language: Language = 'nb'): RenderedMessage {
  const planned = messageDateTime(facts.plannedStart, facts.timezone, language);
  if (language === 'en') {
    if (kind === 'MOVED') {
      const booked = messageDateTime(facts.startTime!, facts.timezone, 'en');
      const manage = facts.manageUrl ? ` See or cancel the appointment: ${facts.manageUrl}` : '';
      return {
        subject: `Your standing appointment at ${facts.salonName} has moved`,
        text: `Hi ${facts.customerName}! Your standing appointment (${what(facts, 'en')}) ${planned} was not free, so we have booked the nearest free time: ${booked}.${manage}`,
      };
    }
    return {
      subject: `Your standing appointment at ${facts.salonName} was not booked`,
      text: `Hi ${facts.customerName}! Your standing appointment (${what(facts, 'en')}) ${planned} was not free, and we found no free time within ${facts.toleranceDays} days before or after. This one appointment is therefore not booked; the next ones follow as before. ${contactTheSalon(facts.salonName, facts.salonContact, 'en')} if you would like another time.`,
    };
  }
  if (kind === 'MOVED') {
    const booked = messageDateTime(facts.startTime!, facts.timezone, 'nb');
    const manage = facts.manageUrl ? ` Se eller avbestill timen: ${facts.manageUrl}` : '';
    return {
      subject: `Din faste time hos ${facts.salonName} er flyttet`,
      text: `Hei ${facts.customerName}! Din faste time (${what(facts, 'nb')}) ${planned} var ikke ledig, så vi har booket nærmeste ledige tid: ${booked}.${manage}`,
    };
  }
  return {
    subject: `Din faste time hos ${facts.salonName} ble ikke booket`,
    text: `Hei ${facts.customerName}! Din faste time (${what(facts, 'nb')}) ${planned} var ikke ledig, og vi fant ingen ledig tid innen ${facts.toleranceDays} dager før eller etter. Denne ene timen er derfor ikke booket; de neste følger som før. ${contactTheSalon(facts.salonName, facts.salonContact, 'nb')} om du vil ha en annen tid.`,
  };
}

/** To the salon's owners, in the salon's language: an occurrence that could not be booked. */
export function renderSeriesSkippedToSalon(facts: SeriesOccurrenceFacts & { customerPhone: string | null }, language: Language = 'nb'): RenderedMessage {
  const planned = messageDateTime(facts.plannedStart, facts.timezone, language);
  const phone = facts.customerPhone ? ` (${facts.customerPhone})` : '';
  if (language === 'en') {
    return {
      subject: `Standing appointment not booked: ${facts.customerName} ${planned}`,
      text: `The standing appointment of ${facts.customerName}${phone}, ${what(facts, 'en')} ${planned}, could not be booked: no free time within ${facts.toleranceDays} days before or after. The customer has been told. The series goes on with the next appointment.`,
    };
  }
  return {
    subject: `Fast time ikke booket: ${facts.customerName} ${planned}`,
    text: `Den faste timen til ${facts.customerName}${phone}, ${what(facts, 'nb')} ${planned}, kunne ikke bookes: ingen ledig tid innen ${facts.toleranceDays} dager før eller etter. Kunden er varslet. Serien fortsetter med neste time.`,
  };
}

export interface RebookingNudgeFacts {
  salonName: string;
  customerName: string;
  services: string[];
  staffName: string | null;
  weeks: number;
  bookUrl: string;
  unsubscribeUrl: string;
}

/** `{PUBLIC_BASE_URL}/{slug}?services=a,b&staff=<id>`: the booking page with the visit's services and staff member chosen (`&lang=en` in English). */
export function rebookUrl(publicBaseUrl: string, slug: string, serviceIds: readonly string[], resourceId: string | null, language: Language = 'nb'): string {
  const q = new URLSearchParams({ services: serviceIds.join(',') });
  if (resourceId) q.set('staff', resourceId);
  if (language === 'en') q.set('lang', 'en');
  return `${publicBaseUrl.replace(/\/+$/, '')}/${encodeURIComponent(slug)}?${q.toString()}`;
}

/** `{PUBLIC_BASE_URL}/{slug}/nudges/unsubscribe?customer=<id>&token=...` (`&lang=en` in English) */
export function nudgeUnsubscribeUrl(publicBaseUrl: string, slug: string, customerId: string, token: string, language: Language = 'nb'): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/${encodeURIComponent(slug)}/nudges/unsubscribe?customer=${customerId}&token=${encodeURIComponent(token)}${language === 'en' ? '&lang=en' : ''}`;
}

/** In the language of the visit it follows. */
export function renderRebookingNudge(facts: RebookingNudgeFacts, language: Language = 'nb'): RenderedMessage {
  if (language === 'en') {
    return {
      subject: `Time for your next visit to ${facts.salonName}?`,
      text: `Hi ${facts.customerName}! It is ${facts.weeks} weeks since your ${what(facts, 'en')} at ${facts.salonName}. Book your next appointment here: ${facts.bookUrl} To stop such reminders: ${facts.unsubscribeUrl}`,
    };
  }
  return {
    subject: `Tid for neste besøk hos ${facts.salonName}?`,
    text: `Hei ${facts.customerName}! Det er ${facts.weeks} uker siden ${what(facts, 'nb')} hos ${facts.salonName}. Bestill neste time her: ${facts.bookUrl} Vil du ikke få slike påminnelser: ${facts.unsubscribeUrl}`,
  };
}
