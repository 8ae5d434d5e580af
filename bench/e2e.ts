// npm run bench:e2e - what a client of the platform gets, end to end, from ONE run:
//   the floor (100 concurrent requests to an unknown route) and the api's CPU per such request,
//   100 concurrent public bookings for distinct slots and 100 for one slot,
//   sustained public bookings (25/s for 60 s) with availability reads in between, and the delay from
//   each booking to its confirmation being sent (booking_notifications.sent_at),
//   the plumbing floor (bench/floor/): the same libraries with nothing of the platform, at the same rate:
//   one row in one transaction and a signal-with-start of a workflow of as many local activities as a
//   booking's, doing nothing; then bookings alone at that rate; the CPU per process of each and their ratio,
//   the CPU each process spent per booking, and Postgres's split by client (whose statements: the api's,
//   the worker's, the Temporal server's persistence),
//   and the machine (cores, load, steal) the figures were taken on.
//
// Topologies (the platform runs as separate processes, measured from outside like a client):
//   (default)               `npm start` (node dist/bin/dev.js) against an embedded Postgres the bench starts
//                           (Temporal: the official CLI's `temporal server start-dev` npm start runs)
//   --topology production   dist/bin/migrate.js, two dist/bin/api.js, one dist/bin/worker.js (at the
//                           lowest CPU weight, as docker-compose.yml's cpu_shares gives it), the
//                           production Temporal server (go.temporal.io/server, built by npm run
//                           temporal:build-server) with its persistence and visibility on the same
//                           Postgres, s3rver
// The same figures are printed for each.
// Options: --quick (a shorter sustained phase, for iterating), --seconds N, --rate N (bookings/s),
// --floor-rounds N (rounds of 100 in the floor, 20), --warm-bookings N (bookings and availability reads
// that warm the api before the phases, 400), --only floor (for profiling the floor alone),
// --only burst (the warm-up, the floor and the burst of distinct slots: for profiling the burst),
// --statements (Postgres counts the statements clients send, with pg_stat_statements: the sustained phase's
// statements per booking, and the most frequent ones, are printed), --no-plumbing (no plumbing floor), --pair-seconds N (the bookings alone compared with it, 20),
// --keep (the run's data folder and its Postgres
// data are kept, to query what the run wrote afterwards), --threads (the sustained phase's CPU
// of each process by thread name, from /proc: a worker's main thread, its workflow thread, the SDK
// core's threads, the garbage collector's).
// API_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") is passed to the api process(es) (for
// npm start: to dist/bin/dev.js); WORKER_NODE_ARGS likewise to the production topology's worker.
// Before the sustained phase the bench waits (up to 60 s) until the confirmations of the bookings made
// so far are sent, so that phase starts from a worker with no backlog and measures 25/s, not the burst.
// The clients run in a worker thread of this process.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { freePort, startEmbeddedPostgres } from '../devstack/postgres';
import { startEmbeddedS3 } from '../devstack/s3-for-dev';
import { completeSettings } from '../domain/tenant/tenant-settings.rules';
import { addDays, localToUtc, utcToLocalDate } from '../domain/time/salon-time.rules';
import { requestClient } from './support/request-client';
import { ensureOfficialTemporal } from '../devstack/official-temporal/install';
import { TEMPORAL_PINS } from '../devstack/official-temporal/paths';
import { ensureGoServer, startGoServer } from '../devstack/official-temporal/go-server';
import { mainThreadCpuMs, processCpuMs } from './support/proc-cpu';
import { postgresBackends, postgresCpuByClient } from './support/postgres-clients';
import { cpuOf, floorDelays, startFloor } from './floor/floor-phase';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const TOPOLOGY = option('--topology') === 'production' ? 'production' : 'npm-start';
const QUICK = args.includes('--quick');
const KEEP = args.includes('--keep');
const SECONDS = Number(option('--seconds') ?? (QUICK ? 15 : 60));
const RATE = Number(option('--rate') ?? 25);
const FLOOR_ROUNDS = Number(option('--floor-rounds') ?? 20);
const WARM_BOOKINGS = Number(option('--warm-bookings') ?? 400);
const FLOOR_ONLY = option('--only') === 'floor';
const BURST_ONLY = option('--only') === 'burst';
const STATEMENTS = args.includes('--statements');
const THREADS = args.includes('--threads');
/** --no-plumbing: leave out the plumbing floor and the bookings it is compared with (issue 54) */
const PLUMBING = !args.includes('--no-plumbing');
/** --pair-seconds N: the bookings alone at RATE, compared with the plumbing floor (20) */
const PAIR_SECONDS = Number(option('--pair-seconds') ?? (QUICK ? 10 : 20));
/** --dist DIR: the build to run (e.g. another worktree's dist/, for a before/after pair on one machine state) */
const DIST = path.resolve(option('--dist') ?? path.resolve(__dirname, '../dist'));
const TZ = 'Europe/Oslo';
const STAFF = 40;
const DURATION_MIN = 30;
const OPEN = { from: 7, to: 23 };

// ---------------------------------------------------------------- figures
function pct(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : 'n/a');
const verdict = (ok: boolean) => (ok ? 'OK' : 'MISSED');

interface CpuTimes {
  idle: number;
  steal: number;
  total: number;
}
function machineTimes(): CpuTimes {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal guest guest_nice (guest is inside user)
  const total = line.slice(0, 8).reduce((a, b) => a + b, 0);
  return { idle: line[3] + line[4], steal: line[7] ?? 0, total };
}
/** CPU milliseconds each thread name of a process (its threads summed by name) has used so far. */
function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      out.set(name, (out.get(name) ?? 0) + processCpuMs(Number(tid), `/proc/${pid}/task/${tid}/stat`));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}
/**
 * CPU milliseconds of the bench's Postgres: its postmaster and every process it forked (backends,
 * writers). Only those: on a shared machine other Postgres servers run beside it.
 */
let postmasterPid = 0;
function postgresCpuMs(): Map<number, number> {
  return new Map([...postgresBackends(postmasterPid)].map(([pid, backend]) => [pid, backend.cpuMs]));
}
const cpuSince = (before: Map<number, number>, after: Map<number, number>) =>
  [...after.entries()].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// ---------------------------------------------------------------- clients (a worker thread)
