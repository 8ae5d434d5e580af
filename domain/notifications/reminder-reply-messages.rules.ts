// The texts around a reminder the customer answers (docs/rules/reminders.md), in Norwegian like the
// booking messages: what the reminder adds on each channel, the answer to a reply by SMS, and the
// salon's e-mail about a booking still unconfirmed. Pure.
import { norwegianDateTime, norwegianTimeRange, type BookingMessageFacts, type RenderedMessage } from './booking-messages.rules';

/** What a reply by SMS did (docs/rules/reminders.md#answering-by-sms); sms_replies.outcome. */
export type ReplyOutcome =
  | 'CONFIRMED'
  | 'ALREADY_CONFIRMED'
  | 'CANCELLED'
  | 'WINDOW_CLOSED'
  | 'ALREADY_CANCELLED'
  | 'FINISHED'
  | 'HELP'
  | 'NO_BOOKING';

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

/** The line the reminder adds: on SMS how to answer by reply, on e-mail the manage page's Confirm. */
export function reminderAnswerLine(channel: 'SMS' | 'EMAIL', hasManageLink: boolean): string {
  if (channel === 'SMS') return ' Svar JA for å bekrefte at du kommer, eller NEI for å avbestille.';
  return hasManageLink ? ' Bekreft at du kommer, eller avbestill, på lenken over.' : '';
}

/** 25000 NOK -> "250 kr", 12550 -> "125,50 kr"; other currencies by their code. */
export function moneyText(amount: number, currency: string): string {
  const whole = amount % 100 === 0;
  const value = whole ? String(amount / 100) : (amount / 100).toFixed(2).replace('.', ',');
  return currency === 'NOK' ? `${value} kr` : `${value} ${currency}`;
}

function depositLine(d: DepositFacts | undefined): string {
  if (!d) return '';
  switch (d.action) {
    case 'REFUND_FULL':
      return ` Depositumet på ${moneyText(d.amount, d.currency)} betales tilbake.`;
    case 'VOID':
      return ` Reservasjonen på ${moneyText(d.amount, d.currency)} på kortet ditt frigis.`;
    case 'FORFEIT':
      return ` Depositumet på ${moneyText(d.amount, d.currency)} beholdes av salongen.`;
    case 'NONE':
      return '';
  }
}

/**
 * The answer to a reply by SMS: short, about the booking as it stands now (a booking moved since
 * the reminder is answered with its new time).
 */
export function renderReplyAnswer(outcome: ReplyOutcome, facts: BookingMessageFacts | null, deposit?: DepositFacts): string {
  const help = 'Svar JA for å bekrefte timen din, eller NEI for å avbestille.';
  if (!facts) return outcome === 'NO_BOOKING' ? 'Vi fant ingen time som venter på svar fra dette nummeret. Ta kontakt med salongen.' : help;
  const when = norwegianTimeRange(facts.startTime, facts.endTime, facts.timezone);
  const at = `${when} hos ${facts.salonName}`;
  const link = facts.manageUrl ? ` Se timen: ${facts.manageUrl}` : '';
  switch (outcome) {
    case 'CONFIRMED':
      return `Takk! Timen din ${at} er bekreftet. Velkommen!`;
    case 'ALREADY_CONFIRMED':
      return `Timen din ${at} er allerede bekreftet. Velkommen!`;
    case 'CANCELLED':
      return `Timen din ${at} er avbestilt.${depositLine(deposit)}`;
    case 'WINDOW_CLOSED': {
      const until = deposit?.freeUntil ? ` (gratis avbestilling var mulig til ${norwegianDateTime(deposit.freeUntil, facts.timezone)})` : '';
      const kept = deposit && deposit.action === 'FORFEIT' ? ` Avbestiller du nå, beholder salongen depositumet på ${moneyText(deposit.amount, deposit.currency)}.` : '';
      return `Timen din ${at} kan ikke lenger avbestilles på SMS${until}. Ring ${facts.salonName} for å avbestille.${kept}`;
    }
    case 'ALREADY_CANCELLED':
      return `Timen din ${at} er avbestilt. Vil du ha en ny time, bestill på nytt hos ${facts.salonName}.`;
    case 'FINISHED':
      return `Timen din ${at} kan ikke endres lenger. Ta kontakt med ${facts.salonName}.`;
    case 'HELP':
    case 'NO_BOOKING':
      return `${help} Gjelder timen din ${at}.${link}`;
  }
}

/** The salon's e-mail about a booking its customer has not confirmed by the salon's flag time. */
export function renderUnconfirmedFlag(facts: BookingMessageFacts & { customerPhone: string | null }): RenderedMessage {
  const when = norwegianTimeRange(facts.startTime, facts.endTime, facts.timezone);
  const services = facts.services.join(', ');
  const phone = facts.customerPhone ? ` (${facts.customerPhone})` : '';
  return {
    subject: `Ikke bekreftet: ${facts.customerName} ${when}`,
    text: `${facts.customerName}${phone} har ikke bekreftet timen ${when}: ${services}${facts.staffName ? ` hos ${facts.staffName}` : ''}. Timen er ikke avbestilt; vurder å ringe kunden.`,
  };
}
