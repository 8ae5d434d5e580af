// The texts of the booking messages the booking workflow sends, in the language the booking was
// made in (docs/rules/messages.md#language): Norwegian Bokmål or English. Pure: times are rendered
// in the salon time zone frozen on the booking (metadata.displaySnapshot), never the server's, so a
// later change of the salon's settings does not shift what a customer was told; money through the
// one money module (domain/money).
import { utcToLocal } from '../time/salon-time.rules';
import { formatMoney } from '../money/money.rules';
import type { Language } from '../language/language.rules';
import { displayPhone } from '../phone/phone.rules';

export type BookingMessageKind = 'RECEIVED' | 'CONFIRMED' | 'REMINDER' | 'CANCELLED' | 'RESCHEDULED' | 'DEPOSIT_REQUESTED' | 'DEPOSIT_REMINDER';

/** A deposit requested later (docs/rules/payments.md#deposits-at-any-distance): what to pay, and by when. */
export interface DepositRequest {
  /** minor units */
  amount: number;
  currency: string;
  deadline: Date;
}

/** What the cancellation did with the deposit (docs/rules/booking.md#cancellation-refund-policy), for the cancellation's message. */
export interface DepositOutcome {
  /** REFUNDED: paid back; RELEASED: the card's hold let go; KEPT: the salon keeps it (late cancellation) */
  kind: 'REFUNDED' | 'RELEASED' | 'KEPT';
  /** minor units */
  amount: number;
  currency: string;
}

/** How the customer reaches the salon (docs/rules/salon.md#tenant): E.164 and an address, each null when it has none. */
export interface SalonContactFacts {
  phone: string | null;
  email: string | null;
}

export interface BookingMessageFacts {
  salonName: string;
  /** for a message that tells the customer to contact the salon */
  salonContact?: SalonContactFacts | null;
  customerName: string;
  startTime: Date;
  /** the end of the visit (its last phase, processing included; buffers are not the customer's time) */
  endTime: Date;
  timezone: string;
  services: string[];
  staffName?: string | null;
  /** the customer's manage page (docs/rules/booking-page.md#manage-links); none for bookings the salon made */
  manageUrl?: string | null;
  /** a received booking waits for its deposit, not for the salon */
  awaitingDeposit?: boolean;
  /** the cancellation's message says what happened to the deposit */
  deposit?: DepositOutcome | null;
  /** the deposit's request and its reminder say what to pay and by when */
  depositRequest?: DepositRequest | null;
  /** the booking's first message says its deposit is asked for later: when, and by when it must be paid */
  depositLater?: (DepositRequest & { requestAt: Date }) | null;
}

/**
 * "Ring Salong Nordlys på +47 22 00 00 00" / "Please call Salong Nordlys on +47 22 00 00 00": the
 * salon by the way it can be reached, its phone first, else its e-mail, else by name only.
 */
export function contactTheSalon(salonName: string, contact: SalonContactFacts | null | undefined, language: Language): string {
  const en = language === 'en';
  if (contact?.phone) return en ? `Please call ${salonName} on ${displayPhone(contact.phone)}` : `Ring ${salonName} på ${displayPhone(contact.phone)}`;
  if (contact?.email) return en ? `Please write to ${salonName} at ${contact.email}` : `Skriv til ${salonName} på ${contact.email}`;
  return en ? `Please contact ${salonName}` : `Ta kontakt med ${salonName}`;
}

export interface RenderedMessage {
  subject: string;
  text: string;
}

