/** Reads of booking rows and items, tenant-scoped; a booking of another tenant is 404 BOOKING_NOT_FOUND. */
import type { Knex } from 'knex';
import { errors } from '../errors';
import { toDto, type BookingDto } from './booking.dto';
import type { BookingRow, Db, ItemRow } from './booking.types';

/** The booking row (or the given columns of it); 404 when it is not this tenant's. */
export async function findBookingRow(db: Db, tenantId: string, id: string): Promise<BookingRow>;
export async function findBookingRow<K extends keyof BookingRow>(db: Db, tenantId: string, id: string, columns: K[]): Promise<Pick<BookingRow, K>>;
export async function findBookingRow(db: Db, tenantId: string, id: string, columns?: (keyof BookingRow)[]): Promise<Partial<BookingRow>> {
  const query = db('bookings').where({ tenantId, id });
  if (columns) query.select(columns);
  const row = await query.first();
  if (!row) throw errors.notFound('booking');
  return row;
}

/** SELECT ... FOR UPDATE of the booking row inside the caller's transaction. */
export async function lockBookingRow(trx: Knex.Transaction, tenantId: string, id: string): Promise<BookingRow> {
  const row: BookingRow | undefined = await trx('bookings').where({ tenantId, id }).forUpdate().first();
  if (!row) throw errors.notFound('booking');
  return row;
}

export async function itemsOf(db: Db, bookingIds: string[]): Promise<ItemRow[]> {
  if (!bookingIds.length) return [];
  return db('bookingItems as bi')
    .join('services as s', 's.id', 'bi.serviceId')
    .select('bi.id', 'bi.bookingId', 'bi.serviceId', 's.name as serviceName', 'bi.resourceId', 'bi.startTime', 'bi.endTime', 'bi.duration', 'bi.price', 'bi.sortOrder')
    .whereIn('bi.bookingId', bookingIds);
}

export async function loadDto(db: Db, tenantId: string, id: string): Promise<BookingDto> {
  const row = await findBookingRow(db, tenantId, id);
  return toDto(row, await itemsOf(db, [id]));
}