const CLIENT = `
const { parentPort } = require('node:worker_threads');
async function one(r) {
  const t0 = performance.now();
  try {
    const res = await fetch(r.url, r.init);
    const text = await res.text();
    let body; try { body = JSON.parse(text); } catch { body = text.slice(0, 200); }
    return { tag: r.tag, ms: performance.now() - t0, status: res.status, body: r.keepBody || res.status >= 400 ? body : undefined, id: body && body.data && body.data.id };
  } catch (err) {
    return { tag: r.tag, ms: performance.now() - t0, status: 0, body: String(err) };
  }
}
parentPort.on('message', async ({ id, requests, schedule }) => {
  let results;
  if (schedule) {
    // open loop: each request leaves at its own offset, whatever the answers to earlier ones
    const t0 = performance.now();
    results = await Promise.all(requests.map((r) => new Promise((resolve) => setTimeout(() => one(r).then(resolve), Math.max(0, r.at - (performance.now() - t0))))));
  } else {
    results = await Promise.all(requests.map(one));
  }
  parentPort.postMessage({ id, results });
});`;

interface Req {
  url: string;
  init?: { method: string; headers: Record<string, string>; body: string };
  tag?: string;
  at?: number;
  keepBody?: boolean;
}
interface Res {
  tag?: string;
  ms: number;
  status: number;
  body?: unknown;
  id?: string;
}

let client: Worker;
let batch: (requests: Req[], options: { schedule: boolean }) => Promise<Res[]>;
const send = (requests: Req[], schedule = false): Promise<Res[]> => batch(requests, { schedule });
const get = (url: string, tag?: string): Req => ({ url, tag });
const post = (url: string, body: unknown, tag?: string): Req => ({
  url,
  tag,
  init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
});

