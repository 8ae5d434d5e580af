// Norwegian (nb-NO) texts of the voucher messages the voucher workflow sends (VoucherIssued
// and VoucherRestored; a forfeited voucher sends nothing). Pure; money in minor units (øre).
import type { RewardType } from '../loyalty/loyalty.rules';
import { norwegianDateTime, type RenderedMessage } from './booking-messages.rules';

export type VoucherMessageKind = 'ISSUED' | 'RESTORED';

export interface VoucherMessageFacts {
  salonName: string;
  customerName: string;
  code: string;
  rewardType: RewardType;
  rewardValue: number;
  expiresAt: Date | null;
  timezone: string;
}

/** 15000 -> "150 kr", 15050 -> "150,50 kr". */
export function norwegianKroner(minor: number): string {
  const kr = Math.floor(minor / 100);
  const ore = minor % 100;
  return ore === 0 ? `${kr} kr` : `${kr},${String(ore).padStart(2, '0')} kr`;
}

export function rewardText(rewardType: RewardType, rewardValue: number): string {
  switch (rewardType) {
    case 'DISCOUNT_PERCENT':
      return `${rewardValue} % rabatt`;
    case 'DISCOUNT_AMOUNT':
      return `${norwegianKroner(rewardValue)} i rabatt`;
    case 'FREE_SERVICE':
      return `en gratis behandling (verdi inntil ${norwegianKroner(rewardValue)})`;
  }
}

export function renderVoucherMessage(kind: VoucherMessageKind, f: VoucherMessageFacts): RenderedMessage {
  const hello = `Hei ${f.customerName}!`;
  const validity = f.expiresAt ? ` Gyldig til ${norwegianDateTime(f.expiresAt, f.timezone)}.` : ' Den har ingen utløpsdato.';
  const reward = rewardText(f.rewardType, f.rewardValue);
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
