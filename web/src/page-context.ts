// What every part of the v2 page reads: the boot data, the language and Intl locale, and the
// browser's time zone when it differs from the salon's (times then say whose zone they are in).
import type { BootData } from '../shared/boot';

export interface PageContext {
  boot: BootData;
  lang: BootData['lang'];
  locale: string;
  /** the browser's zone, when it differs from the salon's */
  browserZone: string | null;
}

export function browserZoneIfDifferent(salonZone: string): string | null {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && zone !== salonZone ? zone : null;
  } catch {
    return null;
  }
}
