/**
 * The booking by id alone, as the booking's workflow and the activities read it (the id came from
 * the tenant's own row): its timeline (status, version, start, the customer's answer and the
 * salon's settings) and its whole row, each one named statement (db/named-statement.ts).
 */
import type { Db } from '../../db/db-handle';
import { runNamedStatement } from '../../db/named-statement';
import { columnOf } from '../../db/column-name';
import type { BookingStatus } from './booking-status.rules';
import type { BookingRow } from './booking.types';

/**
 * Every column of bookings, by its BookingRow key. Listed rather than `*`: a prepared statement
 * whose result gains a column (a migration while a process runs) fails with "cached plan must not
 * change result type". test/integration/hot-path-statements.test.ts holds this list to the table.
 */
export const BOOKING_KEYS = [
  'id',
  'tenantId',
  'customerId',
  'resourceId',
  'startTime',
  'endTime',
  'status',
  'source',
  'paymentMode',
  'totalAmount',
  'discountAmount',
  'appliedVoucherId',
  'cancellationFee',
  'depositStatus',
  'processedForLoyalty',
  'metadata',
  'isGuest',
  'contactName',
  'contactPhone',
  'contactEmail',
  'notes',
  'version',
  'cancelReason',
  'cancelledBy',
  'cancelledAt',
  'manageTokenHash',
  'allowDoubleBooking',
  'createdBy',
  'createdAt',
  'updatedAt',
  'customerAccountId',
  'language',
  'calendarSequence',
  'promisedAt',
  'promisedVia',
  'unpromisedFlaggedAt',
  'customerErased',
  'identityRemovedAt',
] as const satisfies readonly (keyof BookingRow)[];

const BOOKING_BY_ID = `SELECT ${BOOKING_KEYS.map((key) => `${columnOf(key)} AS "${key}"`).join(', ')} FROM bookings WHERE id = ?`;

/**
 * The booking by id alone: the workflows' activities (the id came from the tenant's own row), each
 * delivery reading it once. A named statement (db/named-statement.ts): the model's query path cost
 * the worker 0.3-0.4 ms of CPU per read against 0.16-0.17 ms (docs/performance.md).
 */
export async function bookingById(db: Db, id: string): Promise<BookingRow | undefined> {
  const [row] = await runNamedStatement<BookingRow>(db, { name: 'booking-by-id', sql: BOOKING_BY_ID, bindings: [id] });
  return row;
}

/** What the booking's workflow follows (its status, version, start, the customer's promise and the deposit) and its salon's settings. */
export interface BookingTimelineRow {
  tenantId: string;
  status: BookingStatus;
  version: number;
  startTime: Date;
  promisedAt: Date | null;
  depositStatus: string | null;
  metadata: BookingRow['metadata'] | null;
  salonSettings: Record<string, unknown> | null;
}

const TIMELINE = `
  SELECT b.tenant_id AS "tenantId", b.status, b.version, b.start_time AS "startTime", b.promised_at AS "promisedAt", b.deposit_status AS "depositStatus", b.metadata, t.settings AS "salonSettings"
    FROM bookings b JOIN tenants t ON t.id = b.tenant_id
   WHERE b.id = ?`;

/**
 * The booking workflow's read of committed state, once per signal it gets: one named statement
 * (db/named-statement.ts) instead of the booking and then its salon through the models.
 */
export async function bookingTimelineRow(db: Db, id: string): Promise<BookingTimelineRow | undefined> {
  const [row] = await runNamedStatement<BookingTimelineRow>(db, { name: 'booking-timeline', sql: TIMELINE, bindings: [id] });
  return row;
}
