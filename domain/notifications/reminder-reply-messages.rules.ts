// The texts around a reminder the customer answers (docs/rules/reminders.md), in the booking's
// language like the booking messages (docs/rules/messages.md#language): what the reminder adds on
// each channel, the answer to a reply by SMS, and the salon's e-mail about a booking nobody promised
// to come to. The customer's promise is never called a confirmation (docs/rules/booking.md#the-words).
// Pure; money through the one money module.
import { formatMoney } from '../money/money.rules';
import type { Language } from '../language/language.rules';
import { contactTheSalon, messageDateTime, messageTimeRange, type BookingMessageFacts, type RenderedMessage } from './booking-messages.rules';

/** What a reply by SMS did (docs/rules/reminders.md#answering-by-sms); sms_replies.outcome. */
/** WHICH_BOOKING: more than one booking of the phone awaits an answer, so nothing was changed and the answer asks which. */
export type ReplyOutcome =
  'PROMISED' | 'ALREADY_PROMISED' | 'CANCELLED' | 'WINDOW_CLOSED' | 'ALREADY_CANCELLED' | 'FINISHED' | 'HELP' | 'NO_BOOKING' | 'WHICH_BOOKING';

/** What the cancellation did with the deposit, or would do (outside the free window). */
export interface DepositFacts {
  /** NONE: no deposit; REFUND_FULL: paid back; VOID: the card's hold released; FORFEIT: kept */
  action: 'NONE' | 'REFUND_FULL' | 'VOID' | 'FORFEIT';
  /** minor units: the refund, or the deposit held or kept */
  amount: number;
  currency: string;
  /** the end of free cancellation (WINDOW_CLOSED) */
  freeUntil?: Date;
}

/** The line the reminder adds: on SMS how to answer by reply, on e-mail the manage page's "I promise to come". */
export function reminderAnswerLine(channel: 'SMS' | 'EMAIL', hasManageLink: boolean, language: Language = 'nb'): string {
  if (channel === 'SMS') return language === 'en' ? ' Reply YES if you are coming, or NO to cancel.' : ' Svar JA hvis du kommer, eller NEI for å avbestille.';
  if (!hasManageLink) return '';
  return language === 'en' ? ' At the link above you can promise to come, or cancel.' : ' På lenken over kan du love å komme, eller avbestille.';
}

function depositLine(d: DepositFacts | undefined, language: Language): string {
  if (!d || d.action === 'NONE') return '';
  const amount = formatMoney(d.amount, d.currency, language);
  const nb = {
    REFUND_FULL: `Depositumet på ${amount} betales tilbake.`,
    VOID: `Reservasjonen på ${amount} på kortet ditt frigis.`,
    FORFEIT: `Depositumet på ${amount} beholdes av salongen.`,
  };
  const en = {
    REFUND_FULL: `The deposit of ${amount} is refunded.`,
    VOID: `The hold of ${amount} on your card is released.`,
    FORFEIT: `The salon keeps the deposit of ${amount}.`,
  };
  return ` ${(language === 'en' ? en : nb)[d.action]}`;
}

/**
 * The answer to a reply by SMS: short, about the booking as it stands now (a booking moved since
 * the reminder is answered with its new time). `facts` null: no booking matched.
 */
