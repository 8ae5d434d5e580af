/**
 * Money as the customer reads it in a message (docs/rules/conventions.md#money): minor units in the
 * salon's currency, written the way the booking page writes it (web/shared/format.ts, whose
 * formatMoney test/unit/money/money.rules.test.ts holds this one to): Norwegian "1 250,50 kr",
 * English "kr 1,250.50", the currency's local sign, decimals only when the amount has them. Plain
 * spaces instead of non-breaking ones, which would make an SMS a costlier Unicode message. Pure.
 */
import type { Language } from '../language/language.rules';

/** The Intl locale money is written in for a language: the salon's in Norwegian, British English conventions in English. */
export function moneyLocale(language: Language, salonLocale = 'nb-NO'): string {
  return language === 'en' ? 'en-GB' : salonLocale;
}

/** 15050 NOK -> "150,50 kr" (nb) / "kr 150.50" (en). */
export function formatMoney(minor: number, currency: string, language: Language, salonLocale?: string): string {
  const locale = moneyLocale(language, salonLocale);
  const options = { style: 'currency', currency, currencyDisplay: 'narrowSymbol' } as const;
  const digits = new Intl.NumberFormat(locale, options).resolvedOptions().maximumFractionDigits ?? 2;
  const major = minor / 10 ** digits;
  const whole = Number.isInteger(major);
  return new Intl.NumberFormat(locale, { ...options, minimumFractionDigits: whole ? 0 : digits, maximumFractionDigits: digits })
    .format(major)
    .replace(/[\u00a0\u202f]/g, ' ');
}
