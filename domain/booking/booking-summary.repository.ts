/** A few bookings in brief, as a list names them: when, status, who and what (docs/rules/front-desk.md#the-salon-is-told). */
import type { Db } from '../../db/db-handle';
import { BookingModel } from '../../db/models/booking.model';
import type { BookingStatus } from './booking-status.rules';

export interface BookingSummary {
  startTime: Date;
  endTime: Date;
  status: BookingStatus;
  customerName: string | null;
  services: string[];
  resourceId: string | null;
}

/** The salon's bookings of these ids, by id (another salon's are left out). */
export async function bookingSummaries(db: Db, tenantId: string, ids: string[]): Promise<Map<string, BookingSummary>> {
  if (!ids.length) return new Map();
  const rows = await BookingModel.query(db)
    .alias('b')
    .leftJoin('customers as c', 'c.id', 'b.customerId')
    .where('b.tenantId', tenantId)
    .whereIn('b.id', ids)
    .select('b.id', 'b.startTime', 'b.endTime', 'b.status', 'b.resourceId')
    // Raw: the customer's name falls back to the booking's contact, and the services are an ordered array.
    .select(db.raw('COALESCE(c.name, b.contact_name) AS customer_name'))
    .select(
      db.raw(
        '(SELECT COALESCE(array_agg(s.name ORDER BY i.sort_order), ARRAY[]::text[]) FROM booking_items i JOIN services s ON s.id = i.service_id WHERE i.booking_id = b.id) AS service_names',
      ),
    );
  return new Map(
    rows.map((r) => {
      const row = r as unknown as {
        id: string;
        startTime: Date;
        endTime: Date;
        status: BookingStatus;
        resourceId: string | null;
        customerName: string | null;
        serviceNames: string[];
      };
      return [
        row.id,
        {
          startTime: row.startTime,
          endTime: row.endTime,
          status: row.status,
          customerName: row.customerName,
          services: row.serviceNames,
          resourceId: row.resourceId,
        },
      ];
    }),
  );
}