const WORDS = {
  nb: {
    weekdays: ['søndag', 'mandag', 'tirsdag', 'onsdag', 'torsdag', 'fredag', 'lørdag'],
    months: ['januar', 'februar', 'mars', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober', 'november', 'desember'],
  },
  en: {
    weekdays: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
    months: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  },
} as const;

/** A salon-local calendar date `YYYY-MM-DD` as words: "fredag 4. desember" / "Friday 4 December". */
export function messageDate(date: string, language: Language): string {
  const [year, month, day] = date.split('-').map(Number);
  const { weekdays, months } = WORDS[language];
  const weekday = weekdays[new Date(Date.UTC(year, month - 1, day, 12)).getUTCDay()];
  return language === 'nb' ? `${weekday} ${day}. ${months[month - 1]}` : `${weekday} ${day} ${months[month - 1]}`;
}

/** "fredag 4. desember kl. 14:30" / "Friday 4 December at 14:30", in the salon's time zone. */
export function messageDateTime(instant: Date, timezone: string, language: Language): string {
  const local = utcToLocal(instant, timezone);
  return `${messageDate(local.date, language)} ${language === 'nb' ? 'kl.' : 'at'} ${local.time}`;
}

/** "fredag 4. desember kl. 14:30", in the salon's time zone. */
export function norwegianDateTime(instant: Date, timezone: string): string {
  return messageDateTime(instant, timezone, 'nb');
}

/**
 * The whole appointment, from its start to its end (docs/rules/messages.md#the-appointments-length): "fredag 4. desember
 * kl. 14:30–16:00" / "on Friday 4 December, 14:30–16:00 (Oslo time)" (English readers may be
 * elsewhere: the zone's city says whose clock); an end on another date names that date too.
 */
export function messageTimeRange(start: Date, end: Date, timezone: string, language: Language): string {
  const from = utcToLocal(start, timezone);
  const to = utcToLocal(end, timezone);
  if (language === 'nb') return `${messageDateTime(start, timezone, language)}–${to.date === from.date ? to.time : messageDateTime(end, timezone, language)}`;
  const until = to.date === from.date ? to.time : `${messageDate(to.date, language)}, ${to.time}`;
  return `on ${messageDate(from.date, language)}, ${from.time}–${until} (${zoneCity(timezone)} time)`;
}

/** "Europe/Oslo" -> "Oslo", "America/New_York" -> "New York": the city a zone is named by. */
function zoneCity(timezone: string): string {
  return (timezone.split('/').pop() ?? timezone).replace(/_/g, ' ');
}

function what(facts: BookingMessageFacts, language: Language): string {
  const services = facts.services.join(', ');
  if (!facts.staffName) return services;
  return language === 'nb' ? `${services} hos ${facts.staffName}` : `${services} with ${facts.staffName}`;
}

/** The cancellation's sentence about the deposit, when there was one. */
export function depositSentence(deposit: DepositOutcome, language: Language): string {
  const amount = formatMoney(deposit.amount, deposit.currency, language);
  const nb = {
    REFUNDED: `Depositumet på ${amount} betales tilbake til deg; det kan ta noen dager før det vises på kontoen.`,
    RELEASED: `Reservasjonen på ${amount} på kortet ditt er slettet, så du blir ikke belastet.`,
    KEPT: `Avbestillingen kom etter fristen for gratis avbestilling, så salongen beholder depositumet på ${amount}.`,
  };
  const en = {
    REFUNDED: `The deposit of ${amount} is refunded to you; it may take a few days to show on your account.`,
    RELEASED: `The hold of ${amount} on your card is released, so you are not charged.`,
    KEPT: `The appointment was cancelled after free cancellation ended, so the salon keeps the deposit of ${amount}.`,
  };
  return (language === 'nb' ? nb : en)[deposit.kind];
}

/** A deposit requested later, told when the booking is made (docs/rules/payments.md#deposits-at-any-distance). */
function laterSentence(later: DepositRequest & { requestAt: Date }, timezone: string, language: Language): string {
  const amount = formatMoney(later.amount, later.currency, language);
  const asked = messageDateTime(later.requestAt, timezone, language);
  const by = messageDateTime(later.deadline, timezone, language);
  return language === 'nb'
    ? `Depositumet på ${amount} betaler du senere: ${asked} får du en betalingslenke på SMS og e-post. Betal innen ${by}, ellers blir timen avbestilt.`
    : `You pay the deposit of ${amount} later: on ${asked} you get a payment link by SMS and e-mail. Pay it by ${by}, or the appointment is cancelled.`;
}

export function renderBookingMessage(kind: BookingMessageKind, facts: BookingMessageFacts, language: Language = 'nb'): RenderedMessage {
  const when = messageTimeRange(facts.startTime, facts.endTime, facts.timezone, language);
  const salon = facts.salonName;
  const service = what(facts, language);
  const deposit = facts.deposit ? ` ${depositSentence(facts.deposit, language)}` : '';
  const request = facts.depositRequest;
  const owed = request ? formatMoney(request.amount, request.currency, language) : '';
  const by = request ? messageDateTime(request.deadline, facts.timezone, language) : '';
  const later = facts.depositLater ? ` ${laterSentence(facts.depositLater, facts.timezone, language)}` : '';
  if (language === 'en') {
    const pay = facts.manageUrl ? ` Pay here: ${facts.manageUrl}` : '';
    const hello = `Hi ${facts.customerName}!`;
    const manage = facts.manageUrl ? ` See or cancel the appointment: ${facts.manageUrl}` : '';
    const waitsFor = facts.awaitingDeposit ? 'once the deposit is paid' : `when ${salon} has approved it`;
    switch (kind) {
      case 'RECEIVED':
        return {
          subject: `We have your booking at ${salon}`,
          text: `${hello} We have received your booking: ${service} ${when}. You will get a confirmation ${waitsFor}.${later}${manage}`,
        };
      case 'CONFIRMED':
        return {
          subject: `Confirmed: your appointment at ${salon}`,
          text: `${hello} Your appointment is confirmed: ${service} ${when}. Welcome to ${salon}!${later}${manage}`,
        };
      case 'REMINDER':
        return { subject: `Reminder: your appointment at ${salon}`, text: `${hello} A reminder of your appointment: ${service} ${when} at ${salon}.${manage}` };
      case 'RESCHEDULED':
        return { subject: `Changed: your appointment at ${salon}`, text: `${hello} Your appointment has been moved: ${service} ${when}.${manage}` };
      case 'CANCELLED':
        return {
          subject: `Cancelled: your appointment at ${salon}`,
          text: `${hello} Your appointment ${when} (${service}) at ${salon} is cancelled.${deposit}`,
        };
      case 'DEPOSIT_REQUESTED':
        return {
          subject: `Pay the deposit for your appointment at ${salon}`,
          text: `${hello} Your appointment ${when} (${service}) at ${salon} is getting close: please pay the deposit of ${owed} by ${by}, with Vipps or card. If it is not paid by then, the appointment is cancelled.${pay}`,
        };
      case 'DEPOSIT_REMINDER':
        return {
          subject: `Reminder: the deposit for your appointment at ${salon}`,
          text: `${hello} The deposit of ${owed} for your appointment ${when} at ${salon} is not paid yet. Pay it by ${by}, or the appointment is cancelled.${pay}`,
        };
    }
  }
  const hello = `Hei ${facts.customerName}!`;
  const manage = facts.manageUrl ? ` Se eller avbestill timen: ${facts.manageUrl}` : '';
  const waitsFor = facts.awaitingDeposit ? 'når depositumet er betalt' : `når ${salon} har godkjent den`;
  const pay = facts.manageUrl ? ` Betal her: ${facts.manageUrl}` : '';
  switch (kind) {
    case 'RECEIVED':
      return {
        subject: `Vi har mottatt bestillingen din hos ${salon}`,
        text: `${hello} Vi har mottatt bestillingen din: ${service} ${when}. Du får en bekreftelse ${waitsFor}.${later}${manage}`,
      };
    case 'CONFIRMED':
      return {
        subject: `Bekreftet: timen din hos ${salon}`,
        text: `${hello} Timen din er bekreftet: ${service} ${when}. Velkommen til ${salon}!${later}${manage}`,
      };
    case 'REMINDER':
      return { subject: `Påminnelse: timen din hos ${salon}`, text: `${hello} Påminnelse om timen din: ${service} ${when} hos ${salon}.${manage}` };
    case 'RESCHEDULED':
      return { subject: `Endret: timen din hos ${salon}`, text: `${hello} Timen din er flyttet til ${when}: ${service}.${manage}` };
    case 'CANCELLED':
      return { subject: `Avbestilt: timen din hos ${salon}`, text: `${hello} Timen din ${when} (${service}) hos ${salon} er avbestilt.${deposit}` };
    case 'DEPOSIT_REQUESTED':
      return {
        subject: `Betal depositumet for timen din hos ${salon}`,
        text: `${hello} Timen din ${when} (${service}) hos ${salon} nærmer seg: betal depositumet på ${owed} innen ${by}, med Vipps eller kort. Er det ikke betalt innen da, blir timen avbestilt.${pay}`,
      };
    case 'DEPOSIT_REMINDER':
      return {
        subject: `Påminnelse: depositum for timen din hos ${salon}`,
        text: `${hello} Depositumet på ${owed} for timen din ${when} hos ${salon} er ikke betalt ennå. Betal innen ${by}, ellers blir timen avbestilt.${pay}`,
      };
  }
}
