// npm run bench:availability - the scheduling engine (docs/rules/availability.md#the-parts-of-a-visit)
// for a salon of 10 staff, 6 rooms and pieces of equipment and 30 services with phases, processing
// time, buffers and room or equipment needs, with 200 bookings over the month, made through the
// booking service (so every part is placed and held as a real booking's). On the embedded stack
// (embedded Postgres, migrations; the workflow signaller is in memory). Prints p50/p95 of:
//   (a) one day over HTTP: GET /public/tenants/:slug/availability, each of the 30 services in turn    target p95 < 20 ms
//   (b) one day, the domain call the route makes (availabilityForDate: the load and the engine)
//   (c) a month of days: availabilityForDates over 30 days, one load                                    target p95 < 300 ms
//   (d) the engine alone for the month (the loaded data, 30 x computeAvailability)
//   (e) the first day with a start: next-available-date over 90 days when only the 90th has one
// Each line also prints the api thread's CPU per call (from /proc: what a call costs whatever else
// runs on the machine), beside the wall-clock p50/p95 (which a shared, busy machine stretches).
// BENCH_DAY_REQUESTS sets the number of (a)'s requests (default 300; more to profile it).
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { FETCH_CLIENT, requestClient } from './support/request-client';
import { mainThreadCpuMs } from './support/proc-cpu';
import { createApp } from '../api/app';
import { startBenchPlatform } from './support/bench-platform';
import { RecordingSignaller } from '../test/support/recording-signaller';
import { bookingHooks } from '../composition/domain-hooks';
import { completeSettings } from '../domain/tenant/tenant-settings.rules';
import { tenantById, type TenantContext } from '../domain/tenant/tenant-context';
import { addDays, utcToLocalDate } from '../domain/time/salon-time.rules';
import { availabilityForDate, availabilityForDates, nextAvailableDate, slotsForDate } from '../domain/availability/availability.service';
import { loadAvailabilityData } from '../domain/availability/availability.repository';
import { computeAvailability, placeUnassignedItems } from '../domain/availability';
import { findServicesByIds } from '../domain/catalogue/catalogue.repository';
import { shapeOfService } from '../domain/catalogue/service-shape.rules';
import { createStaffBooking } from '../domain/booking/booking-create.service';
import type { BookingDeps } from '../domain/booking/booking.types';
import type { DbPool } from '../db/db-handle';

const TZ = 'Europe/Oslo';
const STAFF = 10;
const ROOMS = 3;
const EQUIPMENT = 3;
const SERVICES = 30;
const BOOKINGS = 200;
const MONTH = 30;
const OPEN = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, isOpen: dayOfWeek !== 0, slots: [{ startTime: '09:00', endTime: '18:00' }] }));

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const ms = (v: number) => `${v.toFixed(1)} ms`;
const stats = (times: number[], cpuMs?: number) => ({
  n: times.length,
  p50: ms(pct(times, 50)),
  p95: ms(pct(times, 95)),
  ...(cpuMs === undefined ? {} : { cpuPerCall: ms(cpuMs / times.length) }),
});
/** The api thread's CPU milliseconds spent while `fn` ran. */
async function cpuOf<T>(fn: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const before = mainThreadCpuMs(process.pid);
  const result = await fn();
  return { result, cpuMs: mainThreadCpuMs(process.pid) - before };
}

/** A deterministic stream of numbers in [0, 1), so every run builds the same salon. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** The 30 services: a third one work phase, a third with processing, a third with processing and a room or equipment; buffers on half. */
function serviceRows(tenantId: string) {
  return Array.from({ length: SERVICES }, (_, i) => {
    const kind = i % 3;
    const phases =
      kind === 0
        ? [{ kind: 'WORK', minutes: 30 + (i % 4) * 15 }]
        : [
            { kind: 'WORK', minutes: 20 + (i % 3) * 10 },
            { kind: 'PROCESSING', minutes: 25 + (i % 4) * 5 },
            { kind: 'WORK', minutes: 15 + (i % 2) * 10 },
          ];
    const requirements = kind === 2 ? [i % 2 ? { resourceType: 'equipment', phases: [1] } : { resourceType: 'room', phases: null }] : [];
    return {
      tenantId,
      name: `Service ${String(i).padStart(2, '0')}`,
      duration: phases.reduce((sum, p) => sum + p.minutes, 0),
      phases: phases.length === 1 ? null : JSON.stringify(phases),
      bufferBeforeMinutes: i % 2 ? 5 : 0,
      bufferAfterMinutes: i % 2 ? 10 : 0,
      resourceRequirements: JSON.stringify(requirements),
      price: 50000,
      currency: 'NOK',
      sortOrder: i,
    };
  });
}

