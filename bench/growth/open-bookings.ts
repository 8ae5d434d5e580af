// Many future bookings of many salons, bulk-loaded (not through the api), each with the real booking
// workflow started by the client as the api starts it (signal-with-start `booking:<id>`), so each
// run is the real workflow waiting on its real reminder timer. The confirmations are recorded as sent
// before the runs start: those runs then begin where a booking made weeks ago stands, waiting.
import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import { completeSettings } from '../../domain/tenant/tenant-settings.rules';
import { bookingContract } from '../../domain/booking/booking-events.rules';
import { bookingEventSignal, bookingWorkflow } from '../../workflows/booking/booking.workflow';

export interface OpenBooking {
  id: string;
  tenantId: string;
}

const CHUNK = 1000;

/** `salons` salons of `staff` each, reminding `reminderHoursBefore` before the start. */
export async function seedSalons(knex: Knex, options: { salons: number; staff: number; reminderHoursBefore: number; tag: string }) {
  const settings = JSON.stringify(completeSettings('beauty', { reminderHoursBefore: options.reminderHoursBefore, maxBookingDaysInAdvance: 365 }));
  const salons: { tenantId: string; serviceId: string; staff: string[] }[] = [];
  for (let from = 0; from < options.salons; from += CHUNK) {
    const n = Math.min(CHUNK, options.salons - from);
    const tenants = await knex('tenants')
      .insert(
        Array.from({ length: n }, (_, i) => ({
          name: `Salong ${from + i}`,
          slug: `${options.tag}-${from + i}`,
          industryType: 'beauty',
          settings,
          launchedAt: new Date(),
          branding: '{}',
        })),
      )
      .returning('id');
    const services = await knex('services')
      .insert(tenants.map((t: { id: string }) => ({ tenantId: t.id, name: 'Klipp', duration: 30, price: 50000, currency: 'NOK' })))
      .returning(['id', 'tenantId']);
    const resources = await knex('resources')
      .insert(tenants.flatMap((t: { id: string }) => Array.from({ length: options.staff }, (_, k) => ({ tenantId: t.id, name: `Staff ${k}`, sortOrder: k }))))
      .returning(['id', 'tenantId']);
    for (const s of services as { id: string; tenantId: string }[])
      salons.push({
        tenantId: s.tenantId,
        serviceId: s.id,
        staff: (resources as { id: string; tenantId: string }[]).filter((r) => r.tenantId === s.tenantId).map((r) => r.id),
      });
  }
  return salons;
}

/**
 * `count` CONFIRMED bookings over the salons, booking k starting at `startOf(k)` on staff member
 * k / salons of its salon (two bookings of one staff member never overlap when `startOf` keeps them
 * 30 minutes apart), their confirmations recorded as sent.
 */
export async function seedBookings(
  knex: Knex,
  salons: Awaited<ReturnType<typeof seedSalons>>,
  count: number,
  startOf: (k: number) => Date,
  onChunk?: (done: number) => void,
): Promise<OpenBooking[]> {
  const out: OpenBooking[] = [];
  for (let from = 0; from < count; from += CHUNK) {
    const ks = Array.from({ length: Math.min(CHUNK, count - from) }, (_, i) => from + i);
    const salonOf = (k: number) => salons[k % salons.length];
    const customers = await knex('customers')
      .insert(
        ks.map((k) => ({
          tenantId: salonOf(k).tenantId,
          name: `Kunde ${k}`,
          phone: `+479${String(1000000 + k).padStart(7, '0')}`,
          email: `kunde${k}@bench.example`,
        })),
      )
      .returning('id');
    const rows = ks.map((k, i) => {
      const salon = salonOf(k);
      const start = startOf(k);
      return {
        tenantId: salon.tenantId,
        customerId: customers[i].id,
        resourceId: salon.staff[Math.floor(k / salons.length) % salon.staff.length],
        startTime: start,
        endTime: new Date(start.getTime() + 30 * 60_000),
        status: 'CONFIRMED',
        source: 'ONLINE',
        totalAmount: 50000,
        metadata: { displaySnapshot: { timezone: 'Europe/Oslo', currency: 'NOK', locale: 'nb-NO' } },
      };
    });
    const bookings = (await knex('bookings').insert(rows).returning(['id', 'tenantId'])) as OpenBooking[];
    await knex('booking_items').insert(
      bookings.map((b, i) => ({
        bookingId: b.id,
        tenantId: b.tenantId,
        serviceId: salonOf(ks[i]).serviceId,
        resourceId: rows[i].resourceId,
        startTime: rows[i].startTime,
        endTime: rows[i].endTime,
        duration: 30,
        price: 50000,
      })),
    );
    const sentAt = new Date();
    await knex('booking_notifications').insert(
      bookings.flatMap((b) =>
        (['SMS', 'EMAIL'] as const).map((channel) => ({ bookingId: b.id, tenantId: b.tenantId, kind: 'CONFIRMED', channel, dedupeKey: 'CONFIRMED', sentAt })),
      ),
    );
    out.push(...bookings);
    onChunk?.(out.length);
  }
  return out;
}

/**
 * Starts each booking's workflow as the api does (signal-with-start), `concurrency` at a time; returns
 * the start rate (workflows a second, start requests answered).
 */
export async function startBookingWorkflows(
  client: Client,
  taskQueue: string,
  bookings: OpenBooking[],
  options: { concurrency: number; onProgress?: (done: number, elapsedMs: number) => void },
): Promise<{ ms: number; perSecond: number }> {
  const t0 = Date.now();
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < bookings.length) {
      const b = bookings[next++];
      await client.workflow.signalWithStart(bookingWorkflow, {
        workflowId: bookingContract.workflowId(b.id),
        taskQueue,
        args: [{ bookingId: b.id, tenantId: b.tenantId }],
        signal: bookingEventSignal,
        signalArgs: [{ type: 'BookingCreated', entityVersion: 1 }],
      });
      done += 1;
      if (done % 5000 === 0) options.onProgress?.(done, Date.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  const ms = Date.now() - t0;
  return { ms, perSecond: (1000 * bookings.length) / Math.max(1, ms) };
}
