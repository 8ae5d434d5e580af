/**
 * Loads everything the availability and placement rules need for one tenant and a range of
 * salon-local dates (no loader existed in domain/resource when this was written). Plain knex
 * queries, each filtered by tenant; pass the transaction when called under the booking lock so the
 * reads see what committed before the lock was taken.
 */
import type { Knex } from 'knex';
import { addDays, localDayBoundsUtcMs, type LocalDate } from '../time/salon-time.rules';
import type { BookingStatusValue, ResourceAvailabilityData } from './availability.types';
import type { UnassignedItem } from './unassigned.rules';

type Db = Knex | Knex.Transaction;

export interface LoadedResource extends ResourceAvailabilityData {
  name: string;
  userId: string | null;
  sortOrder: number;
}

export interface AvailabilityData {
  /** sorted by sortOrder, name, id (the rules suggest resources in input order) */
  resources: LoadedResource[];
  /** active unassigned booking items touching the range */
  unassigned: UnassignedItem[];
}

export interface LoadOptions {
  tenantId: string;
  timezone: string;
  /** resources with a skill for any of these services are loaded */
  serviceIds: readonly string[];
  /** and these, whatever their skills (so the placement check can say RESOURCE_NOT_QUALIFIED) */
  resourceIds?: readonly string[];
  fromDate: LocalDate;
  toDate: LocalDate;
}