async function buildSalon(knex: DbPool) {
  const slug = `bench-avail-${Date.now().toString(36)}`;
  const [tenant] = await knex('tenants')
    .insert({
      name: 'Bench availability',
      slug,
      // a launched salon takes bookings (docs/rules/salon.md#launch)
      launchedAt: new Date(),
      industryType: 'beauty',
      settings: JSON.stringify(completeSettings('beauty', { businessHours: OPEN, maxBookingDaysInAdvance: 120 })),
      branding: '{}',
    })
    .returning(['id', 'slug']);
  const services: { id: string; resourceRequirements: { resourceType: string }[] }[] = await knex('services')
    .insert(serviceRows(tenant.id))
    .returning(['id', 'resourceRequirements']);
  const staff: string[] = [];
  for (let i = 0; i < STAFF; i++) {
    const [r] = await knex('resources')
      .insert({ tenantId: tenant.id, name: `Staff ${String(i).padStart(2, '0')}`, sortOrder: i })
      .returning('id');
    staff.push(r.id);
  }
  // each staff member does two services of three; everyone works 09:00-17:00 (some from 10:00) six days a week
  await knex('resource_skills').insert(
    staff.flatMap((resourceId, i) => services.filter((_, j) => (i + j) % 3 !== 0).map((s) => ({ tenantId: tenant.id, resourceId, serviceId: s.id }))),
  );
  await knex('resource_schedules').insert(
    staff.flatMap((resourceId, i) =>
      [1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ tenantId: tenant.id, resourceId, dayOfWeek, startTime: i % 4 ? '09:00' : '10:00', endTime: '17:00' })),
    ),
  );
  const rooms: string[] = [];
  for (let i = 0; i < ROOMS + EQUIPMENT; i++) {
    const type = i < ROOMS ? 'room' : 'equipment';
    const [r] = await knex('resources')
      .insert({ tenantId: tenant.id, type, name: `${type} ${i}`, isBookableOnline: false, sortOrder: 100 + i })
      .returning('id');
    rooms.push(r.id);
    const suitable = services.filter((s) => s.resourceRequirements.some((q) => q.resourceType === type));
    await knex('resource_skills').insert(suitable.map((s) => ({ tenantId: tenant.id, resourceId: r.id, serviceId: s.id })));
  }
  return { tenantId: tenant.id as string, slug: tenant.slug as string, serviceIds: services.map((s) => s.id), staff, rooms };
}

/** 200 bookings over the month, each at a free start the engine offers, made by the booking service. */
async function book(knex: DbPool, tenant: TenantContext, salon: Awaited<ReturnType<typeof buildSalon>>, first: string): Promise<number> {
  const deps: BookingDeps = { knex, signaller: new RecordingSignaller(), manageLinkKey: { key: 'bench' }, bookingHooks };
  const actor = { userId: null, role: 'OWNER' as const, resourceId: null };
  const rnd = random(35);
  let made = 0;
  for (let attempt = 0; made < BOOKINGS && attempt < BOOKINGS * 4; attempt++) {
    const date = addDays(first, Math.floor(rnd() * MONTH));
    const serviceId = salon.serviceIds[Math.floor(rnd() * SERVICES)];
    const slots = await slotsForDate(knex, tenant, { date, items: [{ serviceId }], onlineOnly: false, now: new Date() }).catch(() => []);
    if (!slots.length) continue;
    const slot = slots[Math.floor(rnd() * slots.length)];
    await createStaffBooking(deps, tenant, actor, {
      startTime: slot.start.toISOString(),
      items: [{ serviceId, resourceId: slot.items[0].resourceId }],
      customer: { name: `Kunde ${made}`, phone: `+47 9${String(1000000 + made).padStart(7, '0')}` },
    });
    made++;
  }
  return made;
}

