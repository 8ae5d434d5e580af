// Customers' personal data (docs/rules/personal-data.md): the retention's bounds and cut-off, the
// accounting period the bookkeeping law keeps a sale for, what an erased record is called, and the
// text filter that keeps addresses out of logs and workflow histories. Pure: no I/O, no clock.
import { utcToLocalDate } from '../time/salon-time.rules';

/** How long a salon keeps a customer after their last visit (docs/rules/personal-data.md#retention), in months. */
export const CUSTOMER_RETENTION_MONTHS = { min: 12, max: 120, default: 36 } as const;

/** `settings.customerRetentionMonths`, or the default for salons whose settings predate it. */
export function retentionMonthsOf(settings: { customerRetentionMonths?: number }): number {
  return settings.customerRetentionMonths ?? CUSTOMER_RETENTION_MONTHS.default;
}

/** A customer whose last activity is at or before this instant is due at `asOf` (calendar months back, in UTC). */
export function retentionCutoff(asOf: Date, months: number): Date {
  const cutoff = new Date(asOf.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff;
}

/** When a customer whose last activity was `lastActivity` becomes due. */
export function retentionDueAt(lastActivity: Date, months: number): Date {
  const due = new Date(lastActivity.getTime());
  due.setUTCMonth(due.getUTCMonth() + months);
  return due;
}

/**
 * The bookkeeping law keeps primary documentation for five years after the end of the financial
 * year (the calendar year) it belongs to (docs/rules/personal-data.md#what-is-kept-for-the-accounts).
 */
export const ACCOUNTING_YEARS_AFTER_THE_FINANCIAL_YEAR = 5;

/**
 * The last salon-local year whose accounting records may be removed at `asOf`: a sale of 2026 is kept
 * through 2031 and may go from 1 January 2032, so at any time in 2032 this answers 2026.
 */
export function lastRemovableAccountingYear(asOf: Date, timezone: string): number {
  const year = Number(utcToLocalDate(asOf, timezone).slice(0, 4));
  return year - ACCOUNTING_YEARS_AFTER_THE_FINANCIAL_YEAR - 1;
}

/** What an erased or pseudonymised customer record is called where a name must be shown. */
export const ERASED_CUSTOMER_NAME = 'Slettet kunde';

// an e-mail address; a number of 8 to 15 digits (single spaces between them allowed: +47 987 65 432)
// that is not part of an id or a date (no letter, digit or dash next to it)
const EMAIL = /[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[a-z]{2,}/gi;
const PHONE = /(?<![\w-])\+?\d(?: ?\d){7,14}(?![\w-])/g;

/** The text without e-mail addresses or phone numbers, for logs and failures that must carry ids only. */
export function withoutContacts(text: string): string {
  return text.replace(EMAIL, '[e-mail]').replace(PHONE, '[phone]');
}
