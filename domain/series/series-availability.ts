/**
 * The one question a series asks availability (docs/rules/series.md#booking-an-occurrence): the
 * nearest free start (the nearest day, then the nearest time of day) for these services with this
 * staff member, within the salon's tolerance of the planned time. It asks the one availability
 * engine through its service entry point (domain/availability/index.ts, "HOW TO CALL" 0):
 * availabilityForDates loads the tolerance's days once and the engine lays the visit out on each,
 * so a start it offers respects the services' phases (processing time), their buffers before and
 * after, and the rooms or equipment they need, as any booking does. The booking itself then places
 * the visit again under the lock (domain/booking/booking-placement.service.ts) and refuses a start taken
 * meanwhile.
 */
import type { DbPool } from '../../db/db-handle';
import type { TenantContext } from '../tenant/tenant-context';
import { availabilityForDates } from '../availability/availability.service';
import { lastBookableLocalDate } from '../availability/booking-window.rules';
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
  const last = lastBookableLocalDate(query.now, s.timezone, s.maxBookingDaysInAdvance);
  const dates = toleranceDates(query.target, s.timezone, query.toleranceDays)
    .filter((d) => d >= today && (last === null || d <= last))
    .sort();
  if (dates.length === 0) return null;
  const items = query.serviceIds.map((serviceId) => ({ serviceId, resourceId: query.resourceId }));
  const excluded = new Set((query.exclude ?? []).map((d) => d.getTime()));
  const days = await availabilityForDates(db, tenant, { fromDate: dates[0], toDate: dates[dates.length - 1], items, onlineOnly: false, now: query.now });
  const starts: Date[] = [];
  for (const day of days) {
    for (const slot of day.slots) {
      const start = new Date(slot.start);
      if (start.getTime() > query.now.getTime() && !excluded.has(start.getTime())) starts.push(start);
    }
  }
  return nearestStart(starts, query.target, s.timezone);
}
