/**
 * Phone numbers: THE one module that reads, compares and writes them (docs/rules/conventions.md#phone-numbers).
 * Every number the platform takes (customers, a booking's contact, waitlist entries, staff logins,
 * a guest's proof, replies by SMS) goes through `requirePhone`/`optionalPhone` and is stored in
 * E.164 (`+4798765432`); a number typed without a country code is read in the salon's country
 * (`phoneRegionOf`, Norway when the salon names none). Two numbers are the same phone when their
 * E.164 forms are equal (`samePhone`), so `98765433`, `+47 987 65 433` and `004798765433` are one person.
 *
 * Parsing is libphonenumber-js with its full ("max") metadata: a number must have a length its
 * country's numbers have (so "12345" or a Norwegian number of nine digits is refused); whether its
 * range is in use is not asked, since operators open ranges faster than any metadata follows. Pure:
 * no I/O, no clock.
 */
import { getCountries, getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { errors } from '../errors';

export type PhoneRegion = CountryCode;

/** The salon's country when it names none (docs/rules/conventions.md#phone-numbers). */
export const DEFAULT_PHONE_REGION: PhoneRegion = 'NO';

/**
 * The E.164 form of a typed number, read in `region` when it carries no country code ("00" and "+"
 * both start one); null when it is empty or not a valid number.
 */
export function toE164(input: string | null | undefined, region: PhoneRegion = DEFAULT_PHONE_REGION): string | null {
  if (typeof input !== 'string') return null;
  const typed = input.trim();
  if (typed === '' || typed.length > 40) return null;
  // "00" is the international prefix of most of the world: "004798765433" is "+4798765433"
  const international = typed.startsWith('00') ? `+${typed.slice(2)}` : typed;
  const parsed = parsePhoneNumberFromString(international, region);
  return parsed && parsed.isPossible() ? parsed.number : null;
}

function invalid(field: string) {
  return errors.validation('Request validation failed', [{ field, message: 'must be a valid phone number (E.164, or a number of the salon’s country)' }]);
}

/** A number that must be there and valid: its E.164 form, else 400 VALIDATION_ERROR naming `field`. */
export function requirePhone(input: string | null | undefined, region: PhoneRegion, field: string): string {
  const e164 = toE164(input, region);
  if (!e164) throw invalid(field);
  return e164;
}

/** A number that may be left out (null, undefined or empty: null), but when given must be valid. */
export function optionalPhone(input: string | null | undefined, region: PhoneRegion, field: string): string | null {
  if (input === null || input === undefined || input.trim() === '') return null;
  return requirePhone(input, region, field);
}

/** Whether two typed or stored numbers are the same phone (each read in `region` when it has no country code). */
export function samePhone(a: string | null | undefined, b: string | null | undefined, region: PhoneRegion = DEFAULT_PHONE_REGION): boolean {
  const x = toE164(a, region);
  return x !== null && x === toE164(b, region);
}

/**
 * Where an SMS goes: the stored number in E.164. Numbers stored before they were checked (the
 * migration that normalised them reports those it could not read) go out as stored.
 */
export function smsRecipient(stored: string): string {
  return toE164(stored) ?? stored;
}

/**
 * Whether the salon's SMS goes to this number (docs/rules/messages.md#numbers-of-other-countries):
 * only numbers of the salon's own country, by calling code (+47 is Norway's, Svalbard's too). A number
 * stored before it was checked, that cannot be read, gets none.
 */
export function smsReaches(stored: string, salonRegion: PhoneRegion): boolean {
  const parsed = parsePhoneNumberFromString(smsRecipient(stored));
  return parsed !== undefined && parsed.countryCallingCode === getCountryCallingCode(salonRegion);
}

/** A stored number as people read it: "+47 22 00 00 00" (grouped as its country writes it); as stored when it cannot be read. */
export function displayPhone(stored: string): string {
  return parsePhoneNumberFromString(smsRecipient(stored))?.formatInternational() ?? stored;
}

/** "+47": the calling code of a region, for hints such as "without a country code we use +47". */
export function callingCodeOf(region: PhoneRegion): string {
  return `+${getCountryCallingCode(region)}`;
}

/**
 * A search term as it may appear inside a stored E.164 number: a typed prefix ("987 65") keeps its
 * digits, a leading "00" becomes "+". Empty -> null. (Part of a number cannot be parsed, so search
 * matches digits, not numbers.)
 */
export function phoneSearchTerm(term: string): string | null {
  const compact = term.replace(/[\s\-.()]/g, '');
  const international = compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
  return /^\+?\d+$/.test(international) ? international : null;
}

// ------------------------------------------------------------------ the salon's country

const NAME_LANGUAGES = ['en', 'nb', 'nn', 'sv', 'da', 'fi', 'de', 'fr', 'es', 'is'];
let regionsByName: Map<string, PhoneRegion> | undefined;

/** Country names in the languages salons write them in ("Norway", "Norge", "Sverige", ...), lower-cased. */
function regionByName(name: string): PhoneRegion | undefined {
  if (!regionsByName) {
    regionsByName = new Map();
    for (const language of NAME_LANGUAGES) {
      const names = new Intl.DisplayNames([language], { type: 'region' });
      for (const region of getCountries()) {
        const shown = names.of(region);
        if (shown && !regionsByName.has(shown.toLowerCase())) regionsByName.set(shown.toLowerCase(), region);
      }
    }
  }
  return regionsByName.get(name.toLowerCase());
}

/** A country as a salon writes it (an ISO code "NO" or a name "Norge"/"Norway") -> its region; undefined when unknown. */
export function regionOfCountry(country: unknown): PhoneRegion | undefined {
  if (typeof country !== 'string') return undefined;
  const text = country.trim();
  if (/^[A-Za-z]{2}$/.test(text) && isSupportedCountry(text.toUpperCase())) return text.toUpperCase() as PhoneRegion;
  return text ? regionByName(text) : undefined;
}

/** The salon's country for numbers typed without a country code: its address's country, else Norway. */
export function phoneRegionOf(salon: { address?: unknown } | null | undefined): PhoneRegion {
  const address = salon?.address;
  const country = address && typeof address === 'object' ? (address as { country?: unknown }).country : undefined;
  return regionOfCountry(country) ?? DEFAULT_PHONE_REGION;
}
