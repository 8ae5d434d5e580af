// What the payment workflow tells the customer (docs/rules/messages.md#which-messages): a paid-out
// refund, and a payment the provider confirmed after it expired here, released again. In the
// booking's language (docs/rules/messages.md#language), money through the one money module. Pure.
import { formatMoney } from '../money/money.rules';
import type { Language } from '../language/language.rules';

/** The payment's messages: a refund paid out (by SMS), a late payment released (by SMS and e-mail). */
export type PaymentMessageKind = 'REFUND' | 'LATE_PAYMENT';

/** PaymentRefunded: the customer's SMS in the booking's language, the amount as the page writes it ("150,50 kr"). */
export function refundSmsText(input: { customerName: string; salonName: string; amount: number; currency: string; language?: Language }): string {
  const language = input.language ?? 'nb';
  const amount = formatMoney(input.amount, input.currency, language);
  return language === 'en'
    ? `Hi ${input.customerName}! ${input.salonName} has refunded ${amount} to you. It may take a few days before the amount shows on your account.`
    : `Hei ${input.customerName}! ${input.salonName} har refundert ${amount} til deg. Det kan ta noen dager før beløpet vises på kontoen.`;
}

/**
 * A payment the provider confirmed after it expired here, released again (voided or refunded): the
 * customer's message in the booking's language, the same text by SMS and as the e-mail's body.
 */
export function latePaymentReleasedMessage(input: {
  customerName: string;
  salonName: string;
  amount: number;
  currency: string;
  release: 'VOIDED' | 'REFUNDED';
  language?: Language;
}): { subject: string; text: string } {
  const language = input.language ?? 'nb';
  const amount = formatMoney(input.amount, input.currency, language);
  if (language === 'en') {
    const late = `Hi ${input.customerName}! Your payment of ${amount} to ${input.salonName} arrived after the booking was cancelled or had expired.`;
    return input.release === 'REFUNDED'
      ? {
          subject: `Your payment to ${input.salonName} is refunded`,
          text: `${late} We have refunded the whole amount to you. It may take a few days before it shows on your account.`,
        }
      : { subject: `Your payment to ${input.salonName} is released`, text: `${late} We have released the amount held on your card, so you are not charged.` };
  }
  const late = `Hei ${input.customerName}! Betalingen din på ${amount} til ${input.salonName} kom etter at bestillingen var avbestilt eller utløpt.`;
  return input.release === 'REFUNDED'
    ? {
        subject: `Betalingen din til ${input.salonName} er refundert`,
        text: `${late} Vi har refundert hele beløpet til deg. Det kan ta noen dager før det vises på kontoen.`,
      }
    : { subject: `Betalingen din til ${input.salonName} er frigitt`, text: `${late} Vi har frigitt det reserverte beløpet, så du blir ikke belastet.` };
}
