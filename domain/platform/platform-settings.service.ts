// Platform settings (docs/rules/booking-page.md): read by the customer pages on every request (one
// indexed single-row read, so every api process sees a change at once), changed by the super-admin.
import type { Db } from '../../db/db-handle';
import { readPlatformSettings, writePlatformSettings, type BookingUiVersion, type PlatformSettingsRow } from './platform-settings.repository';

export type { BookingUiVersion } from './platform-settings.repository';

export interface PlatformSettingsDto {
  bookingUiVersion: BookingUiVersion;
  updatedAt: string;
}

function dto(row: PlatformSettingsRow): PlatformSettingsDto {
  return { bookingUiVersion: row.bookingUiVersion, updatedAt: new Date(row.updatedAt).toISOString() };
}

export async function platformSettings(db: Db): Promise<PlatformSettingsDto> {
  return dto(await readPlatformSettings(db));
}

/** Which customer booking page the api serves. */
export async function bookingUiVersion(db: Db): Promise<BookingUiVersion> {
  return (await readPlatformSettings(db)).bookingUiVersion;
}

/** PATCH: an omitted field is unchanged (the contract validates the values). */
export async function updatePlatformSettings(
  db: Db,
  changes: { bookingUiVersion?: BookingUiVersion },
  adminUserId: string | null,
): Promise<PlatformSettingsDto> {
  if (changes.bookingUiVersion === undefined) return platformSettings(db);
  return dto(await writePlatformSettings(db, { bookingUiVersion: changes.bookingUiVersion }, adminUserId));
}
