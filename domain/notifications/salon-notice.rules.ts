/**
 * What the salon's owner is told about a booking (docs/rules/front-desk.md#the-salon-is-told): a
 * booking that waits for the salon's approval, and a cancellation the customer made themselves
 * (not one the salon recorded for them). The notice's e-mail, in the salon's language. Pure.
 */
import type { BookingMessageFacts, RenderedMessage } from './booking-messages.rules';
import { messageTimeRange } from './booking-messages.rules';
import type { Language } from '../language/language.rules';

export const SALON_NOTICE_KINDS = ['APPROVAL_NEEDED', 'CUSTOMER_CANCELLED'] as const;
export type SalonNoticeKind = (typeof SALON_NOTICE_KINDS)[number];

export interface NoticeFacts {
  status: string;
  /** what a PENDING booking waits for (domain/booking/booking-waiting.rules.ts) */
  waitingFor: 'SALON' | 'DEPOSIT' | null;
  /** the role of the latest cancellation's audit entry */
  cancelledByRole: string | null;
}

/** Whether the booking, as committed now, is a notice of this kind. */
export function isNotice(kind: SalonNoticeKind, facts: NoticeFacts): boolean {
  if (kind === 'APPROVAL_NEEDED') return facts.status === 'PENDING' && facts.waitingFor === 'SALON';
  return facts.status === 'CANCELLED' && facts.cancelledByRole === 'CUSTOMER';
}

/** The owner's e-mail: who, what, when, and where to act (the front desk). */
export function renderSalonNotice(
  kind: SalonNoticeKind,
  facts: BookingMessageFacts & { customerPhone: string | null; deskUrl: string },
  language: Language = 'nb',
): RenderedMessage {
  const when = messageTimeRange(facts.startTime, facts.endTime, facts.timezone, language);
  const services = facts.services.join(', ');
  const phone = facts.customerPhone ? ` (${facts.customerPhone})` : '';
  if (language === 'en') {
    const staff = facts.staffName ? ` with ${facts.staffName}` : '';
    return kind === 'APPROVAL_NEEDED'
      ? {
          subject: `Waiting for your approval: ${facts.customerName} ${when}`,
          text: `${facts.customerName}${phone} has booked ${services}${staff} ${when}. The booking waits for the salon to confirm it: ${facts.deskUrl}`,
        }
      : {
          subject: `Cancelled by the customer: ${facts.customerName} ${when}`,
          text: `${facts.customerName}${phone} has cancelled ${services}${staff} ${when}. The time is free again: ${facts.deskUrl}`,
        };
  }
  const staff = facts.staffName ? ` hos ${facts.staffName}` : '';
  return kind === 'APPROVAL_NEEDED'
    ? {
        subject: `Venter på godkjenning: ${facts.customerName} ${when}`,
        text: `${facts.customerName}${phone} har bestilt ${services}${staff} ${when}. Bestillingen venter på at salongen bekrefter den: ${facts.deskUrl}`,
      }
    : {
        subject: `Avbestilt av kunden: ${facts.customerName} ${when}`,
        text: `${facts.customerName}${phone} har avbestilt ${services}${staff} ${when}. Tiden er ledig igjen: ${facts.deskUrl}`,
      };
}