/** Awaits knex builders (lazy thenables); one after another inside a transaction (one connection). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function sequence(db: Db, queries: readonly PromiseLike<any>[] | readonly any[]): Promise<any[]> {
  // Outside a transaction the pool runs them in parallel.
  if (!(db as Knex.Transaction).isTransaction) return Promise.all(queries);
  const out: unknown[] = [];
  for (const q of queries) out.push(await q);
  return out;
}

const iso = (d: Date | string): string => (typeof d === 'string' ? d : d.toISOString());

export async function loadAvailabilityData(db: Db, opts: LoadOptions): Promise<AvailabilityData> {
  const { tenantId, timezone } = opts;
  // Chains may run past local midnight: include the following date.
  const lastDate = addDays(opts.toDate, 1);
  const rangeStart = new Date(localDayBoundsUtcMs(opts.fromDate, timezone).start);
  const rangeEnd = new Date(localDayBoundsUtcMs(lastDate, timezone).end);

  const unassigned: { bookingId: string; serviceId: string; startTime: Date; endTime: Date; status: BookingStatusValue }[] = await db('bookingItems as bi')
    .join('bookings as b', 'b.id', 'bi.bookingId')
    .select('bi.bookingId', 'bi.serviceId', 'bi.startTime', 'bi.endTime', 'b.status')
    .where('bi.tenantId', tenantId)
    .where('bi.isActive', true)
    .whereNull('bi.resourceId')
    .where('bi.startTime', '<', iso(rangeEnd))
    .where('bi.endTime', '>', iso(rangeStart));
  // Resources that could absorb the unassigned items are needed to place them (unassigned.rules.ts).
  const serviceIds = [...new Set([...opts.serviceIds, ...unassigned.map((u) => u.serviceId)])];

  const rows: { id: string; name: string; userId: string | null; sortOrder: number; isActive: boolean; isBookableOnline: boolean }[] = await db('resources')
    .select('id', 'name', 'userId', 'sortOrder', 'isActive', 'isBookableOnline')
    .where({ tenantId })
    .andWhere((q) => {
      q.whereIn('id', db('resourceSkills').select('resourceId').where({ tenantId }).whereIn('serviceId', serviceIds));
      if (opts.resourceIds?.length) q.orWhereIn('id', [...opts.resourceIds]);
    })
    .orderBy([{ column: 'sortOrder' }, { column: 'name' }, { column: 'id' }]);
  const ids = rows.map((r) => r.id);

  // Sequential: inside a transaction all queries share one connection.
  const [skills, schedules, overrides, timeOffs, items] = await sequence(db, [
    ids.length ? db('resourceSkills').select('resourceId', 'serviceId').where({ tenantId }).whereIn('resourceId', ids) : [],
    ids.length
      ? db('resourceSchedules').select('resourceId', 'dayOfWeek', 'startTime', 'endTime', 'isActive').where({ tenantId }).whereIn('resourceId', ids)
      : [],
    ids.length
      ? db('resourceScheduleOverrides')
          .select('resourceId', 'date', 'startTime', 'endTime')
          .where({ tenantId })
          .whereIn('resourceId', ids)
          .whereBetween('date', [addDays(opts.fromDate, -1), lastDate])
      : [],
    ids.length
      ? db('timeOffs')
          .select('resourceId', 'startDate', 'endDate', 'startTime', 'endTime', 'isApproved')
          .where({ tenantId, isApproved: true })
          .whereIn('resourceId', ids)
          .where('startDate', '<=', lastDate)
          .where('endDate', '>=', addDays(opts.fromDate, -1))
      : [],
    ids.length
      ? db('bookingItems as bi')
          .join('bookings as b', 'b.id', 'bi.bookingId')
          .select('bi.resourceId', 'bi.bookingId', 'bi.startTime', 'bi.endTime', 'b.status')
          .where('bi.tenantId', tenantId)
          .where('bi.isActive', true)
          .whereIn('bi.resourceId', ids)
          .where('bi.startTime', '<', iso(rangeEnd))
          .where('bi.endTime', '>', iso(rangeStart))
      : [],
  ]);

  const byId = new Map<string, LoadedResource>();
  const resources: LoadedResource[] = rows.map((r) => {
    const res: LoadedResource = {
      id: r.id,
      name: r.name,
      userId: r.userId,
      sortOrder: r.sortOrder,
      isActive: r.isActive,
      isBookableOnline: r.isBookableOnline,
      skills: [],
      weeklySchedule: [],
      overrides: [],
      timeOff: [],
      bookings: [],
    };
    byId.set(r.id, res);
    return res;
  });
  const mut = (id: string) => byId.get(id) as unknown as {
    skills: string[];
    weeklySchedule: unknown[];
    overrides: unknown[];
    timeOff: unknown[];
    bookings: unknown[];
  };
  for (const s of skills as { resourceId: string; serviceId: string }[]) mut(s.resourceId)?.skills.push(s.serviceId);
  for (const s of schedules as { resourceId: string; dayOfWeek: number; startTime: string; endTime: string; isActive: boolean }[]) {
    mut(s.resourceId)?.weeklySchedule.push({ dayOfWeek: s.dayOfWeek, startTime: s.startTime, endTime: s.endTime, isActive: s.isActive });
  }
  for (const o of overrides as { resourceId: string; date: string; startTime: string | null; endTime: string | null }[]) {
    mut(o.resourceId)?.overrides.push({ date: o.date, startTime: o.startTime, endTime: o.endTime });
  }
  for (const t of timeOffs as { resourceId: string; startDate: string; endDate: string; startTime: string | null; endTime: string | null; isApproved: boolean }[]) {
    mut(t.resourceId)?.timeOff.push({ startDate: t.startDate, endDate: t.endDate, startTime: t.startTime, endTime: t.endTime, isApproved: t.isApproved });
  }
  for (const b of items as { resourceId: string; bookingId: string; startTime: Date; endTime: Date; status: BookingStatusValue }[]) {
    mut(b.resourceId)?.bookings.push({ id: b.bookingId, start: new Date(b.startTime), end: new Date(b.endTime), status: b.status });
  }
  return {
    resources,
    unassigned: unassigned.map((u) => ({
      bookingId: u.bookingId,
      serviceId: u.serviceId,
      start: new Date(u.startTime),
      end: new Date(u.endTime),
      status: u.status,
    })),
  };
}