async function main(): Promise<void> {
  const { platform, stop } = await startBenchPlatform('availability', { RATE_LIMIT_GLOBAL: '1000000' });
  const knex = platform.knex;
  const app = createApp(platform.deps, { validateResponses: false });
  const server = app.listen(0);
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  try {
    const salon = await buildSalon(knex);
    const tenant = await tenantById(knex, salon.tenantId);
    const first = addDays(utcToLocalDate(new Date(), TZ), 1);
    const t0 = performance.now();
    const made = await book(knex, tenant, salon, first);
    const segments = Number((await knex('booking_segments').where({ tenantId: salon.tenantId }).count({ n: '*' }))[0].n);
    console.log(
      `machine: ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (other processes share them)`,
    );
    console.log(
      `salon: ${STAFF} staff, ${ROOMS} rooms + ${EQUIPMENT} pieces of equipment, ${SERVICES} services (20 with processing, 10 needing a room or equipment, 15 with buffers)`,
    );
    console.log(`bookings: ${made} over ${MONTH} days from ${first} (${segments} segments), made in ${(performance.now() - t0).toFixed(0)} ms`);
    // the busiest day of the month
    const busiest = (await knex('bookings').where({ tenantId: salon.tenantId }).select('startTime')).map((b: { startTime: Date }) =>
      utcToLocalDate(b.startTime, TZ),
    );
    const counts = new Map<string, number>();
    for (const d of busiest) counts.set(d, (counts.get(d) ?? 0) + 1);
    const day = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    const now = new Date();
    const items = (i: number) => [{ serviceId: salon.serviceIds[i % SERVICES] }];

    // (a) one day over HTTP (the client in a worker thread of its own, one request at a time)
    const client = new Worker(FETCH_CLIENT, { eval: true });
    const batch = requestClient<{ url: string }, { ms: number; status: number; body: { data: { slots: unknown[] } } }, { sequential: boolean }>(client);
    const url = (i: number) => ({ url: `${base}/public/tenants/${salon.slug}/availability?serviceId=${salon.serviceIds[i % SERVICES]}&date=${day}` });
    await batch(
      Array.from({ length: 300 }, (_, i) => url(i)),
      { sequential: true },
    ); // warm-up: the JIT, the named statements
    const requests = Number(process.env.BENCH_DAY_REQUESTS ?? 300);
    const { result: answers, cpuMs: httpCpu } = await cpuOf(() =>
      batch(
        Array.from({ length: requests }, (_, i) => url(i)),
        { sequential: true },
      ),
    );
    await client.terminate();
    const bad = answers.find((r) => r.status !== 200);
    if (bad) throw new Error(`availability ${bad.status} ${JSON.stringify(bad.body)}`);
    const http = answers.map((r) => r.ms);
    const slotCount = answers.reduce((sum, r) => sum + r.body.data.slots.length, 0);
    console.log(`(a) one day (${day}, ${counts.get(day)} bookings) over HTTP, 30 services in turn:`, {
      ...stats(http, httpCpu),
      slotsPerAnswer: Math.round(slotCount / requests),
      targetP95: '< 20 ms',
    });

    // (b) the same, the domain call
    const domain: number[] = [];
    const { cpuMs: domainCpu } = await cpuOf(async () => {
      for (let i = 0; i < 300; i++) {
        const s = performance.now();
        await availabilityForDate(knex, tenant, { date: day, items: items(i), onlineOnly: true, now });
        domain.push(performance.now() - s);
      }
    });
    console.log('(b) one day, availabilityForDate (load + engine):', stats(domain, domainCpu));

    // (c) a month of days, one load
    const month: number[] = [];
    let monthSlots = 0;
    const { cpuMs: monthCpu } = await cpuOf(async () => {
      for (let i = 0; i < 60; i++) {
        const s = performance.now();
        const days = await availabilityForDates(knex, tenant, { fromDate: first, toDate: addDays(first, MONTH - 1), items: items(i), onlineOnly: true, now });
        month.push(performance.now() - s);
        monthSlots += days.reduce((sum, d) => sum + d.slots.length, 0);
      }
    });
    console.log(`(c) a month of days (${MONTH}), availabilityForDates, 30 services in turn:`, {
      ...stats(month, monthCpu),
      slotsPerMonth: Math.round(monthSlots / 60),
      targetP95: '< 300 ms',
    });

    // (d) the engine alone, on the loaded month
    const engine: number[] = [];
    const loads = await Promise.all(
      [0, 1, 2].map(async (k) => {
        const serviceIds = [salon.serviceIds[k]];
        const data = await loadAvailabilityData(knex, {
          tenantId: salon.tenantId,
          timezone: TZ,
          serviceIds,
          fromDate: first,
          toDate: addDays(first, MONTH - 1),
          busyTimeOnly: true,
        });
        const [svc] = await findServicesByIds(knex, salon.tenantId, serviceIds);
        return { data, svc };
      }),
    );
    const engineCpuBefore = mainThreadCpuMs(process.pid);
    for (let i = 0; i < 60; i++) {
      const { data, svc } = loads[i % 3];
      const resources = placeUnassignedItems(data.resources, data.unassigned, TZ, OPEN).resources;
      const s = performance.now();
      for (let d = 0; d < MONTH; d++) {
        computeAvailability({
          timezone: TZ,
          now,
          date: addDays(first, d),
          businessHours: OPEN,
          maxBookingDaysInAdvance: null,
          items: [{ serviceId: svc.id, durationMinutes: svc.duration, shape: shapeOfService(svc) }],
          resources,
          onlineOnly: true,
        });
      }
      engine.push(performance.now() - s);
    }
    console.log(
      '(d) the engine alone for the month (one work phase / processing / processing and a room):',
      stats(engine, mainThreadCpuMs(process.pid) - engineCpuBefore),
    );

    // (e) next-available-date scanning 90 days: the salon's staff away for 89
    await knex('time_offs').insert(
      salon.staff.map((resourceId) => ({
        tenantId: salon.tenantId,
        resourceId,
        type: 'vacation',
        startDate: utcToLocalDate(new Date(), TZ),
        endDate: addDays(first, 88),
        isApproved: true,
      })),
    );
    const scan: number[] = [];
    let found: string | null = null;
    const { cpuMs: scanCpu } = await cpuOf(async () => {
      for (let i = 0; i < 30; i++) {
        const s = performance.now();
        found = (await nextAvailableDate(knex, tenant, { items: items(i), fromDate: utcToLocalDate(new Date(), TZ), maxDaysAhead: 90, onlineOnly: true, now }))
          .date;
        scan.push(performance.now() - s);
      }
    });
    console.log('(e) next available date, 90 days scanned:', { ...stats(scan, scanCpu), found });
    console.log(
      `load average after: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    server.close();
    await stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
