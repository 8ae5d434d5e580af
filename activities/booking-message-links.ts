// What a booking message carries besides its text (docs/rules/booking-page.md#manage-links): the
// link to the customer's manage page, and for e-mail the booking as a calendar invitation
// (docs/rules/booking-page.md#calendar-files), so the customer's calendar keeps one event that
// follows every move and disappears on cancellation.
import type { BookingStatus } from '../domain/booking/booking-status.rules';
import type { BookingMessageKind } from '../domain/notifications/booking-messages.rules';
import { reissueManageToken, manageLinkPath } from '../domain/booking/manage-link.service';
import { addressLine, bookingCalendar, calendarMethodFor } from '../domain/booking/booking-calendar.service';
import type { MailAttachment } from '../domain/notifications/mailer';
import type { LinkKey } from '../domain/crypto/link-key';
import type { Language } from '../domain/language/language.rules';

/** Where links point and who sends invitations: PUBLIC_BASE_URL, the link keys (from JWT_SECRET), PLATFORM_DOMAIN, MAIL_FROM. */
export interface BookingLinkConfig {
  publicBaseUrl: string;
  /** the manage links of booking messages (docs/rules/security.md#keys) */
  manageLinkKey: LinkKey;
  /** the accept links of waitlist offers */
  offerKey: LinkKey;
  /** the links of waitlist entries */
  entryKey: LinkKey;
  /** the unsubscribe links of rebooking nudges */
  unsubscribeKey: string;
  platformDomain: string;
  mailFrom: string;
}

export interface LinkedBooking {
  id: string;
  status: BookingStatus;
  /** its calendar event's SEQUENCE (docs/rules/booking-page.md#calendar-files) */
  calendarSequence: number;
  /** the language it was made in: the link opens the manage page in it, the invitation's text is in it */
  language: Language;
  startTime: Date;
  endTime: Date;
  manageTokenHash: string | null;
  contactName: string | null;
}

export interface LinkedSalon {
  name: string;
  slug: string;
  address: unknown;
}

export function manageUrlOf(links: BookingLinkConfig | undefined, salon: LinkedSalon, booking: LinkedBooking): string | null {
  if (!links) return null;
  const token = reissueManageToken(links.manageLinkKey, booking.id, booking.manageTokenHash);
  return token ? `${links.publicBaseUrl}${manageLinkPath(salon.slug, booking.id, token, booking.language)}` : null;
}

/** `Name <address>` or a bare address -> the address. */
function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}

/** Messages that put the booking into the customer's calendar, or take it out. */
const CALENDAR_KINDS: BookingMessageKind[] = ['RECEIVED', 'CONFIRMED', 'RESCHEDULED', 'CANCELLED'];

export function calendarAttachment(
  links: BookingLinkConfig | undefined,
  kind: BookingMessageKind,
  input: {
    salon: LinkedSalon;
    booking: LinkedBooking;
    timezone: string;
    services: string[];
    staffName: string | null;
    manageUrl: string | null;
    to: string;
    language: Language;
  },
): MailAttachment | null {
  if (!links || !CALENDAR_KINDS.includes(kind)) return null;
  const { salon, booking } = input;
  const method = kind === 'CANCELLED' ? 'CANCEL' : calendarMethodFor(booking.status);
  const content = bookingCalendar(
    {
      bookingId: booking.id,
      sequence: booking.calendarSequence,
      language: input.language,
      status: kind === 'CANCELLED' ? 'CANCELLED' : booking.status,
      start: new Date(booking.startTime),
      end: new Date(booking.endTime),
      timezone: input.timezone,
      salonName: salon.name,
      location: addressLine(salon.address),
      services: input.services,
      staffName: input.staffName,
      manageUrl: input.manageUrl,
      uidDomain: links.platformDomain,
      organizer: { name: salon.name, email: addressOf(links.mailFrom) },
      attendee: { name: booking.contactName ?? input.to, email: input.to },
    },
    method,
  );
  return {
    filename: method === 'CANCEL' ? 'cancel.ics' : 'invite.ics',
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content,
    calendarMethod: method,
  };
}
