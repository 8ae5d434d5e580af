/**
 * The one question a series asks availability (docs/rules/series.md#booking-an-occurrence): the
 * nearest free start (the nearest day, then the nearest time of day) for these services with this staff member, within the salon's tolerance of the
 * planned time. It asks through availability's public functions only, so when the availability
 * engine changes, this function is the one to re-point.
 */
import type { DbPool } from '../../db/db-handle';
import type { TenantContext } from '../tenant/tenant-context';
import { availabilityForDate } from '../availability/availability.service';
import { effectiveMaxBookingDays, lastBookableLocalDate } from '../availability/booking-window.rules';
import { utcToLocalDate } from '../time/salon-time.rules';
import { nearestStart, toleranceDates } from './series.rules';

export interface FreeStartQuery {
  serviceIds: readonly string[];
  resourceId: string;
  /** the planned start */
  target: Date;
  /** salon-local days either way */
  toleranceDays: number;
  /** the booking's clock: nothing before it, nothing beyond the booking window */
  now: Date;
  /** starts already refused (taken between this answer and the booking) */
  exclude?: readonly Date[];
}

/** The free start nearest to `target` with the staff member, within the tolerance; null when none. */
export async function nearestFreeStart(db: DbPool, tenant: TenantContext, query: FreeStartQuery): Promise<Date | null> {
  const s = tenant.settings;
  const today = utcToLocalDate(query.now, s.timezone);
  const last = lastBookableLocalDate(query.now, s.timezone, effectiveMaxBookingDays(s));
  const dates = toleranceDates(query.target, s.timezone, query.toleranceDays).filter((d) => d >= today && (last === null || d <= last));
  const items = query.serviceIds.map((serviceId) => ({ serviceId, resourceId: query.resourceId }));
  const excluded = new Set((query.exclude ?? []).map((d) => d.getTime()));
  const starts: Date[] = [];
  for (const date of dates) {
    const day = await availabilityForDate(db, tenant, { date, items, onlineOnly: false, now: query.now });
    for (const slot of day.slots) {
      const start = new Date(slot.start);
      if (start.getTime() > query.now.getTime() && !excluded.has(start.getTime())) starts.push(start);
    }
  }
  return nearestStart(starts, query.target, s.timezone);
}
