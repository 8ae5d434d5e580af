// npm run bench:growth:workflows - many open workflows (issue 54): OPEN booking workflows waiting on
// their reminders, and what a new booking costs beside them compared with an empty server, in one run
// per engine:
//
//   1. an empty server: BOOKINGS public bookings at RATE a second through the api; their latency
//      (p50, p95) and the CPU each process spent per booking until its confirmation was sent
//   2. OPEN bookings of 1,000 salons bulk-loaded, each one's real booking workflow started as the api
//      starts it (signal-with-start) and left waiting on its reminder timer, 1 to 5 weeks ahead; the
//      start rate printed as it goes
//   3. the same BOOKINGS again beside them: latency, CPU per process, and the ratio to (1)
//   4. the worker's memory (RSS, V8 heap) after the load and after (3), with the cache settings
//      that bound it (WORKER_MAX_CACHED_WORKFLOWS, the slots)
//   5. a salon's open bookings listed through the visibility query (TenantId, BookingStatus,
//      ExecutionStatus), 20 times: its latency and what it found
//
// Engines: dev (the official CLI's `temporal server start-dev` on its SQLite file, as npm start runs
// it) and production (go.temporal.io/server with persistence and visibility on Postgres, as the
// production topology runs it); the platform is dist/bin/api.js and dist/bin/worker.js, processes of
// their own, measured by /proc.
//
// Flags: --open N (100000), --engine dev|production|both (both), --bookings N (200), --rate N (10),
// --concurrency N (signal-with-starts in flight while loading, 32), --settle-minutes N (how long the
// worker may take to run the first tasks before phase 3, 60; the run says when it did not count).
// Environment: WORKER_MAX_CACHED_WORKFLOWS, WORKER_MAX_CONCURRENT_* are passed to the worker.
import os from 'node:os';
import type { Knex } from 'knex';
import { startGrowthStack, cpuBetween, loadavg, option, pct, processesQuiet, workerIdle, type Engine, type GrowthStack, type WorkerMemory } from './stack';
import { seedBookings, seedSalons, startBookingWorkflows } from './open-bookings';
import { completeSettings } from '../../domain/tenant/tenant-settings.rules';
import { addDays, localToUtc, utcToLocalDate } from '../../domain/time/salon-time.rules';

export interface WorkflowsOptions {
  open: number;
  engines: Engine[];
  bookings: number;
  rate: number;
  concurrency: number;
  /** how long the worker may take to run every first task before the bookings beside them */
  settleMinutes: number;
}

const TZ = 'Europe/Oslo';
const STAFF = 40;

interface ApiSalon {
  tenantId: string;
  slug: string;
  serviceId: string;
  staff: string[];
}

/** The salon the api books into: open every day 07-23, STAFF staff members, 30-minute visits. */
async function seedApiSalon(knex: Knex): Promise<ApiSalon> {
  const week = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, isOpen: true, slots: [{ startTime: '07:00', endTime: '23:00' }] }));
  const [tenant] = await knex('tenants')
    .insert({
      name: 'Bench Growth',
      slug: 'bench-growth',
      // a launched salon takes bookings (docs/rules/salon.md#launch)
      launchedAt: new Date(),
      industryType: 'beauty',
      settings: JSON.stringify(completeSettings('beauty', { businessHours: week, maxBookingDaysInAdvance: 90 })),
      branding: '{}',
    })
    .returning(['id', 'slug']);
  const [service] = await knex('services').insert({ tenantId: tenant.id, name: 'Klipp', duration: 30, price: 50000, currency: 'NOK' }).returning('id');
  const staff = (await knex('resources')
    .insert(Array.from({ length: STAFF }, (_, i) => ({ tenantId: tenant.id, name: `Staff ${i}`, sortOrder: i })))
    .returning('id')) as { id: string }[];
  await knex('resource_skills').insert(staff.map((r) => ({ tenantId: tenant.id, resourceId: r.id, serviceId: service.id })));
  await knex('resource_schedules').insert(
    staff.flatMap((r) =>
      [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ tenantId: tenant.id, resourceId: r.id, dayOfWeek, startTime: '07:00', endTime: '23:00' })),
    ),
  );
  return { tenantId: tenant.id, slug: tenant.slug, serviceId: service.id, staff: staff.map((r) => r.id) };
}

