// Norwegian (nb-NO) texts for the booking messages the booking workflow sends. Pure: times are
// rendered in the salon time zone frozen on the booking (metadata.displaySnapshot), never the
// server's, so a later change of the salon's settings does not shift what a customer was told.
import { utcToLocal } from '../time/salon-time.rules';

export type BookingMessageKind = 'RECEIVED' | 'CONFIRMED' | 'REMINDER' | 'CANCELLED' | 'RESCHEDULED';

export interface BookingMessageFacts {
  salonName: string;
  customerName: string;
  startTime: Date;
  /** the end of the visit (its last phase, processing included; buffers are not the customer's time) */
  endTime: Date;
  timezone: string;
  services: string[];
  staffName?: string | null;
  /** the customer's manage page (docs/rules/booking-page.md#manage-links); none for bookings the salon made */
  manageUrl?: string | null;
}

export interface RenderedMessage {
  subject: string;
  text: string;
}

const WEEKDAYS = ['søndag', 'mandag', 'tirsdag', 'onsdag', 'torsdag', 'fredag', 'lørdag'];
const MONTHS = ['januar', 'februar', 'mars', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober', 'november', 'desember'];

/** "fredag 4. desember kl. 14:30", in the salon's time zone. */
export function norwegianDateTime(instant: Date, timezone: string): string {
  const local = utcToLocal(instant, timezone);
  const [year, month, day] = local.date.split('-').map(Number);
  const weekday = WEEKDAYS[new Date(Date.UTC(year, month - 1, day, 12)).getUTCDay()];
  return `${weekday} ${day}. ${MONTHS[month - 1]} kl. ${local.time}`;
}

/**
 * The whole appointment, from its start to its end (docs/rules/messages.md#the-appointments-length): "fredag 4. desember
 * kl. 14:30–16:00"; an end on another date names that date too.
 */
export function norwegianTimeRange(start: Date, end: Date, timezone: string): string {
  const from = utcToLocal(start, timezone);
  const to = utcToLocal(end, timezone);
  return `${norwegianDateTime(start, timezone)}–${to.date === from.date ? to.time : norwegianDateTime(end, timezone)}`;
}

function what(facts: BookingMessageFacts): string {
  const services = facts.services.join(', ');
  return facts.staffName ? `${services} hos ${facts.staffName}` : services;
}

export function renderBookingMessage(kind: BookingMessageKind, facts: BookingMessageFacts): RenderedMessage {
  const when = norwegianTimeRange(facts.startTime, facts.endTime, facts.timezone);
  const hello = `Hei ${facts.customerName}!`;
  const cancel = facts.manageUrl ? ` Se eller avbestill timen: ${facts.manageUrl}` : '';
  switch (kind) {
    case 'RECEIVED':
      return {
        subject: `Vi har mottatt bestillingen din hos ${facts.salonName}`,
        text: `${hello} Vi har mottatt bestillingen din: ${what(facts)} ${when}. Du får en bekreftelse når ${facts.salonName} har godkjent den.${cancel}`,
      };
    case 'CONFIRMED':
      return {
        subject: `Bekreftet: timen din hos ${facts.salonName}`,
        text: `${hello} Timen din er bekreftet: ${what(facts)} ${when}. Velkommen til ${facts.salonName}!${cancel}`,
      };
    case 'REMINDER':
      return {
        subject: `Påminnelse: timen din hos ${facts.salonName} i morgen`,
        text: `${hello} Påminnelse om timen din: ${what(facts)} ${when} hos ${facts.salonName}.${cancel}`,
      };
    case 'RESCHEDULED':
      return {
        subject: `Endret: timen din hos ${facts.salonName}`,
        text: `${hello} Timen din er flyttet til ${when}: ${what(facts)}.${cancel}`,
      };
    case 'CANCELLED':
      return {
        subject: `Avbestilt: timen din hos ${facts.salonName}`,
        text: `${hello} Timen din ${when} (${what(facts)}) hos ${facts.salonName} er avbestilt.`,
      };
  }
}
