/**
 * The languages the platform writes to customers in (docs/rules/messages.md#language): Norwegian
 * Bokmål, the default, and English. A booking and a waitlist entry keep the language they were made
 * in, and every message about them is written in it. Pure.
 */
export type Language = 'nb' | 'en';

export const LANGUAGES: readonly Language[] = ['nb', 'en'];

export function isLanguage(value: unknown): value is Language {
  return value === 'nb' || value === 'en';
}

/** The salon's own language, from its locale (`nb-NO` -> nb, `en-GB` -> en); Norwegian unless English. */
export function languageOfLocale(locale: string | null | undefined): Language {
  return typeof locale === 'string' && /^en\b/i.test(locale) ? 'en' : 'nb';
}

/** The salon's language, from its settings' locale (`nb-NO` when it has none). */
export function salonLanguage(settings: unknown): Language {
  const locale = settings && typeof settings === 'object' ? (settings as { locale?: unknown }).locale : undefined;
  return languageOfLocale(typeof locale === 'string' ? locale : null);
}

/** The language a customer asked for, else the salon's. */
export function languageOr(asked: unknown, settings: unknown): Language {
  return isLanguage(asked) ? asked : salonLanguage(settings);
}
