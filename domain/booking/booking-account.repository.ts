/**
 * A signed-in customer's bookings (docs/rules/customers.md#customer-accounts): whether a booking is
 * the account's, the account's bookings across salons, and the claim that makes a guest booking
 * the account's. Plain rows out.
 */
import type { Db, Transaction } from '../../db/db-handle';
import { BookingModel } from '../../db/models/booking.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { returnedRows } from '../../db/plain';
import type { BookingRow } from './booking.types';

/** Is the booking this tenant's and the account's? */
export async function isBookingOfAccount(db: Db, tenantId: string, bookingId: string, customerAccountId: string): Promise<boolean> {
  return !!(await BookingModel.query(db).select('id').findOne({ id: bookingId, tenantId, customerAccountId }));
}

export type AccountBookingRow = BookingRow & { tenantSlug: string; tenantName: string };

/** The account's bookings across salons with their salon's slug and name, newest appointment first. */
export async function pageOfAccountBookings(db: Db, customerAccountId: string, page: PageQuery): Promise<PageResult<AccountBookingRow>> {
  const query = BookingModel.query(db)
    .join('tenants as t', 't.id', 'bookings.tenantId')
    .where('bookings.customerAccountId', customerAccountId)
    .select('bookings.*', 't.slug as tenantSlug', 't.name as tenantName')
    .orderBy([
      { column: 'bookings.startTime', order: 'desc' },
      { column: 'bookings.id', order: 'asc' },
    ]);
  return (await paginate(query, page)) as unknown as PageResult<AccountBookingRow>;
}

/**
 * Compare-and-set: the booking becomes the account's (version + 1) only while no account owns it.
 * The new version, or undefined when another claim won.
 */
export async function claimForAccount(trx: Transaction, row: BookingRow, customerAccountId: string, now: Date): Promise<number | undefined> {
  const version = row.version + 1;
  const updated = await returnedRows(
    BookingModel.query(trx)
      .patch({ customerAccountId, version, updatedAt: now })
      .where({ id: row.id, tenantId: row.tenantId })
      .whereNull('customerAccountId')
      .returning('id'),
  );
  return updated.length === 1 ? version : undefined;
}
