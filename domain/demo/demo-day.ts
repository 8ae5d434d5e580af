// A real day for the demo salon's front desk (`npm start`, docs/rules/front-desk.md): when the demo
// salon has no booking on its next open day (today, unless nobody works today), its three stylists
// get a day of bookings made the way the salon and its customers make them, through the booking
// services (so each has its workflow, its messages and its audit): phone bookings, a colour with
// another client inside its processing time, the morning's visits already completed, the one under
// way in progress, and two customers' online bookings waiting for the salon's approval.
//
//   const day = await seedDemoDay(bookingDeps);   // null: the salon has that day already (or no demo salon)
import { AppError } from '../errors';
import { nowOf } from '../time/clock';
import { addDays, localToUtc, utcToLocalDate } from '../time/salon-time.rules';
import { tenantById, type TenantContext } from '../tenant/tenant-context';
import { findTenantBySlug } from '../tenant/tenant.repository';
import { resourcesOfSalon } from '../resource/resource.repository';
import { pageOfServices } from '../catalogue/catalogue.repository';
import { ownerContactsOfSalon } from '../users/user.repository';
import type { Actor, BookingDeps } from '../booking/booking.types';
import { createPublicBooking, createStaffBooking } from '../booking/booking-create.service';
import { changeStatus } from '../booking/booking-status.service';
import { listBookings } from '../booking/booking-query.service';
import { DEMO_SLUG } from './demo-salon';

interface Planned {
  staff: 'Ingrid Hansen' | 'Lars Johansen' | 'Sofie Berg';
  time: string;
  service: string;
  customer: string;
  /** a customer's own booking on the booking page (waits for the salon's approval) */
  online?: boolean;
}

const DAY: Planned[] = [
  { staff: 'Ingrid Hansen', time: '09:00', service: 'Farge og striper', customer: 'Nora Bakken' },
  // inside the colour's processing time: the stylist is free for a cut while the colour develops
  { staff: 'Ingrid Hansen', time: '09:45', service: 'Herreklipp', customer: 'Ola Lie' },
  { staff: 'Ingrid Hansen', time: '11:15', service: 'Herreklipp', customer: 'Jonas Moe' },
  { staff: 'Ingrid Hansen', time: '12:30', service: 'Dameklipp', customer: 'Kari Nordmann' },
  { staff: 'Ingrid Hansen', time: '14:00', service: 'Farge og striper', customer: 'Hanne Vik' },
  { staff: 'Ingrid Hansen', time: '14:45', service: 'Herreklipp', customer: 'Magnus Berg' },
  { staff: 'Ingrid Hansen', time: '16:15', service: 'Herreklipp', customer: 'Sara Haugen', online: true },
  { staff: 'Lars Johansen', time: '09:00', service: 'Herreklipp', customer: 'Per Strand' },
  { staff: 'Lars Johansen', time: '09:30', service: 'Herreklipp', customer: 'Emil Dahl' },
  { staff: 'Lars Johansen', time: '10:30', service: 'Dameklipp', customer: 'Ingrid Solberg' },
  { staff: 'Lars Johansen', time: '13:00', service: 'Dameklipp', customer: 'Emma Dahl' },
  { staff: 'Lars Johansen', time: '14:30', service: 'Herreklipp', customer: 'Erik Lund' },
  { staff: 'Sofie Berg', time: '10:00', service: 'Manikyr', customer: 'Lise Holm' },
  { staff: 'Sofie Berg', time: '11:00', service: 'Gellakk', customer: 'Marte Eide' },
  { staff: 'Sofie Berg', time: '13:00', service: 'Brynsforming', customer: 'Thea Aas' },
  { staff: 'Sofie Berg', time: '13:30', service: 'Vippefarging', customer: 'Ida Ruud' },
  { staff: 'Sofie Berg', time: '15:00', service: 'Manikyr', customer: 'Vilde Nilsen', online: true },
];

/** Made-up numbers of a range no one has (+47 900 00 1xx). */
const phoneOf = (i: number) => `+479000${String(100 + i).padStart(4, '0')}`;

export interface DemoDay {
  date: string;
  bookings: number;
}

export async function seedDemoDay(deps: BookingDeps): Promise<DemoDay | null> {
  const row = await findTenantBySlug(deps.knex, DEMO_SLUG);
  if (!row) return null;
  const tenant = await tenantById(deps.knex, row.id);
  const tz = tenant.settings.timezone;
  const [owner] = await ownerContactsOfSalon(deps.knex, tenant.id);
  if (!owner) return null;
  const actor: Actor = { userId: owner.id, role: 'OWNER', resourceId: null };
  const staff = new Map((await resourcesOfSalon(deps.knex, tenant.id)).map((r) => [r.name, r.id]));
  const services = new Map((await pageOfServices(deps.knex, tenant.id, {}, { page: 1, limit: 100 })).rows.map((s) => [s.name, s.id]));
  const now = nowOf(deps);
  const today = utcToLocalDate(now, tz);

  for (let ahead = 0; ahead < 7; ahead++) {
    const date = addDays(today, ahead);
    const booked = await listBookings(deps, tenant, actor, { page: 1, limit: 1, date });
    if (booked.total > 0) return null;
    let made = 0;
    for (const [i, plan] of DAY.entries()) {
      const start = localToUtc(date, plan.time, tz);
      const item = { serviceId: services.get(plan.service)!, resourceId: staff.get(plan.staff)! };
      const customer = { name: plan.customer, phone: phoneOf(i) };
      try {
        if (plan.online) {
          // a customer books on the page: only ahead of now
          if (start.getTime() <= now.getTime()) continue;
          await createPublicBooking(deps, tenant, { startTime: start.toISOString(), items: [item], customer });
        } else {
          const booking = await createStaffBooking(deps, tenant, actor, { startTime: start.toISOString(), items: [item], customer, source: 'PHONE' });
          await goneThroughBy(deps, tenant, actor, booking.id, new Date(booking.startTime), new Date(booking.endTime), now);
        }
        made += 1;
      } catch (err) {
        // the stylist does not work that day (or that time is taken): the rest of the day goes on
        if (!(err instanceof AppError)) throw err;
      }
    }
    if (made > 0) return { date, bookings: made };
  }
  return null;
}

/** A visit that is over is completed, the one under way in progress. */
async function goneThroughBy(deps: BookingDeps, tenant: TenantContext, actor: Actor, id: string, start: Date, end: Date, now: Date): Promise<void> {
  if (start.getTime() > now.getTime()) return;
  await changeStatus(deps, tenant, actor, id, 'IN_PROGRESS', {});
  if (end.getTime() <= now.getTime()) await changeStatus(deps, tenant, actor, id, 'COMPLETED', {});
}
