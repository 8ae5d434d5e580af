// Norwegian (nb-NO) text of the waitlist offer (docs/rules/waitlist.md#offers). Pure: the time is
// rendered in the salon's time zone, the link opens the offer on the booking page.
import { norwegianDateTime, type RenderedMessage } from './booking-messages.rules';

export interface WaitlistOfferFacts {
  salonName: string;
  customerName: string;
  startTime: Date;
  timezone: string;
  services: string[];
  staffName: string | null;
  /** how long the time is held for the customer; null: offered to several, first to book gets it */
  holdMinutes: number | null;
  acceptUrl: string;
}

/** `{PUBLIC_BASE_URL}/{slug}/waitlist/offers/{offerId}?token=...` */
export function waitlistOfferUrl(publicBaseUrl: string, slug: string, offerId: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/${encodeURIComponent(slug)}/waitlist/offers/${offerId}?token=${encodeURIComponent(token)}`;
}

export function renderWaitlistOffer(facts: WaitlistOfferFacts): RenderedMessage {
  const when = norwegianDateTime(facts.startTime, facts.timezone);
  const what = facts.staffName ? `${facts.services.join(', ')} hos ${facts.staffName}` : facts.services.join(', ');
  const hold =
    facts.holdMinutes === null
      ? 'Flere på ventelisten har fått tilbudet, og den første som bestiller får timen.'
      : `Vi holder timen for deg i ${facts.holdMinutes} minutter.`;
  return {
    subject: `Ledig time hos ${facts.salonName}`,
    text: `Hei ${facts.customerName}! En time har blitt ledig hos ${facts.salonName}: ${what} ${when}. ${hold} Bestill her: ${facts.acceptUrl}`,
  };
}
