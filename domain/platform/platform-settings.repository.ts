// Data access of the platform settings row (db/migrations/100_platform_settings.ts): plain rows.
import type { Db } from '../../db/db-handle';

export type BookingUiVersion = 'v1' | 'v2';

export interface PlatformSettingsRow {
  bookingUiVersion: BookingUiVersion;
  updatedBy: string | null;
  updatedAt: Date;
}

const COLUMNS = ['bookingUiVersion', 'updatedBy', 'updatedAt'];

export async function readPlatformSettings(db: Db): Promise<PlatformSettingsRow> {
  return db('platform_settings').where({ id: true }).first(COLUMNS);
}

export async function writePlatformSettings(
  db: Db,
  changes: Partial<Pick<PlatformSettingsRow, 'bookingUiVersion'>>,
  updatedBy: string | null,
): Promise<PlatformSettingsRow> {
  const [row] = await db('platform_settings')
    .where({ id: true })
    .update({ ...changes, updatedBy, updatedAt: db.fn.now() })
    .returning(COLUMNS);
  return row;
}
