// The reads of the retention (docs/rules/personal-data.md#retention): the salon's customers whose last
// visit, last booking and record are all older than a cut-off and who have nothing still to come, and
// the salons that have a retention timer to run. Read-only over the customer, booking, series and
// waitlist tables; plain rows out.
import { raw } from 'objection';
import type { Db } from '../../db/db-handle';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { CustomerModel } from '../../db/models/customer.model';
import { BookingModel } from '../../db/models/booking.model';
import { BookingSeriesModel } from '../../db/models/booking-series.model';
import { WaitlistEntryModel } from '../../db/models/waitlist-entry.model';
import { TenantModel } from '../../db/models/tenant.model';

/** Statuses of a booking still to come or under way. */
const OPEN_STATUSES = ['PENDING', 'CONFIRMED', 'ARRIVED', 'IN_PROGRESS'];

const LAST_ACTIVITY = `GREATEST(customers.created_at, tc.last_visit, (SELECT max(b.start_time) FROM bookings b WHERE b.customer_id = customers.id))`;

export interface DueCustomerRow {
  id: string;
  name: string;
  lastActivityAt: Date;
}

/** The salon's customers not erased, with nothing still to come, whose last activity is at or before `cutoff`, longest ago first. */
function dueCustomers(db: Db, tenantId: string, cutoff: Date, now: Date) {
  return CustomerModel.query(db)
    .leftJoin('tenant_customers as tc', (j) => j.on('tc.customerId', 'customers.id').andOn('tc.tenantId', 'customers.tenantId'))
    .where('customers.tenantId', tenantId)
    .where('customers.erased', false)
    .whereNotExists(
      BookingModel.query(db).whereColumn('bookings.customerId', 'customers.id').whereIn('bookings.status', OPEN_STATUSES).where('bookings.endTime', '>', now),
    )
    .whereNotExists(BookingSeriesModel.query(db).whereColumn('booking_series.customerId', 'customers.id').where('booking_series.status', 'ACTIVE'))
    .whereNotExists(
      WaitlistEntryModel.query(db)
        .whereColumn('waitlist_entries.tenantId', 'customers.tenantId')
        .where('waitlist_entries.status', 'WAITING')
        .where('waitlist_entries.decoy', false)
        .where((w) => w.whereColumn('waitlist_entries.contactPhone', 'customers.phone').orWhereColumn('waitlist_entries.contactEmail', 'customers.email')),
    )
    .where(raw(LAST_ACTIVITY), '<=', cutoff)
    .select('customers.id', 'customers.name', raw(`${LAST_ACTIVITY} AS last_activity_at`))
    .orderBy('lastActivityAt')
    .orderBy('customers.id');
}

export async function pageOfDueCustomers(db: Db, tenantId: string, cutoff: Date, now: Date, page: PageQuery): Promise<PageResult<DueCustomerRow>> {
  return (await paginate(dueCustomers(db, tenantId, cutoff, now), page)) as unknown as PageResult<DueCustomerRow>;
}

export async function dueCustomerIds(db: Db, tenantId: string, cutoff: Date, now: Date, limit: number): Promise<string[]> {
  return ((await dueCustomers(db, tenantId, cutoff, now).limit(limit)) as unknown as DueCustomerRow[]).map((r) => r.id);
}

/** Whether this one customer is still due (read again under their row lock: a booking made meanwhile keeps them). */
export async function isStillDue(db: Db, tenantId: string, customerId: string, cutoff: Date, now: Date): Promise<boolean> {
  return !!(await dueCustomers(db, tenantId, cutoff, now).where('customers.id', customerId).first());
}

/** How many of the salon's customers a sweep at `at` pseudonymised (it stamps them with its own time). */
export async function countPseudonymisedAt(db: Db, tenantId: string, at: Date): Promise<number> {
  return CustomerModel.query(db).where({ tenantId, erasedAt: at }).resultSize();
}

/** Active salons after `afterId`, by id: the ones whose retention timer the starter loop makes sure of. */
export async function activeSalonIds(db: Db, afterId: string | null, limit: number): Promise<string[]> {
  const q = TenantModel.query(db).where('isActive', true).orderBy('id').limit(limit).select('id');
  if (afterId) q.where('id', '>', afterId);
  return (await q).map((t) => t.id);
}
