// Norwegian (nb-NO) texts of the standing appointments and the rebooking nudge
// (docs/rules/messages.md#standing-appointments-and-rebooking-nudges). Pure: times are rendered in
// the salon's time zone.
import { norwegianDateTime, type RenderedMessage } from './booking-messages.rules';

/** MOVED: the occurrence was booked at the nearest free time; SKIPPED: nothing was free within the tolerance. */
export type SeriesMessageKind = 'MOVED' | 'SKIPPED';

export interface SeriesOccurrenceFacts {
  salonName: string;
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

function what(facts: { services: string[]; staffName: string | null }): string {
  return facts.staffName ? `${facts.services.join(', ')} hos ${facts.staffName}` : facts.services.join(', ');
}

/** To the customer. */
export function renderSeriesMessage(kind: SeriesMessageKind, facts: SeriesOccurrenceFacts): RenderedMessage {
  const planned = norwegianDateTime(facts.plannedStart, facts.timezone);
  if (kind === 'MOVED') {
    const booked = norwegianDateTime(facts.startTime!, facts.timezone);
    const manage = facts.manageUrl ? ` Se eller avbestill timen: ${facts.manageUrl}` : '';
    return {
      subject: `Din faste time hos ${facts.salonName} er flyttet`,
      text: `Hei ${facts.customerName}! Din faste time (${what(facts)}) ${planned} var ikke ledig, så vi har booket nærmeste ledige tid: ${booked}.${manage}`,
    };
  }
  return {
    subject: `Din faste time hos ${facts.salonName} ble ikke booket`,
    text: `Hei ${facts.customerName}! Din faste time (${what(facts)}) ${planned} var ikke ledig, og vi fant ingen ledig tid innen ${facts.toleranceDays} dager før eller etter. Denne ene timen er derfor ikke booket; de neste følger som før. Ta kontakt med ${facts.salonName} om du vil ha en annen tid.`,
  };
}

/** To the salon's owners: an occurrence that could not be booked. */
export function renderSeriesSkippedToSalon(facts: SeriesOccurrenceFacts & { customerPhone: string | null }): RenderedMessage {
  const planned = norwegianDateTime(facts.plannedStart, facts.timezone);
  const phone = facts.customerPhone ? ` (${facts.customerPhone})` : '';
  return {
    subject: `Fast time ikke booket: ${facts.customerName} ${planned}`,
    text: `Den faste timen til ${facts.customerName}${phone}, ${what(facts)} ${planned}, kunne ikke bookes: ingen ledig tid innen ${facts.toleranceDays} dager før eller etter. Kunden er varslet. Serien fortsetter med neste time.`,
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

/** `{PUBLIC_BASE_URL}/{slug}?services=a,b&staff=<id>`: the booking page with the visit's services and staff member chosen. */
export function rebookUrl(publicBaseUrl: string, slug: string, serviceIds: readonly string[], resourceId: string | null): string {
  const q = new URLSearchParams({ services: serviceIds.join(',') });
  if (resourceId) q.set('staff', resourceId);
  return `${publicBaseUrl.replace(/\/+$/, '')}/${encodeURIComponent(slug)}?${q.toString()}`;
}

/** `{PUBLIC_BASE_URL}/{slug}/nudges/unsubscribe?customer=<id>&token=...` */
export function nudgeUnsubscribeUrl(publicBaseUrl: string, slug: string, customerId: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/${encodeURIComponent(slug)}/nudges/unsubscribe?customer=${customerId}&token=${encodeURIComponent(token)}`;
}

export function renderRebookingNudge(facts: RebookingNudgeFacts): RenderedMessage {
  return {
    subject: `Tid for neste besøk hos ${facts.salonName}?`,
    text: `Hei ${facts.customerName}! Det er ${facts.weeks} uker siden ${what(facts)} hos ${facts.salonName}. Bestill neste time her: ${facts.bookUrl} Vil du ikke få slike påminnelser: ${facts.unsubscribeUrl}`,
  };
}
