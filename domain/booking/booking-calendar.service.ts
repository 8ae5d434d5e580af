/**
 * A booking as an iCalendar object (RFC 5545, with the iTIP methods of RFC 5546), for the
 * confirmation e-mail's attachment and the booking page's "add to calendar" file. Calendars update
 * the one event instead of adding a second because every file of a booking carries the same UID
 * (`booking-<id>@<platform domain>`) and a SEQUENCE that only grows (the booking's calendar
 * sequence, raised by the changes its messages announce: confirmed, moved, cancelled); times carry the salon's TZID with its VTIMEZONE; a
 * cancellation is METHOD:CANCEL with STATUS:CANCELLED. Written with ical-generator (its calendar
 * time zone is left unset so DTSTAMP stays UTC as RFC 5545 requires; each event names its zone).
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import moment from 'moment-timezone';
import type { BookingStatus } from './booking-status.rules';
import type { Language } from '../language/language.rules';

export type CalendarMethod = 'PUBLISH' | 'REQUEST' | 'CANCEL';

export interface BookingCalendarFacts {
  bookingId: string;
  /** the booking's calendar sequence: grows with every change its messages announce */
  sequence: number;
  /** the booking's language: the event's text is written in it */
  language?: Language;
  status: BookingStatus;
  start: Date;
  end: Date;
  /** the salon's IANA zone (the booking's display snapshot) */
  timezone: string;
  salonName: string;
  /** one line, e.g. "Storgata 1, 0155 Oslo" */
  location: string | null;
  services: string[];
  staffName: string | null;
  /** the customer's manage page */
  manageUrl: string | null;
  /** the platform's domain: the right-hand side of the UID */
  uidDomain: string;
  /** iTIP (REQUEST, CANCEL) needs an organizer and an attendee */
  organizer?: { name: string; email: string };
  attendee?: { name: string; email: string };
}

const METHODS: Record<CalendarMethod, ICalCalendarMethod> = {
  PUBLISH: ICalCalendarMethod.PUBLISH,
  REQUEST: ICalCalendarMethod.REQUEST,
  CANCEL: ICalCalendarMethod.CANCEL,
};

export function bookingUid(bookingId: string, uidDomain: string): string {
  return `booking-${bookingId}@${uidDomain}`;
}

/** The method a message about the booking carries: CANCEL once cancelled, else REQUEST. */
export function calendarMethodFor(status: BookingStatus): CalendarMethod {
  return status === 'CANCELLED' ? 'CANCEL' : 'REQUEST';
}

function eventStatus(status: BookingStatus): ICalEventStatus {
  if (status === 'CANCELLED' || status === 'NO_SHOW') return ICalEventStatus.CANCELLED;
  return status === 'PENDING' ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED;
}

/** A zone's VTIMEZONE text never changes while the process runs; the package reads it from disk on every call. */
const vtimezones = new Map<string, string | null>();
function vtimezoneOf(zone: string): string | null {
  if (!vtimezones.has(zone)) vtimezones.set(zone, getVtimezoneComponent(zone) ?? null);
  return vtimezones.get(zone)!;
}

export function bookingCalendar(facts: BookingCalendarFacts, method: CalendarMethod): string {
  const language = facts.language ?? 'nb';
  const calendar = ical({ prodId: { company: 'salon-platform', product: 'booking', language: language.toUpperCase() }, method: METHODS[method] });
  // name null: no calendar-wide zone (DTSTAMP stays UTC), but every event zone gets its VTIMEZONE
  calendar.timezone({ name: null, generator: vtimezoneOf });
  const what = facts.services.join(', ');
  const withStaff = facts.staffName ? `${what} ${language === 'en' ? 'with' : 'hos'} ${facts.staffName}` : what;
  const manage = facts.manageUrl ? `${language === 'en' ? 'See or cancel the appointment' : 'Se eller avbestill timen'}: ${facts.manageUrl}` : null;
  const description = [withStaff, manage].filter(Boolean).join('\n');
  calendar.createEvent({
    id: bookingUid(facts.bookingId, facts.uidDomain),
    sequence: facts.sequence,
    stamp: moment.utc(),
    start: moment.tz(facts.start, facts.timezone),
    end: moment.tz(facts.end, facts.timezone),
    timezone: facts.timezone,
    summary: `${what} – ${facts.salonName}`,
    description,
    location: facts.location,
    url: facts.manageUrl,
    status: method === 'CANCEL' ? ICalEventStatus.CANCELLED : eventStatus(facts.status),
    ...(method !== 'PUBLISH' && facts.organizer ? { organizer: facts.organizer } : {}),
    ...(method !== 'PUBLISH' && facts.attendee ? { attendees: [{ name: facts.attendee.name, email: facts.attendee.email, rsvp: false }] } : {}),
  });
  return calendar.toString();
}

/** "Storgata 1, 0155 Oslo" from the salon's address, or null. */
export function addressLine(address: unknown): string | null {
  if (!address || typeof address !== 'object') return null;
  const a = address as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const city = [text(a.postalCode), text(a.city)].filter(Boolean).join(' ');
  const line = [text(a.street), city || null].filter(Boolean).join(', ');
  return line || null;
}
