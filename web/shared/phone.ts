// Phone numbers typed on the booking page: without a country code they are Norwegian (+47 by
// default, docs/rules/booking-page.md). Pure.

export const DEFAULT_COUNTRY_CODE = '+47';

/** "912 34 567" -> "+47 912 34 567"; "0046 70 123" -> "+46 70 123"; "+45 ..." unchanged. */
export function withCountryCode(input: string, countryCode = DEFAULT_COUNTRY_CODE): string {
  const trimmed = input.trim();
  if (trimmed === '') return '';
  if (trimmed.startsWith('+')) return trimmed;
  if (trimmed.startsWith('00')) return `+${trimmed.slice(2)}`;
  return `${countryCode} ${trimmed}`;
}
