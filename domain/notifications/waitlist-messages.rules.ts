// The waitlist's messages (docs/rules/waitlist.md#offers), in the language the entry was made in
// (docs/rules/messages.md#language): the offer of a freed time, and the confirmation of joining
// with the link to see or leave the entry. Pure: times in the salon's time zone; the links open the
// booking page.
import { messageDate, messageTimeRange, type RenderedMessage } from './booking-messages.rules';
import { formatMoney } from '../money/money.rules';
import { utcToLocal } from '../time/salon-time.rules';
import type { Language } from '../language/language.rules';

export interface WaitlistOfferFacts {
  salonName: string;
  customerName: string;
  startTime: Date;
  /** the end of the offered visit (its last phase) */
  endTime: Date;
  timezone: string;
  services: string[];
  staffName: string | null;
  /** how long the time is held for the customer; null: offered to several, first to book gets it */
  holdMinutes: number | null;
  /** when the offer ends (the hold runs out), told as the salon's clock time */
  expiresAt: Date;
  /** what the visit costs: its services' prices, minor units */
  price: number;
  currency: string;
  acceptUrl: string;
}

export interface WaitlistJoinedFacts {
  salonName: string;
  customerName: string;
  services: string[];
  staffName: string | null;
  /** salon-local dates `YYYY-MM-DD` */
  fromDate: string;
  toDate: string;
  /** salon-local `HH:mm`, when the customer narrowed the time of day */
  earliestTime: string | null;
  latestTime: string | null;
  entryUrl: string;
}

const inLanguage = (language: Language) => (language === 'en' ? '&lang=en' : '');

/** `{PUBLIC_BASE_URL}/{slug}/waitlist/offers/{offerId}?token=...` (`&lang=en` for an entry made in English) */
export function waitlistOfferUrl(publicBaseUrl: string, slug: string, offerId: string, token: string, language: Language = 'nb'): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/${encodeURIComponent(slug)}/waitlist/offers/${offerId}?token=${encodeURIComponent(token)}${inLanguage(language)}`;
}

/** `{PUBLIC_BASE_URL}/{slug}/waitlist/{entryId}?token=...`: the page where the customer sees and leaves the entry. */
export function waitlistEntryUrl(publicBaseUrl: string, slug: string, entryId: string, token: string, language: Language = 'nb'): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}${waitlistEntryPath(slug, entryId, token, language)}`;
}

export function waitlistEntryPath(slug: string, entryId: string, token: string, language: Language = 'nb'): string {
  return `/${encodeURIComponent(slug)}/waitlist/${entryId}?token=${encodeURIComponent(token)}${inLanguage(language)}`;
}

function whatOf(services: string[], staffName: string | null, language: Language): string {
  const list = services.join(', ');
  if (!staffName) return list;
  return language === 'nb' ? `${list} hos ${staffName}` : `${list} with ${staffName}`;
}

export function renderWaitlistOffer(facts: WaitlistOfferFacts, language: Language = 'nb'): RenderedMessage {
  const when = messageTimeRange(facts.startTime, facts.endTime, facts.timezone, language);
  const what = whatOf(facts.services, facts.staffName, language);
  const price = formatMoney(facts.price, facts.currency, language);
  // the hold is minutes (at most two hours): its end as the salon's clock time
  const until = utcToLocal(facts.expiresAt, facts.timezone).time;
  if (language === 'en') {
    const hold =
      facts.holdMinutes === null
        ? `Several people on the waitlist have been offered it, and the first to book by ${until} gets it.`
        : `We hold the time for you until ${until} (${facts.holdMinutes} minutes).`;
    return {
      subject: `A free time at ${facts.salonName}`,
      text: `Hi ${facts.customerName}! A time has become free at ${facts.salonName}: ${what} ${when}, ${price}. ${hold} Book here: ${facts.acceptUrl}`,
    };
  }
  const hold =
    facts.holdMinutes === null
      ? `Flere på ventelisten har fått tilbudet, og den første som bestiller innen kl. ${until} får timen.`
      : `Vi holder timen for deg til kl. ${until} (${facts.holdMinutes} minutter).`;
  return {
    subject: `Ledig time hos ${facts.salonName}`,
    text: `Hei ${facts.customerName}! En time har blitt ledig hos ${facts.salonName}: ${what} ${when}, ${price}. ${hold} Bestill her: ${facts.acceptUrl}`,
  };
}

/** "fredag 4. desember" or "fredag 4. desember – søndag 6. desember", with the time of day when narrowed. */
export function waitlistDates(facts: Pick<WaitlistJoinedFacts, 'fromDate' | 'toDate' | 'earliestTime' | 'latestTime'>, language: Language): string {
  const days =
    facts.fromDate === facts.toDate
      ? messageDate(facts.fromDate, language)
      : `${messageDate(facts.fromDate, language)} – ${messageDate(facts.toDate, language)}`;
  const from = facts.earliestTime;
  const to = facts.latestTime;
  if (!from && !to) return days;
  if (language === 'nb') return `${days}${from ? ` fra kl. ${from}` : ''}${to ? ` til kl. ${to}` : ''}`;
  return `${days}${from ? ` from ${from}` : ''}${to ? ` until ${to}` : ''}`;
}

export function renderWaitlistJoined(facts: WaitlistJoinedFacts, language: Language = 'nb'): RenderedMessage {
  const what = whatOf(facts.services, facts.staffName, language);
  const dates = waitlistDates(facts, language);
  if (language === 'en') {
    return {
      subject: `You are on the waitlist at ${facts.salonName}`,
      text: `Hi ${facts.customerName}! You are on the waitlist at ${facts.salonName} for ${what}, ${dates}. We will send you a message when a time becomes free. See or leave the waitlist: ${facts.entryUrl}`,
    };
  }
  return {
    subject: `Du står på ventelisten hos ${facts.salonName}`,
    text: `Hei ${facts.customerName}! Du står på ventelisten hos ${facts.salonName} for ${what}, ${dates}. Vi sender deg en melding når en time blir ledig. Se eller forlat ventelisten: ${facts.entryUrl}`,
  };
}