export function renderReplyAnswer(outcome: ReplyOutcome, facts: BookingMessageFacts | null, language: Language = 'nb', deposit?: DepositFacts): string {
  const en = language === 'en';
  const help = en ? 'Reply YES if you are coming, or NO to cancel.' : 'Svar JA hvis du kommer, eller NEI for å avbestille.';
  if (!facts) {
    if (outcome !== 'NO_BOOKING') return help;
    return en
      ? 'We found no appointment waiting for an answer from this number. Please contact the salon.'
      : 'Vi fant ingen time som venter på svar fra dette nummeret. Ta kontakt med salongen.';
  }
  const when = messageTimeRange(facts.startTime, facts.endTime, facts.timezone, language);
  const salon = facts.salonName;
  const at = en ? `${when} at ${salon}` : `${when} hos ${salon}`;
  const link = facts.manageUrl ? (en ? ` See the appointment: ${facts.manageUrl}` : ` Se timen: ${facts.manageUrl}`) : '';
  const until = deposit?.freeUntil ? messageDateTime(deposit.freeUntil, facts.timezone, language) : null;
  const kept = deposit?.action === 'FORFEIT' ? formatMoney(deposit.amount, deposit.currency, language) : null;
  switch (outcome) {
    case 'PROMISED':
      return en ? `Thank you! You have promised to come to your appointment ${at}. Welcome!` : `Takk! Du har lovet å komme til timen din ${at}. Velkommen!`;
    case 'ALREADY_PROMISED':
      return en ? `You have already promised to come to your appointment ${at}. Welcome!` : `Du har allerede lovet å komme til timen din ${at}. Velkommen!`;
    case 'CANCELLED':
      return (en ? `Your appointment ${at} is cancelled.` : `Timen din ${at} er avbestilt.`) + depositLine(deposit, language);
    case 'WINDOW_CLOSED':
      return en
        ? `Your appointment ${at} can no longer be cancelled by SMS${until ? ` (free cancellation ended ${until})` : ''}. ${contactTheSalon(salon, facts.salonContact, language)} to cancel.${kept ? ` Cancelled now, the salon keeps the deposit of ${kept}.` : ''}`
        : `Timen din ${at} kan ikke lenger avbestilles på SMS${until ? ` (gratis avbestilling var mulig til ${until})` : ''}. ${contactTheSalon(salon, facts.salonContact, language)} for å avbestille.${kept ? ` Avbestiller du nå, beholder salongen depositumet på ${kept}.` : ''}`;
    case 'ALREADY_CANCELLED':
      return en
        ? `Your appointment ${at} is cancelled. To come another time, book again with ${salon}.`
        : `Timen din ${at} er avbestilt. Vil du ha en ny time, bestill på nytt hos ${salon}.`;
    case 'FINISHED':
      return en
        ? `Your appointment ${at} can no longer be changed. ${contactTheSalon(salon, facts.salonContact, language)}.`
        : `Timen din ${at} kan ikke endres lenger. ${contactTheSalon(salon, facts.salonContact, language)}.`;
    case 'HELP':
    case 'NO_BOOKING':
    // renderWhichBooking answers it; it names no one booking
    case 'WHICH_BOOKING':
      return en ? `${help} It is about your appointment ${at}.${link}` : `${help} Gjelder timen din ${at}.${link}`;
  }
}

/**
 * The answer when more than one booking of the phone awaits an answer (docs/rules/reminders.md#answering-by-sms):
 * nothing changed; it names each by day, time and salon, and says where to answer for one.
 */
export function renderWhichBooking(bookings: readonly { salonName: string; startTime: Date; timezone: string }[], language: Language = 'nb'): string {
  const en = language === 'en';
  const named = bookings.map((b) => `${messageDateTime(b.startTime, b.timezone, language)} ${en ? 'at' : 'hos'} ${b.salonName}`).join('; ');
  return en
    ? `You have ${bookings.length} appointments waiting for an answer: ${named}. Nothing is changed. Answer on the link in the reminder of the one you mean, or call the salon.`
    : `Du har ${bookings.length} timer som venter på svar: ${named}. Ingenting er endret. Svar på lenken i påminnelsen for timen du mener, eller ring salongen.`;
}

/** The salon's e-mail about a booking its customer has not promised to come to by the salon's flag time (in the salon's language). */
export function renderUnpromisedFlag(facts: BookingMessageFacts & { customerPhone: string | null }, language: Language = 'nb'): RenderedMessage {
  const when = messageTimeRange(facts.startTime, facts.endTime, facts.timezone, language);
  const services = facts.services.join(', ');
  const phone = facts.customerPhone ? ` (${facts.customerPhone})` : '';
  if (language === 'en') {
    return {
      subject: `No promise to come: ${facts.customerName} ${when}`,
      text: `${facts.customerName}${phone} has not promised to come to the appointment ${when}: ${services}${facts.staffName ? ` with ${facts.staffName}` : ''}. It is not cancelled; you may want to call the customer.`,
    };
  }
  return {
    subject: `Ikke lovet å komme: ${facts.customerName} ${when}`,
    text: `${facts.customerName}${phone} har ikke lovet å komme til timen ${when}: ${services}${facts.staffName ? ` hos ${facts.staffName}` : ''}. Timen er ikke avbestilt; vurder å ringe kunden.`,
  };
}