/** Distinct (staff, start) slots from the day after tomorrow on. */
function* slots(salon: ApiSalon): Generator<{ startTime: string; resourceId: string }> {
  const first = addDays(utcToLocalDate(new Date(), TZ), 2);
  for (let d = 0; ; d++) {
    const day = addDays(first, d);
    for (let minutes = 7 * 60; minutes < 23 * 60; minutes += 30) {
      const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
      const startTime = localToUtc(day, time, TZ).toISOString();
      for (const resourceId of salon.staff) yield { startTime, resourceId };
    }
  }
}

interface Phase {
  created: number;
  p50: number;
  p95: number;
  cpuMsPerBooking: Record<string, number>;
  cpuMsPerBookingTotal: number;
  confirmationsSent: number;
  loadavg: string;
}

let customerNo = 0;

/** `count` bookings at `rate` a second (open loop), then until their confirmations are sent (60 s at most). */
async function bookingPhase(
  stack: GrowthStack,
  salon: ApiSalon,
  free: Generator<{ startTime: string; resourceId: string }>,
  count: number,
  rate: number,
): Promise<Phase> {
  const cpu0 = stack.cpuMs();
  const t0 = performance.now();
  const results = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      await new Promise((r) => setTimeout(r, Math.max(0, (i * 1000) / rate - (performance.now() - t0))));
      const slot = free.next().value!;
      const n = customerNo++;
      const started = performance.now();
      const res = await fetch(`${stack.apiBase}/public/tenants/${salon.slug}/bookings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          startTime: slot.startTime,
          items: [{ serviceId: salon.serviceId, resourceId: slot.resourceId }],
          customer: { name: `Kunde ${n}`, phone: `+47 4${String(1000000 + n).padStart(7, '0')}`, email: `api${n}@bench.example` },
        }),
      });
      const body = (await res.json()) as { data?: { id: string } };
      return { ms: performance.now() - started, status: res.status, id: body.data?.id };
    }),
  );
  const ids = results.filter((r) => r.status === 201 && r.id).map((r) => r.id!);
  const sent = async () =>
    Number(
      (
        await stack
          .knex('booking_notifications')
          .whereIn('bookingId', ids)
          .whereIn('kind', ['RECEIVED', 'CONFIRMED'])
          .where({ channel: 'SMS' })
          .whereNotNull('sentAt')
          .count({ n: '*' })
      )[0].n,
    );
  let confirmationsSent = await sent();
  for (const until = Date.now() + 60_000; confirmationsSent < ids.length && Date.now() < until; confirmationsSent = await sent())
    await new Promise((r) => setTimeout(r, 250));
  const spent = cpuBetween(cpu0, stack.cpuMs());
  const per = Object.fromEntries(Object.entries(spent).map(([k, v]) => [k, +(v / Math.max(1, count)).toFixed(2)]));
  const failures = results.filter((r) => r.status !== 201);
  if (failures.length) console.log(`  ${failures.length} bookings failed, e.g. HTTP ${failures[0].status}`);
  return {
    created: ids.length,
    p50: pct(
      results.map((r) => r.ms),
      50,
    ),
    p95: pct(
      results.map((r) => r.ms),
      95,
    ),
    cpuMsPerBooking: per,
    cpuMsPerBookingTotal: Object.values(per).reduce((a, b) => a + b, 0),
    confirmationsSent,
    loadavg: loadavg(),
  };
}

async function visibility(stack: GrowthStack, tenantId: string): Promise<{ found: number; p50: number; p95: number }> {
  const query = `TenantId = '${tenantId}' AND BookingStatus IN ('PENDING', 'CONFIRMED') AND ExecutionStatus = 'Running'`;
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    found = 0;
    for await (const _ of stack.client.workflow.list({ query })) found += 1;
    times.push(performance.now() - t0);
  }
  return { found, p50: pct(times, 50), p95: pct(times, 95) };
}

const mem = (m: WorkerMemory | undefined) =>
  m ? `RSS ${m.rssMiB.toFixed(0)} MiB, heap ${m.heapUsedMiB.toFixed(0)}/${m.heapTotalMiB.toFixed(0)} MiB, external ${m.externalMiB.toFixed(0)} MiB` : 'n/a';
const phaseLine = (p: Phase) =>
  `created ${p.created}, p50 ${p.p50.toFixed(1)} ms, p95 ${p.p95.toFixed(1)} ms, confirmations sent ${p.confirmationsSent}; CPU ms per booking: ${Object.entries(
    p.cpuMsPerBooking,
  )
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}, total ${p.cpuMsPerBookingTotal.toFixed(1)}   [load ${p.loadavg}]`;

async function runEngine(engine: Engine, options: WorkflowsOptions): Promise<Record<string, unknown>> {
  const stack = await startGrowthStack({ engine, api: true, name: `workflows-${engine}` });
  try {
    const settings = {
      WORKER_MAX_CACHED_WORKFLOWS: process.env.WORKER_MAX_CACHED_WORKFLOWS ?? '1000 (default)',
      WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: process.env.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS ?? '20 (default)',
      WORKER_MAX_CONCURRENT_ACTIVITIES: process.env.WORKER_MAX_CONCURRENT_ACTIVITIES ?? '20 (default)',
    };
    console.log(
      `\n[${engine}] the worker's settings: ${Object.entries(settings)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`,
    );
    const salon = await seedApiSalon(stack.knex);
    const free = slots(salon);
    await bookingPhase(stack, salon, free, 100, 20); // warm-up: connections, JIT
    const memoryEmpty = stack.workerMemory();
    const empty = await bookingPhase(stack, salon, free, options.bookings, options.rate);
    console.log(`[${engine}] empty server: ${phaseLine(empty)}`);
    console.log(`[${engine}] worker memory on the empty server: ${mem(memoryEmpty)}`);

    const t0 = Date.now();
    const salons = await seedSalons(stack.knex, { salons: 1000, staff: 10, reminderHoursBefore: 24, tag: 'open' });
    const dayMs = 86_400_000;
    const firstStart = Date.now() + 7 * dayMs;
    // booking k: 1 to 5 weeks ahead; one staff member's bookings an hour apart
    const bookings = await seedBookings(
      stack.knex,
      salons,
      options.open,
      (k) => new Date(firstStart + Math.floor(k / salons.length / 10) * 3_600_000 + (k % 28) * dayMs),
    );
    console.log(`[${engine}] seeded ${options.open} bookings of 1000 salons in ${((Date.now() - t0) / 1000).toFixed(0)} s   [load ${loadavg()}]`);
    const cpuLoad0 = stack.cpuMs();
    const started = await startBookingWorkflows(stack.client, 'salon', bookings, {
      concurrency: options.concurrency,
      onProgress: (done, ms) =>
        console.log(`[${engine}]   ${done} started, ${((1000 * done) / ms).toFixed(0)}/s, worker ${mem(stack.workerMemory())}   [load ${loadavg()}]`),
    });
    const settleLimitMs = options.settleMinutes * 60_000;
    const settleMs = await workerIdle(stack, settleLimitMs, (ms, pct) =>
      console.log(`[${engine}]   settling: ${(ms / 60_000).toFixed(0)} min, worker ${pct.toFixed(0)} % of a core   [load ${loadavg()}]`),
    );
    if (settleMs >= settleLimitMs)
      console.log(
        `[${engine}] THE "BESIDE" FIGURES DO NOT COUNT: the worker was still busy ${options.settleMinutes} min after the last start (the bookings run beside the backlog of first tasks); raise --settle-minutes`,
      );
    const loadCpu = cpuBetween(cpuLoad0, stack.cpuMs());
    // the server and Postgres too: in a production-engine run the bookings beside 100,000 met both still busy (load 3.8 against 1.5)
    const quietMs = await processesQuiet(stack, { temporal: 100, postgres: 100 }, Math.max(60_000, settleLimitMs - settleMs));
    console.log(
      `[${engine}] the Temporal server and Postgres were under 10 % of a core each ${(quietMs / 1000).toFixed(0)} s after the worker   [load ${loadavg()}]`,
    );
    console.log(
      `[${engine}] started ${options.open} workflows in ${(started.ms / 1000).toFixed(0)} s (${started.perSecond.toFixed(0)}/s); the worker was idle ${(settleMs / 1000).toFixed(0)} s after; CPU ms per started workflow: ${Object.entries(
        loadCpu,
      )
        .map(([k, v]) => `${k} ${(v / options.open).toFixed(2)}`)
        .join(', ')}`,
    );
    const memoryLoaded = stack.workerMemory();
    console.log(`[${engine}] worker memory with ${options.open} open workflows: ${mem(memoryLoaded)}`);
    const loaded = await bookingPhase(stack, salon, free, options.bookings, options.rate);
    const memoryAfter = stack.workerMemory();
    console.log(`[${engine}] beside ${options.open} open workflows: ${phaseLine(loaded)}`);
    const ratio = { p50: loaded.p50 / empty.p50, p95: loaded.p95 / empty.p95, cpu: loaded.cpuMsPerBookingTotal / empty.cpuMsPerBookingTotal };
    console.log(
      `[${engine}] ratio to the empty server: p50 ${ratio.p50.toFixed(2)}x, p95 ${ratio.p95.toFixed(2)}x, CPU ${ratio.cpu.toFixed(2)}x; target 1.5x: ${ratio.p95 <= 1.5 && ratio.cpu <= 1.5 ? 'OK' : 'MISSED'}`,
    );
    console.log(`[${engine}] worker memory after: ${mem(memoryAfter)}`);
    const bulkSalon = await visibility(stack, salons[0].tenantId);
    const apiSalon = await visibility(stack, salon.tenantId);
    console.log(
      `[${engine}] a salon's open bookings through the visibility query (TenantId, BookingStatus, ExecutionStatus), x20: a loaded salon found ${bulkSalon.found} (of ${Math.ceil(options.open / 1000)}), p50 ${bulkSalon.p50.toFixed(1)} ms, p95 ${bulkSalon.p95.toFixed(1)} ms; the api's salon found ${apiSalon.found}, p50 ${apiSalon.p50.toFixed(1)} ms, p95 ${apiSalon.p95.toFixed(1)} ms`,
    );
    return {
      engine,
      open: options.open,
      settings,
      empty,
      loaded,
      ratio,
      start: started,
      settleMs,
      quietMs,
      memoryEmpty,
      memoryLoaded,
      memoryAfter,
      bulkSalon,
      apiSalon,
    };
  } finally {
    await stack.stop();
  }
}

export async function run(options: WorkflowsOptions): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  console.log(
    `bench:growth:workflows: ${options.open} open booking workflows, ${options.bookings} bookings at ${options.rate}/s; machine ${os.cpus().length} cores, load ${loadavg()}`,
  );
  for (const engine of options.engines) out.push(await runEngine(engine, options));
  console.log(JSON.stringify(out));
  return out;
}

/** The part's options from the command line (its own, and bench:growth's --part workflows). */
export function workflowsOptions(args: string[]): WorkflowsOptions {
  const engine = option(args, '--engine') ?? 'both';
  return {
    open: Number(option(args, '--open') ?? 100_000),
    engines: engine === 'both' ? ['dev', 'production'] : [engine === 'production' ? 'production' : 'dev'],
    bookings: Number(option(args, '--workflow-bookings') ?? option(args, '--bookings') ?? 200),
    rate: Number(option(args, '--rate') ?? 10),
    concurrency: Number(option(args, '--concurrency') ?? 32),
    settleMinutes: Number(option(args, '--settle-minutes') ?? 60),
  };
}

if (require.main === module) {
  // a stopped bench still stops what it started (bench/growth/stack.ts kills its processes on exit)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  run(workflowsOptions(process.argv.slice(2))).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
