// The texts of the voucher messages the voucher workflow sends (VoucherIssued and VoucherRestored;
// a forfeited voucher sends nothing), in the customer's language (docs/rules/messages.md#language).
// Pure; money in minor units through the one money module.
import type { RewardType } from '../loyalty/loyalty.rules';
import { formatMoney } from '../money/money.rules';
import type { Language } from '../language/language.rules';
import { messageDateTime, type RenderedMessage } from './booking-messages.rules';

export type VoucherMessageKind = 'ISSUED' | 'RESTORED';

export interface VoucherMessageFacts {
  salonName: string;
  customerName: string;
  code: string;
  rewardType: RewardType;
  rewardValue: number;
  expiresAt: Date | null;
  timezone: string;
  /** the salon's currency (NOK when unset) */
  currency?: string;
}

export function rewardText(rewardType: RewardType, rewardValue: number, language: Language = 'nb', currency = 'NOK'): string {
  const money = (minor: number) => formatMoney(minor, currency, language);
  switch (rewardType) {
    case 'DISCOUNT_PERCENT':
      return language === 'nb' ? `${rewardValue} % rabatt` : `${rewardValue}% off`;
    case 'DISCOUNT_AMOUNT':
      return language === 'nb' ? `${money(rewardValue)} i rabatt` : `${money(rewardValue)} off`;
    case 'FREE_SERVICE':
      return language === 'nb' ? `en gratis behandling (verdi inntil ${money(rewardValue)})` : `a free treatment (worth up to ${money(rewardValue)})`;
  }
}

export function renderVoucherMessage(kind: VoucherMessageKind, f: VoucherMessageFacts, language: Language = 'nb'): RenderedMessage {
  const reward = rewardText(f.rewardType, f.rewardValue, language, f.currency);
  if (language === 'en') {
    const hello = `Hi ${f.customerName}!`;
    const validity = f.expiresAt ? ` Valid until ${messageDateTime(f.expiresAt, f.timezone, 'en')}.` : ' It does not expire.';
    switch (kind) {
      case 'ISSUED':
        return {
          subject: `You have earned a reward at ${f.salonName}`,
          text: `${hello} Your stamp card at ${f.salonName} is full, and you have earned ${reward}. Use the code ${f.code} when you book your next appointment.${validity}`,
        };
      case 'RESTORED':
        return {
          subject: `Your reward at ${f.salonName} can be used again`,
          text: `${hello} The appointment you used the code ${f.code} for was cancelled, so your reward (${reward}) at ${f.salonName} can be used again.${validity}`,
        };
    }
  }
  const hello = `Hei ${f.customerName}!`;
  const validity = f.expiresAt ? ` Gyldig til ${messageDateTime(f.expiresAt, f.timezone, 'nb')}.` : ' Den har ingen utløpsdato.';
  switch (kind) {
    case 'ISSUED':
      return {
        subject: `Du har fått en belønning hos ${f.salonName}`,
        text: `${hello} Stempelkortet ditt hos ${f.salonName} er fullt, og du har fått ${reward}. Bruk koden ${f.code} når du bestiller neste time.${validity}`,
      };
    case 'RESTORED':
      return {
        subject: `Belønningen din hos ${f.salonName} kan brukes igjen`,
        text: `${hello} Timen der du brukte koden ${f.code} ble avbestilt, så belønningen din (${reward}) hos ${f.salonName} kan brukes igjen.${validity}`,
      };
  }
}
