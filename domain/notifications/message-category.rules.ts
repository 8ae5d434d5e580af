// Service messages and marketing messages (docs/rules/personal-data.md#consent). A service message is
// about something the customer booked or asked for (a confirmation, a reminder, a payment, a waitlist
// offer): it goes to every customer with an address. A marketing message invites them to buy again
// (a rebooking nudge, anything promotional): it goes only with their consent at that salon. Pure.

export type MessageCategory = 'SERVICE' | 'MARKETING';

/** The kinds of message that are marketing; every other kind is a service message. */
export const MARKETING_KINDS: readonly string[] = ['REBOOKING_NUDGE'];

export function messageCategory(kind: string): MessageCategory {
  return MARKETING_KINDS.includes(kind) ? 'MARKETING' : 'SERVICE';
}
