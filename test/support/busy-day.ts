// A busy salon day for the front desk's browser test and its benchmark (npm run bench:desk): 10 staff
// members with logins, 6 rooms and pieces of equipment, and 200 bookings on one salon-local date -
// cuts and colours whose processing sits at a station, the statuses of a day under way, bookings
// waiting for approval or for a deposit, deposits paid, unpromised ones and a few unassigned. The rows are written
// as the booking service writes them (booking, item, segments), straight into the tables: what is
// measured is the desk drawing a day, not 200 bookings being made.
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { hashPassword } from '../../domain/users/passwords';
import { completeSettings } from '../../domain/tenant/tenant-settings.rules';
import { localToUtc } from '../../domain/time/salon-time.rules';

export const BUSY_STAFF = 10;
export const BUSY_ROOMS = 6;
export const BUSY_BOOKINGS = 200;
export const BUSY_PASSWORD = 'busy-day-password';

export interface BusyDay {
  tenantId: string;
  slug: string;
  owner: { email: string; password: string };
  staff: { resourceId: string; email: string; password: string; name: string }[];
  bookings: number;
}

const OPEN = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, isOpen: true, slots: [{ startTime: '08:00', endTime: '20:00' }] }));

/** Every booking status of a day under way, in the order the bookings of a column get them. */
const STATUSES = ['COMPLETED', 'COMPLETED', 'IN_PROGRESS', 'ARRIVED', 'CONFIRMED', 'CONFIRMED', 'PENDING', 'CONFIRMED'] as const;

