// Checks on tenant input that the OpenAPI schema cannot express: IANA time zone, ISO 4217 currency,
// percentage deposits 0-100, business-hour slots (HH:mm, end after start, no overlap, each day
// once), and server-side HTML sanitising of the description.
import moment from 'moment-timezone';
import sanitizeHtml from 'sanitize-html';
import { errors } from '../errors';
import { settingsProblems, type TenantSettings } from './tenant-settings.rules';

const CURRENCIES = new Set<string>(Intl.supportedValuesOf('currency'));

export function isIanaTimezone(name: string): boolean {
  const zone = moment.tz.zone(name);
  return Boolean(zone) && zone!.name === name;
}

export function assertValidSettings(settings: TenantSettings): void {
  const problems = settingsProblems(settings, isIanaTimezone);
  if (!CURRENCIES.has(settings.currency)) problems.push({ field: 'settings.currency', message: 'must be an ISO 4217 currency code' });
  settings.businessHours.forEach((day, i) => {
    if (day.isOpen && day.slots.length === 0) problems.push({ field: `settings.businessHours[${i}].slots`, message: 'an open day needs at least one slot' });
  });
  if (problems.length) throw errors.validation('Invalid tenant settings', problems);
}

export function sanitizeDescription(html: string | null): string | null {
  if (html === null) return null;
  return sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'ul', 'ol', 'li', 'a', 'h2', 'h3', 'h4', 'blockquote'],
    allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    disallowedTagsMode: 'discard',
  }).trim();
}
