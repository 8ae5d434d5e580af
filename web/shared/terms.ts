// What a customer agrees to before "Bestill" (docs/rules/booking-page.md#the-flow): until when
// cancelling is free (start minus the salon's cancellationHours, the platform's rule in
// domain/booking/cancellation.rules.ts) and, with a deposit, what is refunded or kept. The same on the
// server-rendered contact step and in the v2 page. Pure.
import { formatDayTime, formatMoney, type Lang } from './format';
import { t } from './i18n';

const HOUR_MS = 3_600_000;

/** The end of free cancellation: `cancellationHours` before the start (exactly then is still free). */
export function freeCancellationUntil(start: Date | string, cancellationHours: number): Date {
  return new Date(new Date(start).getTime() - cancellationHours * HOUR_MS);
}

export interface TermsInput {
  lang: Lang;
  /** the chosen time's start */
  start: Date | string;
  now: Date;
  cancellationHours: number;
  /** minor units of the deposit asked for, or 0 */
  deposit: number;
  currency: string;
  timezone: string;
  locale: string;
}

/** The sentences shown above "Bestill": the free-cancellation deadline (or that it has passed) and the deposit's fate. */
export function cancellationTerms(input: TermsInput): string[] {
  const { lang, locale, timezone } = input;
  const until = freeCancellationUntil(input.start, input.cancellationHours);
  const open = until.getTime() >= input.now.getTime();
  const amount = formatMoney(input.deposit, input.currency, locale);
  const when = formatDayTime(until, timezone, lang, locale);
  const terms = [open ? t(lang, 'cancelTermsFree', { when }) : t(lang, 'cancelTermsPassed', { hours: input.cancellationHours })];
  if (input.deposit > 0) terms.push(open ? t(lang, 'cancelTermsDepositFree', { amount }) : t(lang, 'cancelTermsDepositPassed', { amount }));
  return terms;
}