// ---------------------------------------------------------------- processes
interface Proc {
  name: string;
  child: ChildProcess;
  tail: string;
  exited: Promise<number | null>;
}
function start(name: string, file: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = [], argv: string[] = []): Proc {
  return startExecutable(name, process.execPath, env, [...nodeArgs, path.resolve(DIST, file), ...argv]);
}
function startExecutable(name: string, file: string, env: NodeJS.ProcessEnv, argv: string[]): Proc {
  const child = spawn(file, argv, { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc: Proc = { name, child, tail: '', exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  const keep = (d: Buffer) => (proc.tail = (proc.tail + d.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return proc;
}
async function stop(proc: Proc, signal: NodeJS.Signals): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill(signal);
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 20_000);
  await proc.exited;
  clearTimeout(timer);
}
async function waitFor(url: string, proc: Proc, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited ${proc.child.exitCode}: ${proc.tail}`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${proc.name} did not answer ${url}: ${proc.tail}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface Stack {
  bases: string[];
  apiPids: number[];
  /** every process of the platform, for the CPU split */
  procs: Proc[];
  temporalAddress: string;
  stop(): Promise<void>;
}

const SECRETS = {
  JWT_SECRET: 'bench-e2e-jwt-secret-0123456789abcdef0123',
  ADMIN_EMAIL: 'admin@bench.test',
  ADMIN_PASSWORD: 'bench-admin-password',
  CREDENTIAL_KEYS: `1:${Buffer.alloc(32, 9).toString('base64')}`,
  IMAGE_PROXY_SECRET: 'bench-image-proxy-secret-0123456789',
  PASSWORD_HASH_ROUNDS: '10',
};
// every request still passes every limiter; the budgets are only big enough for one client address
const BUDGETS = { RATE_LIMIT_GLOBAL: '10000000', RATE_LIMIT_BOOKING_CREATE: '10000000' };
/**
 * The worker's and the pools' settings (WORKER_*, DB_POOL_MAX) are passed on to the platform's processes, for trying
 * them; and TEMPORAL_CLI_PATH, for a --dist build outside this checkout (it finds no CLI of its own).
 */
const TUNING = Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(WORKER_|DB_POOL_MAX$|TEMPORAL_CLI_PATH$)/.test(k)));

async function startNpmStart(databaseUrl: string, dataDir: string): Promise<Stack> {
  const port = await freePort();
  const temporalPort = await freePort();
  const dev = start(
    'npm start',
    'bin/dev.js',
    {
      ...SECRETS,
      ...BUDGETS,
      ...TUNING,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: '0',
      OIDC_DEV_PORT: String(await freePort()),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    },
    (process.env.API_NODE_ARGS ?? '').split(' ').filter(Boolean),
  );
  const base = `http://127.0.0.1:${port}/api`;
  // npm start migrates, starts its Temporal and seeds before it answers: minutes on a saturated machine
  await waitFor(`${base}/health`, dev, 600_000);
  // the processes npm start forked (the Temporal dev server and the worker), for the CPU split
  const children = fs
    .readFileSync(`/proc/${dev.child.pid}/task/${dev.child.pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    .map((pid): Proc => {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      const name = /worker\.js/.test(cmd) ? 'worker' : /temporal/.test(cmd) ? 'temporal' : path.basename(cmd.split(' ')[1] ?? cmd);
      return { name, child: { pid } as ChildProcess, tail: '', exited: Promise.resolve(null) };
    });
  return {
    bases: [base],
    apiPids: [dev.child.pid!],
    procs: [dev, ...children],
    temporalAddress: `127.0.0.1:${temporalPort}`,
    stop: () => stop(dev, 'SIGINT'),
  };
}

async function startProduction(databaseUrl: string, dataDir: string): Promise<Stack> {
  const s3 = await startEmbeddedS3({ dataDir, bucket: 'salon-bench' });
  const temporalPort = await freePort();
  // the production engine, its persistence and visibility in two more databases of the same Postgres
  const server = await startGoServer({ port: temporalPort, postgresUrl: databaseUrl, databasePrefix: 'temporal' });
  const temporal: Proc = {
    name: 'temporal',
    child: server.child,
    tail: '',
    exited: new Promise((resolve) => server.child.once('exit', (code) => resolve(code))),
  };
  Object.defineProperty(temporal, 'tail', { get: () => server.output().slice(-4000) });
  const env: NodeJS.ProcessEnv = {
    ...SECRETS,
    ...BUDGETS,
    ...TUNING,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
    DATA_DIR: dataDir,
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: 'salon-bench',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  };
  const migrate = start('migrate', 'bin/migrate.js', env);
  if ((await migrate.exited) !== 0) throw new Error(`migrate failed: ${migrate.tail}`);
  const ports = [await freePort(), await freePort()];
  const apiArgs = (process.env.API_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const apis = ports.map((port, i) => start(`api ${i + 1}`, 'bin/api.js', { ...env, PORT: String(port) }, apiArgs));
  const workerHealth = await freePort();
  const worker = start(
    'worker',
    'bin/worker.js',
    { ...env, WORKER_HEALTH_PORT: String(workerHealth) },
    (process.env.WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean),
  );
  // docker-compose.yml gives the worker the lowest CPU weight (cpu_shares 16 of the api's 1024); niceness 19 is that weight here
  os.setPriority(worker.child.pid!, 19);
  const bases = ports.map((p) => `http://127.0.0.1:${p}/api`);
  for (const [i, base] of bases.entries()) await waitFor(`${base}/health`, apis[i]);
  await waitFor(`http://127.0.0.1:${workerHealth}/`, worker);
  return {
    bases,
    apiPids: apis.map((a) => a.child.pid!),
    procs: [...apis, worker, temporal],
    temporalAddress: `127.0.0.1:${temporalPort}`,
    async stop() {
      await Promise.all([...apis, worker].map((p) => stop(p, 'SIGTERM')));
      await stop(temporal, 'SIGTERM');
      await s3.stop();
    },
  };
}

// ---------------------------------------------------------------- the salon
interface Salon {
  tenantId: string;
  slug: string;
  serviceId: string;
  staff: string[];
}
async function seedSalon(db: Knex): Promise<Salon> {
  const week = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({
    dayOfWeek,
    isOpen: true,
    slots: [{ startTime: `${OPEN.from}:00`.padStart(5, '0'), endTime: `${OPEN.to}:00` }],
  }));
  const slug = `bench-e2e-${Date.now().toString(36)}`;
  const [tenant] = await db('tenants')
    .insert({
      name: 'Bench E2E',
      slug,
      // a launched salon takes bookings (docs/rules/salon.md#launch)
      launchedAt: new Date(),
      industryType: 'beauty',
      settings: JSON.stringify(completeSettings('beauty', { businessHours: week, maxBookingDaysInAdvance: 60 })),
      branding: '{}',
    })
    .returning(['id', 'slug']);
  const [service] = await db('services').insert({ tenantId: tenant.id, name: 'Klipp', duration: DURATION_MIN, price: 50000, currency: 'NOK' }).returning('id');
  const staff: string[] = [];
  for (let i = 0; i < STAFF; i++) {
    const [r] = await db('resources')
      .insert({ tenantId: tenant.id, name: `Staff ${String(i).padStart(2, '0')}`, sortOrder: i })
      .returning('id');
    staff.push(r.id);
  }
  await db('resource_skills').insert(staff.map((resourceId) => ({ tenantId: tenant.id, resourceId, serviceId: service.id })));
  await db('resource_schedules').insert(
    staff.flatMap((resourceId) =>
      [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({
        tenantId: tenant.id,
        resourceId,
        dayOfWeek,
        startTime: week[0].slots[0].startTime,
        endTime: week[0].slots[0].endTime,
      })),
    ),
  );
  return { tenantId: tenant.id, slug: tenant.slug, serviceId: service.id, staff };
}

/** Distinct (staff, start) slots, day by day from `firstDay`: never two bookings on one. */
function* slots(salon: Salon, firstDay: string): Generator<{ startTime: string; resourceId: string; day: string }> {
  const perDay = ((OPEN.to - OPEN.from) * 60) / DURATION_MIN;
  for (let d = 0; ; d++) {
    const day = addDays(firstDay, d);
    for (let k = 0; k < perDay; k++) {
      const minutes = OPEN.from * 60 + k * DURATION_MIN;
      const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
      const startTime = localToUtc(day, time, TZ).toISOString();
      for (const resourceId of salon.staff) yield { startTime, resourceId, day };
    }
  }
}

let customerNo = 0;
function booking(salon: Salon, slot: { startTime: string; resourceId: string }) {
  const n = customerNo++;
  return {
    startTime: slot.startTime,
    items: [{ serviceId: salon.serviceId, resourceId: slot.resourceId }],
    customer: { name: `Kunde ${n}`, phone: `+47 9${String(1000000 + n).padStart(7, '0')}`, email: `kunde${n}@bench.example` },
  };
}

// ---------------------------------------------------------------- the run
async function main(): Promise<void> {
  ensureOfficialTemporal();
  if (TOPOLOGY === 'production') ensureGoServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-bench-e2e-'));
  const machineBefore = machineTimes();
  const loadBefore = load();
  const pg = await startEmbeddedPostgres({
    dataDir: path.join(dataDir, 'postgres'),
    persistent: KEEP,
    log: () => undefined,
    ...(STATEMENTS ? { postgresFlags: ['-c', 'shared_preload_libraries=pg_stat_statements'] } : {}),
  });
  postmasterPid = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  let stack: Stack | undefined;
  let db: Knex | undefined;
  const out: Record<string, unknown> = {
    topology: TOPOLOGY,
    temporal: TOPOLOGY === 'production' ? 'go.temporal.io/server on Postgres' : 'temporal server start-dev',
    quick: QUICK,
  };
  try {
    stack = TOPOLOGY === 'production' ? await startProduction(pg.url, dataDir) : await startNpmStart(pg.url, dataDir);
    db = knexFactory({ client: 'pg', connection: pg.url, pool: { min: 0, max: 4 }, ...knexSnakeCaseMappers() });
    const salon = await seedSalon(db);
    client = new Worker(CLIENT, { eval: true });
    batch = requestClient(client);
    const bases = stack.bases;
    const at = (i: number) => bases[i % bases.length];
    const firstDay = addDays(utcToLocalDate(new Date(), TZ), 2);
    const free = slots(salon, firstDay);
    const take = () => free.next().value!;
    const cpu = () => stack!.apiPids.reduce((sum, pid) => sum + processCpuMs(pid), 0);

    /**
     * (5) the plumbing floor (bench/floor/): RATE requests a second for SECONDS, each writing one row in
     * one transaction and signalling-with-start a workflow of as many local activities as a booking's,
     * doing nothing; then (6) the platform's bookings alone (no reads between them) at RATE for
     * PAIR_SECONDS. For each: latency, the delay to the confirmation (the floor's: to its last
     * activity), and the CPU of each process per request, on the same Temporal server and Postgres.
     */
    async function plumbingPhases() {
      const floor = await startFloor({ dist: DIST, databaseUrl: pg.url, temporalAddress: stack!.temporalAddress, apis: bases.length, knex: db!, env: TUNING });
      try {
        const floorUrl = (i: number) => `${floor.bases[i % floor.bases.length]}/floor`;
        const waitDone = async (ids: string[]) => {
          let delays = await floorDelays(db!, floor, ids);
          for (const until = Date.now() + 60_000; delays.length < ids.length && Date.now() < until;) {
            await new Promise((r) => setTimeout(r, 500));
            delays = await floorDelays(db!, floor, ids);
          }
          return delays;
        };
        // warmed as the platform was: WARM_BOOKINGS requests
        const warm: string[] = [];
        for (let round = 0; round < WARM_BOOKINGS / 20; round++)
          warm.push(...(await send(Array.from({ length: 20 }, (_, i) => post(floorUrl(i), { note: 'warm' })))).map((r) => r.id!).filter(Boolean));
        await waitDone(warm);
        const temporal = stack!.procs.find((p) => p.name === 'temporal')!;
        const measured = [...floor.procs, { name: 'temporal', pid: temporal.child.pid! }];
        const clients = [...measured, ...stack!.procs.map((p) => ({ name: p.name, pid: p.child.pid! })), { name: 'bench', pid: process.pid }];
        const phase = async (
          plan: Req[],
          procs: { name: string; pid: number }[],
          delaysOf: (ids: string[]) => Promise<number[]>,
          group: (name: string) => string,
        ) => {
          const cpu0 = cpuOf(procs);
          // --threads: the worker's CPU by thread, to set the floor's worker beside the platform's
          const worker = procs.find((p) => group(p.name) === 'worker');
          const threads0 = THREADS && worker ? threadCpuMs(worker.pid) : undefined;
          const pg0 = postgresBackends(postmasterPid);
          const results = await send(plan, true);
          const ids = results.filter((r) => r.status === 201 && r.id).map((r) => r.id!);
          const delays = await delaysOf(ids);
          const cpu1 = cpuOf(procs);
          const workerThreads =
            threads0 && worker
              ? Object.fromEntries(
                  [...threadCpuMs(worker.pid)]
                    .map(([name, msNow]) => [name, (msNow - (threads0.get(name) ?? 0)) / Math.max(1, plan.length)] as const)
                    .filter(([, v]) => v >= 0.05)
                    .map(([name, v]) => [name, v.toFixed(2)]),
                )
              : undefined;
          const byClient = postgresCpuByClient(pg0, postgresBackends(postmasterPid), pg.port, clients);
          const perRequest: Record<string, number> = {};
          for (const p of procs)
            perRequest[group(p.name)] = (perRequest[group(p.name)] ?? 0) + (cpu1.get(p.name)! - cpu0.get(p.name)!) / Math.max(1, plan.length);
          perRequest.postgres = Object.entries(byClient).reduce((sum, [client, ms]) => (client === 'bench' ? sum : sum + ms), 0) / Math.max(1, plan.length);
          return {
            requests: plan.length,
            created: ids.length,
            errors: results.filter((r) => r.status !== 201).length,
            p50: pct(
              results.map((r) => r.ms),
              50,
            ),
            p95: pct(
              results.map((r) => r.ms),
              95,
            ),
            confirmed: delays.length,
            confirmationP50: pct(delays, 50),
            confirmationP99: pct(delays, 99),
            cpuMsPerRequest: perRequest,
            cpuMsTotal: Object.values(perRequest).reduce((a, b) => a + b, 0),
            ...(workerThreads ? { workerCpuMsPerRequestByThread: workerThreads } : {}),
            loadavg: load(),
          };
        };
        const every = 1000 / RATE;
        const floorPlan = Array.from({ length: RATE * SECONDS }, (_, i): Req => ({ ...post(floorUrl(i), { note: `floor ${i}` }), at: i * every }));
        const floorRun = await phase(
          floorPlan,
          measured,
          (ids) => waitDone(ids),
          (name) => (name.startsWith('floor api') ? 'api' : name === 'floor worker' ? 'worker' : name),
        );
        await drain();
        const bookingPlan = Array.from({ length: RATE * PAIR_SECONDS }, (_, i): Req => ({ ...post(bookUrlOf(i), booking(salon, take())), at: i * every }));
        const pairStart = new Date();
        const bookingRun = await phase(
          bookingPlan,
          stack!.procs.map((p) => ({ name: p.name, pid: p.child.pid! })),
          async (ids) => {
            await drain();
            return confirmationDelaysOf(ids);
          },
          (name) => (name === 'npm start' || name.startsWith('api') ? 'api' : name),
        );
        // the floor's workflow runs a read and three messages' activities side by side: a booking here (the salon approves its bookings) sends the customer's SMS and e-mail and the salon's notice
        const { rows } = await db!.raw(
          `SELECT count(*)::float / greatest(count(DISTINCT b.id), 1) AS n FROM bookings b JOIN booking_notifications n ON n.booking_id = b.id WHERE b.tenant_id = ? AND b.created_at >= ?`,
          [salon.tenantId, pairStart],
        );
        const messagesPerBooking = Number(rows[0].n);
        return { floor: floorRun, bookings: bookingRun, ratio: bookingRun.cpuMsTotal / floorRun.cpuMsTotal, messagesPerBooking };
      } finally {
        await floor.stop();
      }
    }
    const bookUrlOf = (i: number) => `${at(i)}/public/tenants/${salon.slug}/bookings`;
    const confirmationDelaysOf = async (ids: string[]): Promise<number[]> =>
      (
        await db!.raw(
          `SELECT extract(epoch FROM (min(n.sent_at) - b.created_at)) * 1000 AS ms
             FROM bookings b JOIN booking_notifications n ON n.booking_id = b.id AND n.kind IN ('RECEIVED', 'CONFIRMED') AND n.sent_at IS NOT NULL
            WHERE b.id = ANY(?::uuid[]) GROUP BY b.id`,
          [ids],
        )
      ).rows.map((r: { ms: string }) => Number(r.ms));

    // the confirmations of every booking so far sent: the phase that follows does not share the CPU
    // with the worker's backlog from the one before
    const unsentConfirmations = async () =>
      Number(
        (
          await db!.raw(
            `SELECT count(*) AS n FROM bookings b WHERE b.tenant_id = ? AND NOT EXISTS
               (SELECT 1 FROM booking_notifications n WHERE n.booking_id = b.id AND n.kind IN ('RECEIVED', 'CONFIRMED') AND n.sent_at IS NOT NULL)`,
            [salon.tenantId],
          )
        ).rows[0].n,
      );
    const drain = async (): Promise<number> => {
      const started = Date.now();
      while ((await unsentConfirmations()) > 0 && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 250));
      return Date.now() - started;
    };

    // warm-up: connections, JIT, caches. Each path is taken as a running api has taken it, so the
    // phases measure what a running api spends, not its optimising compiler: the floor's 1,000
    // times, a booking and an availability read WARM_BOOKINGS times. (With 20, each production api
    // process had seen 10 bookings before the burst; the burst's api CPU per booking was 8.1-9.9 ms
    // there and 6.1-8.7 ms after 400; under npm start 7.7 and 4.2 ms.)
    for (let round = 0; round < 10; round++) await send(Array.from({ length: 100 }, (_, i) => get(`${at(i)}/no-such-route-warm-${round}-${i}`)));
    for (let round = 0; round < WARM_BOOKINGS / 20; round++) {
      await send(Array.from({ length: 20 }, (_, i) => post(`${at(i)}/public/tenants/${salon.slug}/bookings`, booking(salon, take()))));
      await send(Array.from({ length: 20 }, (_, i) => get(`${at(i)}/public/tenants/${salon.slug}/availability?serviceId=${salon.serviceId}&date=${firstDay}`)));
    }
    out.warmDrainMs = await drain();

    // (1) the floor: 100 concurrent requests to an unknown route, twenty times (after 1,000 to warm it); CPU of the api process(es)
    const floorTimes: number[] = [];
    const cpu0 = cpu();
    const ROUNDS = FLOOR_ROUNDS;
    for (let round = 0; round < ROUNDS; round++) {
      const res = await send(Array.from({ length: 100 }, (_, i) => get(`${at(i)}/no-such-route-${round}-${i}`)));
      const bad = res.find((r) => r.status !== 404);
      if (bad) throw new Error(`floor: ${bad.status} ${JSON.stringify(bad.body)}`);
      floorTimes.push(...res.map((r) => r.ms));
    }
    const cpuPerRequest = (cpu() - cpu0) / (ROUNDS * 100);
    const floor = { p50: pct(floorTimes, 50), p95: pct(floorTimes, 95), apiCpuMsPerRequest: cpuPerRequest, loadavg: load() };
    out.floor = floor;
    if (FLOOR_ONLY) {
      console.log(
        `floor, 100 concurrent unknown-route requests x${ROUNDS}: p50 ${ms(floor.p50)}  p95 ${ms(floor.p95)}  api CPU ${floor.apiCpuMsPerRequest.toFixed(2)} ms/request  [load ${floor.loadavg}]`,
      );
      return;
    }

    // (2) 100 concurrent public bookings for distinct slots
    const bookUrl = (i: number) => `${at(i)}/public/tenants/${salon.slug}/bookings`;
    const cpu1 = cpu();
    const burstProcCpu0 = stack.procs.map((p) => processCpuMs(p.child.pid!));
    const apiThread = mainThreadCpuMs;
    const burstApiThread0 = stack.apiPids.map(apiThread);
    const burstPostgresCpu0 = postgresCpuMs();
    const burst = await send(Array.from({ length: 100 }, (_, i) => post(bookUrl(i), booking(salon, take()))));
    const burstCpu = (cpu() - cpu1) / 100;
    // what every process spent until the last answer (the worker has begun on the confirmations)
    const burstCpuMsByProcess = {
      ...Object.fromEntries(stack.procs.map((p, i) => [p.name, ((processCpuMs(p.child.pid!) - burstProcCpu0[i]) / 100).toFixed(1)])),
      postgres: (cpuSince(burstPostgresCpu0, postgresCpuMs()) / 100).toFixed(1),
    };
    const burstTimes = burst.map((r) => r.ms);
    // the request path's CPU (every process but the worker, which yields): the cores cannot answer the
    // last booking sooner than this, however the work is scheduled
    const pathCpuMs = Object.entries(burstCpuMsByProcess).reduce((sum, [name, v]) => (name === 'worker' ? sum : sum + Number(v)), 0);
    // an api process answers on one thread: the busiest api's main thread is a bound of its own
    const apiThreadMs = Math.max(...stack.apiPids.map((pid, i) => apiThread(pid) - burstApiThread0[i]));
    const pathBoundMs = Math.max((100 * pathCpuMs) / os.cpus().length, apiThreadMs);
    out.burst = {
      created: burst.filter((r) => r.status === 201).length,
      failures: burst
        .filter((r) => r.status !== 201)
        .slice(0, 3)
        .map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 160)}`),
      p50: pct(burstTimes, 50),
      p95: pct(burstTimes, 95),
      ofFloor: pct(burstTimes, 95) / floor.p95,
      apiCpuMsPerBooking: burstCpu,
      cpuMsPerBookingByProcess: burstCpuMsByProcess,
      pathCpuMs,
      apiThreadMs,
      pathBoundMs,
      loadavg: load(),
    };
    if (BURST_ONLY) {
      const b = out.burst as { p50: number; p95: number; ofFloor: number };
      console.log(`burst, 100 concurrent bookings, distinct slots: p50 ${ms(b.p50)}  p95 ${ms(b.p95)} = ${b.ofFloor.toFixed(1)}x floor p95 ${ms(floor.p95)}`);
      console.log(
        `   CPU ms per booking until the last answer: ${Object.entries(burstCpuMsByProcess)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
      console.log(`   ${boundLine(pathCpuMs, apiThreadMs, pathBoundMs, os.cpus().length)}`);
      return;
    }

    // (3) 100 concurrent public bookings for one slot
    const one = take();
    const same = await send(Array.from({ length: 100 }, (_, i) => post(bookUrl(i), booking(salon, one))));
    const sameRows = await db('bookings')
      .where({ tenantId: salon.tenantId, resourceId: one.resourceId, startTime: new Date(one.startTime) })
      .count({ n: '*' });
    out.sameSlot = {
      created: same.filter((r) => r.status === 201).length,
      conflicts409: same.filter((r) => r.status === 409).length,
      other: same
        .filter((r) => r.status !== 201 && r.status !== 409)
        .slice(0, 3)
        .map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 160)}`),
      rows: Number(sameRows[0].n),
      p95: pct(
        same.map((r) => r.ms),
        95,
      ),
    };

    // the worker's backlog from the burst drains first: the sustained phase measures its own rate
    out.drainMs = await drain();

    // (4) sustained: RATE bookings/s for SECONDS, an availability read between every two bookings
    const every = 1000 / RATE;
    const plan: Req[] = [];
    for (let i = 0; i < RATE * SECONDS; i++) {
      const slot = take();
      plan.push({ ...post(bookUrl(i), booking(salon, slot), 'book'), at: i * every });
      plan.push({
        ...get(`${at(i + 1)}/public/tenants/${salon.slug}/availability?serviceId=${salon.serviceId}&date=${slot.day}`, 'read'),
        at: i * every + every / 2,
      });
    }
    if (STATEMENTS) {
      await db.raw('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      await db.raw('SELECT pg_stat_statements_reset()');
    }
    const machine0 = machineTimes();
    const cpu2 = cpu();
    const procCpu0 = stack.procs.map((p) => processCpuMs(p.child.pid!));
    const backends0 = postgresBackends(postmasterPid);
    const threadCpu0 = stack.procs.map((p) => threadCpuMs(p.child.pid!));
    const sustainedStart = Date.now();
    const sustained = await send(plan, true);
    const wall = Date.now() - sustainedStart;
    const machine1 = machineTimes();
    const books = sustained.filter((r) => r.tag === 'book');
    const reads = sustained.filter((r) => r.tag === 'read');
    const ids = books.filter((r) => r.status === 201 && r.id).map((r) => r.id!);
    // the confirmation (RECEIVED or CONFIRMED message) of every booking, waited for up to 60 s
    const confirmationDelays = () => confirmationDelaysOf(ids);
    let delays = await confirmationDelays();
    for (const until = Date.now() + 60_000; delays.length < ids.length && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 1000));
      delays = await confirmationDelays();
    }
    // the CPU every process spent on the phase, until its last confirmation was sent; Postgres's without
    // what the bench's own queries cost it (the polls for the confirmations above)
    const clients = [...stack.procs.map((p) => ({ name: p.name, pid: p.child.pid! })), { name: 'bench', pid: process.pid }];
    const postgresByClient = postgresCpuByClient(backends0, postgresBackends(postmasterPid), pg.port, clients);
    const phaseCpuMs = {
      ...Object.fromEntries(stack.procs.map((p, i) => [p.name, processCpuMs(p.child.pid!) - procCpu0[i]])),
      postgres: Object.entries(postgresByClient).reduce((sum, [client, cpuMs]) => (client === 'bench' ? sum : sum + cpuMs), 0),
    };
    const backlog = await confirmationBacklog(db, ids, sustainedStart, wall);
    if (STATEMENTS) {
      // every statement since the sustained phase began (its bookings, reads and confirmations)
      const rows = (
        await db.raw(
          `SELECT calls::int AS calls, total_exec_time AS ms, regexp_replace(query, '\\s+', ' ', 'g') AS query FROM pg_stat_statements
            WHERE query NOT ILIKE '%pg_stat_statements%' AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
            ORDER BY calls DESC`,
        )
      ).rows as { calls: number; ms: number; query: string }[];
      const n = Math.max(1, ids.length);
      out.statements = {
        perBooking: rows.reduce((sum, r) => sum + r.calls, 0) / n,
        execMsPerBooking: rows.reduce((sum, r) => sum + r.ms, 0) / n,
        top: rows.slice(0, 25).map((r) => ({ perBooking: r.calls / n, execMsPerBooking: r.ms / n, query: r.query.slice(0, 130) })),
      };
    }
    const steal = machine1.total > machine0.total ? (100 * (machine1.steal - machine0.steal)) / (machine1.total - machine0.total) : 0;
    const busy = machine1.total > machine0.total ? 100 - (100 * (machine1.idle - machine0.idle)) / (machine1.total - machine0.total) : 0;
    out.sustained = {
      rate: RATE,
      seconds: SECONDS,
      wallMs: wall,
      bookings: books.length,
      created: ids.length,
      errors: books.filter((r) => r.status !== 201).length + reads.filter((r) => r.status !== 200).length,
      firstErrors: [...books, ...reads]
        .filter((r) => r.status >= 300 || r.status === 0)
        .slice(0, 3)
        .map((r) => `${r.tag} ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`),
      p50: pct(
        books.map((r) => r.ms),
        50,
      ),
      p95: pct(
        books.map((r) => r.ms),
        95,
      ),
      p99: pct(
        books.map((r) => r.ms),
        99,
      ),
      readP50: pct(
        reads.map((r) => r.ms),
        50,
      ),
      readP95: pct(
        reads.map((r) => r.ms),
        95,
      ),
      confirmationsSent: delays.length,
      confirmationP50: pct(delays, 50),
      confirmationP99: pct(delays, 99),
      confirmationMax: Math.max(...delays),
      apiCpuMsPerBooking: (cpu() - cpu2) / books.length,
      cpuSecondsByProcess: Object.fromEntries(Object.entries(phaseCpuMs).map(([name, cpuMs]) => [name, (cpuMs / 1000).toFixed(1)])),
      cpuMsPerBooking: Object.fromEntries(Object.entries(phaseCpuMs).map(([name, cpuMs]) => [name, (cpuMs / Math.max(1, books.length)).toFixed(2)])),
      cpuMsPerBookingTotal: Object.values(phaseCpuMs).reduce((a, b) => a + b, 0) / Math.max(1, books.length),
      postgresCpuMsPerBookingByClient: Object.fromEntries(
        Object.entries(postgresByClient)
          .sort((a, b) => b[1] - a[1])
          .map(([name, cpuMs]) => [name, (cpuMs / Math.max(1, books.length)).toFixed(2)]),
      ),
      backlog,
      ...(THREADS
        ? {
            cpuMsPerBookingByThread: Object.fromEntries(
              stack.procs.map((p, i) => [
                p.name,
                Object.fromEntries(
                  [...threadCpuMs(p.child.pid!)]
                    .map(([name, msNow]) => [name, (msNow - (threadCpu0[i].get(name) ?? 0)) / Math.max(1, books.length)] as const)
                    .filter(([, perBooking]) => perBooking >= 0.1)
                    .sort((a, b) => b[1] - a[1])
                    .map(([name, perBooking]) => [name, perBooking.toFixed(1)]),
                ),
              ]),
            ),
          }
        : {}),
      machineBusyPercent: busy,
      stealPercent: steal,
      loadavg: load(),
    };
    if (PLUMBING) out.plumbing = await plumbingPhases();
  } finally {
    await client?.terminate();
    await db?.destroy();
    await stack?.stop().catch((err) => console.error('stopping:', err));
    await pg.stop();
    if (KEEP) console.log(`kept the run's data in ${dataDir} (its Postgres data in ${path.join(dataDir, 'postgres')})`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (FLOOR_ONLY || BURST_ONLY) return;
  const machineAfter = machineTimes();
  out.machine = {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    loadavgBefore: loadBefore,
    loadavgAfter: load(),
    stealPercent: ((100 * (machineAfter.steal - machineBefore.steal)) / Math.max(1, machineAfter.total - machineBefore.total)).toFixed(1),
    node: process.version,
  };
  report(out);
}

/**
 * The confirmations still to send, second by second over the sustained phase (bookings created so far
 * less the bookings whose confirmation was sent), from the rows' own timestamps; and the slope of a
 * least-squares line through its second half, in bookings a second: a worker that keeps up holds the
 * backlog level (slope about 0), one that falls behind grows it by the rate it lacks.
 */
async function confirmationBacklog(
  db: Knex,
  ids: string[],
  startMs: number,
  wallMs: number,
): Promise<{ quarters: number[]; end: number; slopePerSecond: number }> {
  const rows = (
    await db.raw(
      `SELECT extract(epoch FROM b.created_at) * 1000 AS created, extract(epoch FROM min(n.sent_at)) * 1000 AS sent
         FROM bookings b LEFT JOIN booking_notifications n ON n.booking_id = b.id AND n.kind IN ('RECEIVED', 'CONFIRMED') AND n.sent_at IS NOT NULL
        WHERE b.id = ANY(?::uuid[]) GROUP BY b.id`,
      [ids],
    )
  ).rows.map((r: { created: string; sent: string | null }) => ({ created: Number(r.created), sent: r.sent === null ? Infinity : Number(r.sent) }));
  const at = (t: number) => rows.filter((r: { created: number }) => r.created <= t).length - rows.filter((r: { sent: number }) => r.sent <= t).length;
  const seconds = Math.max(1, Math.floor(wallMs / 1000));
  const series = Array.from({ length: seconds }, (_, i) => at(startMs + (i + 1) * 1000));
  const half = series.slice(Math.floor(seconds / 2));
  const n = half.length;
  const meanX = (n - 1) / 2;
  const meanY = half.reduce((a, b) => a + b, 0) / Math.max(1, n);
  const cov = half.reduce((sum, y, x) => sum + (x - meanX) * (y - meanY), 0);
  const varX = half.reduce((sum, _y, x) => sum + (x - meanX) ** 2, 0);
  return {
    quarters: [1, 2, 3, 4].map((q) => series[Math.max(0, Math.ceil((q * seconds) / 4) - 1)] ?? 0),
    end: series[series.length - 1] ?? 0,
    slopePerSecond: varX > 0 ? cov / varX : 0,
  };
}

/** The backlog holds level: its second half grows by less than 2% of the rate (at least 1 booking) a second. */
const backlogHolds = (slopePerSecond: number, rate: number) => slopePerSecond < Math.max(1, 0.02 * rate);

interface PlumbingRun {
  requests: number;
  created: number;
  errors: number;
  p50: number;
  p95: number;
  confirmed: number;
  confirmationP50: number;
  confirmationP99: number;
  cpuMsPerRequest: Record<string, number>;
  cpuMsTotal: number;
  /** --threads: the worker's CPU per request by thread name */
  workerCpuMsPerRequestByThread?: Record<string, string>;
  loadavg: string;
}

/** The least time the burst's last answer needed: its request path's CPU over the cores, or one api thread's CPU. */
function boundLine(pathCpuMs: number, apiThreadMs: number, boundMs: number, cores: number): string {
  return `bound: the request path (all but the worker) ${pathCpuMs.toFixed(1)} ms per booking, ${ms((100 * pathCpuMs) / cores)} on ${cores} cores; the busiest api thread ${ms(apiThreadMs)}; so at least ${ms(boundMs)}`;
}

function report(out: Record<string, unknown>): void {
  const f = out.floor as { p50: number; p95: number; apiCpuMsPerRequest: number; loadavg: string };
  const b = out.burst as {
    created: number;
    failures: string[];
    p50: number;
    p95: number;
    ofFloor: number;
    apiCpuMsPerBooking: number;
    cpuMsPerBookingByProcess: Record<string, string>;
    pathCpuMs: number;
    apiThreadMs: number;
    pathBoundMs: number;
    loadavg: string;
  };
  const s1 = out.sameSlot as { created: number; conflicts409: number; rows: number; other: string[]; p95: number };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const s = out.sustained as Record<string, any>;
  const m = out.machine as Record<string, string | number>;
  const prod = TOPOLOGY === 'production';
  console.log(
    `\nbench:e2e, topology ${prod ? 'production (2 api, 1 worker, Temporal frontend, Postgres)' : 'npm start (node dist/bin/dev.js, embedded Postgres)'}, Temporal ${prod ? `go.temporal.io/server ${TEMPORAL_PINS.server} on Postgres` : `temporal CLI ${TEMPORAL_PINS.cli} (server ${TEMPORAL_PINS.server}) start-dev`}${QUICK ? ', --quick' : ''}`,
  );
  console.log(
    `machine: ${m.cores} cores (${m.cpu}), node ${m.node}; load average before ${m.loadavgBefore}, after ${m.loadavgAfter}; steal ${m.stealPercent}% over the run`,
  );
  console.log(
    `warm-up: 1,000 unknown-route requests, ${WARM_BOOKINGS} bookings and as many availability reads; their confirmations were all sent ${(Number(out.warmDrainMs) / 1000).toFixed(1)} s after`,
  );
  console.log(
    `floor, 100 concurrent unknown-route requests x${FLOOR_ROUNDS}:  p50 ${ms(f.p50)}  p95 ${ms(f.p95)}  api CPU ${f.apiCpuMsPerRequest.toFixed(2)} ms/request   [load ${f.loadavg}]`,
  );
  console.log(`   target p95 <= 100 ms ${verdict(f.p95 <= 100)}; CPU <= 0.5 ms ${verdict(f.apiCpuMsPerRequest <= 0.5)}`);
  console.log(
    `burst, 100 concurrent bookings, distinct slots:  created ${b.created}/100  p50 ${ms(b.p50)}  p95 ${ms(b.p95)}  = ${b.ofFloor.toFixed(1)}x floor p95  api CPU ${b.apiCpuMsPerBooking.toFixed(1)} ms/booking   [load ${b.loadavg}]`,
  );
  console.log(
    `   CPU ms per booking until the last answer: ${Object.entries(b.cpuMsPerBookingByProcess)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  console.log(`   ${boundLine(b.pathCpuMs, b.apiThreadMs, b.pathBoundMs, Number(m.cores))}`);
  console.log(
    `   target all created, p95 within 1.25x the bound (${ms(1.25 * b.pathBoundMs)}): ${verdict(b.created === 100 && b.p95 <= 1.25 * b.pathBoundMs)} (p95 = ${(b.p95 / b.pathBoundMs).toFixed(2)}x the bound)`,
  );
  if (b.failures.length) console.log('   failures:', b.failures);
  console.log(
    `same slot, 100 concurrent bookings:              created ${s1.created}, 409 x${s1.conflicts409}, rows ${s1.rows}  p95 ${ms(s1.p95)}   ${verdict(s1.created === 1 && s1.conflicts409 === 99 && s1.rows === 1)}`,
  );
  if (s1.other.length) console.log('   other:', s1.other);
  console.log(`(the burst's confirmations were all sent ${(Number(out.drainMs) / 1000).toFixed(1)} s after it; the sustained phase started then)`);
  console.log(`sustained ${s.rate} bookings/s for ${s.seconds} s (+ as many availability reads), ${s.wallMs} ms wall:`);
  console.log(
    `   bookings ${s.created}/${s.bookings} created, errors ${s.errors}; p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}; api CPU ${Number(s.apiCpuMsPerBooking).toFixed(1)} ms per booking+read`,
  );
  console.log(`   availability p50 ${ms(s.readP50)}  p95 ${ms(s.readP95)}`);
  console.log(
    `   confirmations sent ${s.confirmationsSent}/${s.created}: delay p50 ${ms(s.confirmationP50)}  p99 ${ms(s.confirmationP99)}  max ${ms(s.confirmationMax)}`,
  );
  const bl = s.backlog as { quarters: number[]; end: number; slopePerSecond: number };
  console.log(
    `   confirmations still to send at each quarter of the phase: ${bl.quarters.join(', ')}; second half's trend ${bl.slopePerSecond >= 0 ? '+' : ''}${bl.slopePerSecond.toFixed(1)} bookings/s`,
  );
  console.log(
    `   CPU seconds by process: ${Object.entries(s.cpuSecondsByProcess)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; machine busy ${Number(s.machineBusyPercent).toFixed(0)}%, steal ${Number(s.stealPercent).toFixed(1)}%   [load ${s.loadavg}]`,
  );
  console.log(
    `   CPU ms per booking (its availability read and confirmations included): ${Object.entries(s.cpuMsPerBooking)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; total ${Number(s.cpuMsPerBookingTotal).toFixed(1)} ms`,
  );
  console.log(
    `   target cost <= 12 ms ${verdict(s.cpuMsPerBookingTotal <= 12)}, zero errors ${verdict(s.errors === 0)}, p95 < 100 ms ${verdict(s.p95 < 100)}, p99 < 250 ms ${verdict(s.p99 < 250)}, every confirmation sent, p99 <= 10 s ${verdict(s.confirmationsSent === s.created && s.confirmationP99 <= 10_000)}, backlog not growing ${verdict(backlogHolds(bl.slopePerSecond, s.rate))}, availability p95 < 100 ms ${verdict(s.readP95 < 100)}`,
  );
  console.log(
    `   Postgres's CPU ms per booking by client (whose statements; the bench's own are not in the cost): ${Object.entries(s.postgresCpuMsPerBookingByClient)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  if (s.firstErrors.length) console.log('   errors:', s.firstErrors);
  const pl = out.plumbing as
    | {
        floor: PlumbingRun;
        bookings: PlumbingRun;
        ratio: number;
        messagesPerBooking: number;
      }
    | undefined;
  if (pl) {
    const line = (r: PlumbingRun) =>
      `${r.created}/${r.requests} created, errors ${r.errors}; p50 ${ms(r.p50)}  p95 ${ms(r.p95)}; confirmations ${r.confirmed}: delay p50 ${ms(r.confirmationP50)}  p99 ${ms(r.confirmationP99)}; CPU ms per request: ${Object.entries(
        r.cpuMsPerRequest,
      )
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(', ')}; total ${r.cpuMsTotal.toFixed(1)}   [load ${r.loadavg}]`;
    console.log(
      `plumbing floor (one row in one transaction + signal-with-start of a workflow of 4 local activities doing nothing), ${RATE}/s for ${SECONDS} s:`,
    );
    const threadsLine = (r: PlumbingRun) =>
      r.workerCpuMsPerRequestByThread
        ? `\n   the worker's CPU ms per request by thread: ${Object.entries(r.workerCpuMsPerRequestByThread)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`
        : '';
    console.log(`   ${line(pl.floor)}${threadsLine(pl.floor)}`);
    console.log(
      `bookings alone (no reads between them), ${RATE}/s for ${PAIR_SECONDS} s, ${pl.messagesPerBooking.toFixed(2)} messages per booking (the floor's workflow: a read and 3 side by side):`,
    );
    console.log(`   ${line(pl.bookings)}${threadsLine(pl.bookings)}`);
    console.log(
      `   a booking over its floor, CPU by process: ${Object.keys(pl.bookings.cpuMsPerRequest)
        .map((k) => `${k} ${(pl.bookings.cpuMsPerRequest[k] / (pl.floor.cpuMsPerRequest[k] ?? NaN)).toFixed(2)}x`)
        .join(', ')}; total ${pl.ratio.toFixed(2)}x: target <= 1.5x ${verdict(pl.ratio <= 1.5)}`,
    );
    const floorHolds = pl.floor.confirmed === pl.floor.created && pl.floor.confirmationP99 <= 10_000;
    const bookingsHold = s.confirmationsSent === s.created && s.confirmationP99 <= 10_000;
    console.log(
      `   sustained ${RATE}/s: the floor holds its confirmations within 10 s ${floorHolds ? 'yes' : 'no'}, the bookings (with their reads) ${bookingsHold ? 'yes' : 'no'}: target ${floorHolds ? verdict(bookingsHold) : 'n/a at this rate (the floor does not hold)'}`,
    );
  }
  const threads = s.cpuMsPerBookingByThread as Record<string, Record<string, string>> | undefined;
  if (threads) {
    console.log('   CPU ms per booking by thread:');
    for (const [proc, byName] of Object.entries(threads))
      console.log(
        `     ${proc}: ${Object.entries(byName)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
  }
  const st = out.statements as
    { perBooking: number; execMsPerBooking: number; top: { perBooking: number; execMsPerBooking: number; query: string }[] } | undefined;
  if (st) {
    console.log(
      `   Postgres statements per booking (its read and confirmations included): ${st.perBooking.toFixed(1)}, executing ${st.execMsPerBooking.toFixed(1)} ms; the most frequent (per booking: calls, ms):`,
    );
    for (const t of st.top) console.log(`   ${t.perBooking.toFixed(2).padStart(6)} ${t.execMsPerBooking.toFixed(2).padStart(6)}  ${t.query}`);
  }
  console.log(JSON.stringify(out));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
