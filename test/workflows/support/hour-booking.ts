// An hour's booking of one service with one staff member, written straight to the database as the
// api would have left it (the workflow tests start its workflow themselves).
import type { Knex } from 'knex';

const HOUR = 3_600_000;

export async function insertHourBooking(
  knex: Knex,
  b: { tenantId: string; serviceId: string; resourceId: string; customerId: string; start: Date; status?: string },
): Promise<{ id: string; tenantId: string; startTime: Date; endTime: Date; metadata: Record<string, unknown>; [column: string]: unknown }> {
  const end = new Date(b.start.getTime() + HOUR);
  const [booking] = await knex('bookings')
    .insert({
      tenantId: b.tenantId,
      customerId: b.customerId,
      resourceId: b.resourceId,
      startTime: b.start,
      endTime: end,
      status: b.status ?? 'CONFIRMED',
      source: 'ONLINE',
      totalAmount: 65000,
      metadata: { displaySnapshot: { timezone: 'Europe/Oslo', currency: 'NOK', locale: 'nb-NO' } },
    })
    .returning('*');
  await knex('booking_items').insert({
    bookingId: booking.id,
    tenantId: b.tenantId,
    serviceId: b.serviceId,
    resourceId: b.resourceId,
    startTime: b.start,
    endTime: end,
    duration: 60,
    price: 65000,
  });
  return booking;
}