export async function seedBusyDay(db: Knex, date: string, options: { passwordHashRounds?: number } = {}): Promise<BusyDay> {
  const tz = 'Europe/Oslo';
  const tag = crypto.randomBytes(3).toString('hex');
  const slug = `travel-dag-${tag}`;
  const passwordHash = await hashPassword(BUSY_PASSWORD, options.passwordHashRounds ?? 4);
  const [tenant] = await db('tenants')
    .insert({
      name: `Travel dag ${tag}`,
      slug,
      industryType: 'beauty',
      settings: completeSettings('beauty', { businessHours: OPEN, autoConfirm: false }),
      branding: {},
    })
    .returning('id');
  const tenantId = tenant.id as string;
  const ownerEmail = `eier-${tag}@travel.test`;
  await db('users').insert({ tenantId, role: 'OWNER', email: ownerEmail, name: 'Eva Eier', passwordHash });
  const [cut] = await db('services')
    .insert({ tenantId, name: 'Klipp', duration: 30, price: 59900, currency: 'NOK', isActive: true, sortOrder: 1 })
    .returning('id');
  const colourPhases = [
    { kind: 'WORK', minutes: 10 },
    { kind: 'PROCESSING', minutes: 10 },
    { kind: 'WORK', minutes: 10 },
  ];
  const [colour] = await db('services')
    .insert({
      tenantId,
      name: 'Farge',
      duration: 30,
      price: 129900,
      currency: 'NOK',
      isActive: true,
      sortOrder: 2,
      phases: JSON.stringify(colourPhases),
      resourceRequirements: JSON.stringify([{ resourceType: 'equipment', phases: [1] }]),
    })
    .returning('id');
  const rooms: string[] = [];
  for (let i = 0; i < BUSY_ROOMS; i++) {
    const [room] = await db('resources')
      .insert({ tenantId, type: i % 2 ? 'room' : 'equipment', name: `${i % 2 ? 'Rom' : 'Stasjon'} ${i + 1}`, isBookableOnline: false, sortOrder: 100 + i })
      .returning('id');
    rooms.push(room.id);
    await db('resource_skills').insert({ tenantId, resourceId: room.id, serviceId: colour.id });
  }
  const staff: BusyDay['staff'] = [];
  for (let i = 0; i < BUSY_STAFF; i++) {
    const email = `stylist${i + 1}-${tag}@travel.test`;
    const name = `Stylist ${i + 1}`;
    const [user] = await db('users').insert({ tenantId, role: 'STAFF', email, name, passwordHash }).returning('id');
    const [resource] = await db('resources')
      .insert({ tenantId, type: 'staff', name, sortOrder: i + 1, userId: user.id })
      .returning('id');
    await db('resource_skills').insert([cut.id, colour.id].map((serviceId) => ({ tenantId, resourceId: resource.id, serviceId })));
    await db('resource_schedules').insert(
      OPEN.map((d) => ({ tenantId, resourceId: resource.id, dayOfWeek: d.dayOfWeek, startTime: '08:00', endTime: '20:00', isActive: true })),
    );
    staff.push({ resourceId: resource.id, email, password: BUSY_PASSWORD, name });
  }

  const open = localToUtc(date, '08:00', tz).getTime();
  const minute = 60_000;
  let made = 0;
  for (let k = 0; made < BUSY_BOOKINGS; k++) {
    for (let i = 0; i < BUSY_STAFF && made < BUSY_BOOKINGS; i++) {
      // 35 minutes apart on each column, the columns 3.5 minutes apart so the stations are never wanted twice at once
      const start = open + (k * 35 + i * 3.5) * minute;
      const isColour = k % 4 === 1;
      const unassigned = k % 7 === 3 && i === BUSY_STAFF - 1;
      const status = STATUSES[k % STATUSES.length];
      const pending = status === 'PENDING';
      // some confirmed online bookings have paid their deposit
      const paid = status === 'CONFIRMED' && i % 4 === 0;
      const booking = {
        id: crypto.randomUUID(),
        tenantId,
        resourceId: unassigned ? null : staff[i].resourceId,
        startTime: new Date(start),
        endTime: new Date(start + 30 * minute),
        status,
        source: pending ? 'ONLINE' : 'PHONE',
        paymentMode: (pending && i % 2) || paid ? 'ONLINE' : 'IN_PERSON',
        depositStatus: pending && i % 2 ? 'PENDING' : paid ? 'PAID' : null,
        totalAmount: isColour ? 129900 : 59900,
        contactName: `Kunde ${k + 1}-${i + 1}`,
        contactPhone: `+4790${String(k * 100 + i).padStart(6, '0')}`,
        promisedAt: (k + i) % 3 === 0 ? new Date(start - 86_400_000) : null,
        confirmedVia: (k + i) % 3 === 0 ? 'SMS' : null,
        metadata: { displaySnapshot: { timezone: tz, currency: 'NOK', locale: 'nb-NO' } },
      };
      await db('bookings').insert(booking);
      const [item] = await db('booking_items')
        .insert({
          bookingId: booking.id,
          tenantId,
          serviceId: isColour ? colour.id : cut.id,
          resourceId: booking.resourceId,
          startTime: booking.startTime,
          endTime: booking.endTime,
          duration: 30,
          price: booking.totalAmount,
        })
        .returning('id');
      const segment = (kind: string, phaseIndex: number, from: number, to: number, resource: { type: string; id: string | null }) => ({
        tenantId,
        bookingId: booking.id,
        bookingItemId: item.id,
        resourceType: resource.type,
        resourceId: resource.id,
        kind,
        phaseIndex,
        startTime: new Date(start + from * minute),
        endTime: new Date(start + to * minute),
      });
      const person = { type: 'staff', id: booking.resourceId };
      const segments = isColour
        ? [
            segment('WORK', 0, 0, 10, person),
            segment('PROCESSING', 1, 10, 20, person),
            segment('WORK', 2, 20, 30, person),
            segment('PROCESSING', 1, 10, 20, { type: (i % 6) % 2 ? 'room' : 'equipment', id: rooms[i % BUSY_ROOMS] }),
          ]
        : [segment('WORK', 0, 0, 30, person)];
      await db('booking_segments').insert(segments);
      made += 1;
    }
  }
  return { tenantId, slug, owner: { email: ownerEmail, password: BUSY_PASSWORD }, staff, bookings: made };
}
