// The platform the growth benchmarks load (bench/growth/workflows.ts, bench/growth/reminders.ts): an
// embedded Postgres, Temporal, dist/bin/migrate.js, then dist/bin/worker.js (and, when asked, one
// dist/bin/api.js) as processes of their own, measured from outside by /proc.
//
//   engine 'dev'         the official CLI's `temporal server start-dev` on a SQLite file, as npm start runs it
//   engine 'production'  go.temporal.io/server on the same Postgres (persistence and visibility), as
//                        the production topology runs it (devstack/official-temporal/go-server.ts)
//
// The worker reports its memory (RSS, V8 heap) to a file every second through a preloaded probe, so
// the bench reads the heap of a process it does not run code in.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import { Client, Connection } from '@temporalio/client';
import { freePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../devstack/postgres';
import { startTemporalForDev } from '../../devstack/temporal-for-dev';
import { ensureOfficialTemporal } from '../../devstack/official-temporal/install';
import { ensureGoServer, startGoServer } from '../../devstack/official-temporal/go-server';
import { postgresBackends } from '../support/postgres-clients';
import { processCpuMs } from '../support/proc-cpu';

export type Engine = 'dev' | 'production';

export interface GrowthProc {
  name: string;
  pid: number;
}

export interface WorkerMemory {
  rssMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
}

export interface GrowthStack {
  engine: Engine;
  knex: Knex;
  client: Client;
  temporalAddress: string;
  /** http://127.0.0.1:<port>/api of the api, when one was asked for */
  apiBase?: string;
  /** api (when started), worker, temporal */
  procs: GrowthProc[];
  workerPid: number;
  /** CPU ms of each process so far, and Postgres's (its postmaster and every backend) */
  cpuMs(): Record<string, number>;
  workerMemory(): WorkerMemory | undefined;
  stop(): Promise<void>;
}

const SECRETS = {
  JWT_SECRET: 'bench-growth-jwt-secret-0123456789abcdef0123',
  ADMIN_EMAIL: 'admin@bench.test',
  ADMIN_PASSWORD: 'bench-admin-password',
  CREDENTIAL_KEYS: `1:${Buffer.alloc(32, 9).toString('base64')}`,
  IMAGE_PROXY_SECRET: 'bench-image-proxy-secret-0123456789',
  PASSWORD_HASH_ROUNDS: '10',
  RATE_LIMIT_GLOBAL: '10000000',
  RATE_LIMIT_BOOKING_CREATE: '10000000',
};

const PROBE = `
const fs = require('node:fs');
const file = process.env.BENCH_MEMORY_FILE;
if (file) setInterval(() => { const m = process.memoryUsage(); fs.writeFileSync(file, JSON.stringify(m)); }, 1000).unref();
`;

function run(
  name: string,
  file: string,
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
): { child: ChildProcess; tail: () => string; exited: Promise<number | null> } {
  const dist = path.resolve(__dirname, '../../dist');
  const child = spawn(process.execPath, [...nodeArgs, path.join(dist, file)], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (d: Buffer) => (tail = (tail + d.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  process.once('exit', () => child.kill('SIGKILL'));
  return { child, tail: () => `${name}: ${tail}`, exited };
}

async function waitForHttp(url: string, proc: { child: ChildProcess; tail: () => string }, timeoutMs = 120_000): Promise<void> {
  for (const until = Date.now() + timeoutMs; ;) {
    if (proc.child.exitCode !== null) throw new Error(`exited ${proc.child.exitCode}: ${proc.tail()}`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`no answer from ${url}: ${proc.tail()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stopProc(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** Starts the stack; `env` goes to the worker and the api (e.g. SMS_SEND_RATE_PER_SECOND, WORKER_MAX_CACHED_WORKFLOWS). */
export async function startGrowthStack(options: { engine: Engine; api: boolean; env?: NodeJS.ProcessEnv; name: string }): Promise<GrowthStack> {
  ensureOfficialTemporal();
  if (options.engine === 'production') ensureGoServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `salon-bench-${options.name}-`));
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((err) => console.error('stopping:', err));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const pg: EmbeddedPostgresHandle = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), persistent: false, log: () => undefined });
    stops.push(() => pg.stop());
    const postmasterPid = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const postgresCpu = postgresCpuCounter(postmasterPid);
    let temporalAddress: string;
    let temporalPid: number;
    if (options.engine === 'production') {
      const server = await startGoServer({ port: await freePort(), postgresUrl: pg.url, databasePrefix: 'temporal' });
      stops.push(() => server.stop());
      temporalAddress = server.address;
      temporalPid = server.child.pid!;
    } else {
      const devTemporal = await startTemporalForDev({ port: await freePort(), uiPort: 0, dataDir });
      stops.push(() => devTemporal.stop());
      temporalAddress = devTemporal.address;
      temporalPid = Number(
        fs
          .readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
          .trim()
          .split(/\s+/)
          .map(Number)
          .find((pid) => /temporal/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')) && /start-dev/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'))),
      );
    }
    const env: NodeJS.ProcessEnv = {
      ...SECRETS,
      ...options.env,
      NODE_ENV: 'production',
      DATABASE_URL: pg.url,
      TEMPORAL_ADDRESS: temporalAddress,
      DATA_DIR: dataDir,
      S3_ENDPOINT: 'http://127.0.0.1:9', // nothing here uploads
      S3_BUCKET: 'salon-bench',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    };
    const migrate = run('migrate', 'bin/migrate.js', env);
    if ((await migrate.exited) !== 0) throw new Error(`migrate failed: ${migrate.tail()}`);
    const memoryFile = path.join(dataDir, 'worker-memory.json');
    const probe = path.join(dataDir, 'memory-probe.js');
    fs.writeFileSync(probe, PROBE);
    const workerHealth = await freePort();
    const worker = run('worker', 'bin/worker.js', { ...env, WORKER_HEALTH_PORT: String(workerHealth), BENCH_MEMORY_FILE: memoryFile }, ['--require', probe]);
    stops.push(() => stopProc(worker.child));
    const procs: GrowthProc[] = [];
    let apiBase: string | undefined;
    if (options.api) {
      const port = await freePort();
      const api = run('api', 'bin/api.js', { ...env, PORT: String(port) });
      stops.push(() => stopProc(api.child));
      apiBase = `http://127.0.0.1:${port}/api`;
      await waitForHttp(`${apiBase}/health`, api);
      procs.push({ name: 'api', pid: api.child.pid! });
    }
    await waitForHttp(`http://127.0.0.1:${workerHealth}/`, worker);
    procs.push({ name: 'worker', pid: worker.child.pid! }, { name: 'temporal', pid: temporalPid });
    const knex = knexFactory({ client: 'pg', connection: pg.url, pool: { min: 0, max: 8 }, ...knexSnakeCaseMappers() });
    stops.push(() => knex.destroy());
    const connection = await Connection.connect({ address: temporalAddress });
    stops.push(() => connection.close());
    const client = new Client({ connection });
    return {
      engine: options.engine,
      knex,
      client,
      temporalAddress,
      apiBase,
      procs,
      workerPid: worker.child.pid!,
      cpuMs() {
        const out: Record<string, number> = {};
        for (const p of procs) out[p.name] = processCpuMs(p.pid);
        out.postgres = postgresCpu.read();
        return out;
      },
      workerMemory() {
        try {
          const m = JSON.parse(fs.readFileSync(memoryFile, 'utf8')) as Record<string, number>;
          const mib = (v: number) => v / 2 ** 20;
          return { rssMiB: mib(m.rss), heapUsedMiB: mib(m.heapUsed), heapTotalMiB: mib(m.heapTotal), externalMiB: mib(m.external) };
        } catch {
          return undefined;
        }
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** Until the worker has spent under 3% of a core for 5 s in a row (its backlog of first tasks done), at most `limitMs`. */
export function workerIdle(stack: GrowthStack, limitMs: number, onMinute?: (elapsedMs: number, workerCpuPct: number) => void): Promise<number> {
  return processesQuiet(stack, { worker: 30 }, limitMs, onMinute && ((ms, pct) => onMinute(ms, pct.worker ?? 0)));
}

/**
 * Until each named process has spent under its limit (CPU ms a second) for 5 s in a row, at most
 * `limitMs`: the worker after the first tasks; the Temporal server and Postgres after the worker (the
 * server's own queues, visibility among them, may still be working through what those tasks
 * recorded). `onMinute` gets each named process's share of a core over the last minute.
 */
export async function processesQuiet(
  stack: GrowthStack,
  limits: Record<string, number>,
  limitMs: number,
  onMinute?: (elapsedMs: number, cpuPct: Record<string, number>) => void,
): Promise<number> {
  const t0 = Date.now();
  let quiet = 0;
  let before = stack.cpuMs();
  let minute = { at: t0, cpu: before };
  while (quiet < 5 && Date.now() - t0 < limitMs) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = stack.cpuMs();
    quiet = Object.entries(limits).every(([name, limit]) => (now[name] ?? 0) - (before[name] ?? 0) < limit) ? quiet + 1 : 0;
    before = now;
    if (onMinute && Date.now() - minute.at >= 60_000) {
      const ms = Date.now() - minute.at;
      onMinute(Date.now() - t0, Object.fromEntries(Object.keys(limits).map((name) => [name, (100 * ((now[name] ?? 0) - (minute.cpu[name] ?? 0))) / ms])));
      minute = { at: Date.now(), cpu: now };
    }
  }
  return Date.now() - t0;
}

/**
 * The CPU Postgres has spent since the stack started, never going down: a backend that exits (a
 * pool closing an idle connection) keeps what it had used at the last reading. Summing only the
 * live backends made a reading fall when connections closed between two readings (a run printed
 * -118.85 ms per booking). The CPU an exiting backend used after the last reading is not counted.
 */
function postgresCpuCounter(postmasterPid: number): { read(): number } {
  const seen = new Map<number, number>();
  let retired = 0;
  return {
    read() {
      for (const [pid, backend] of postgresBackends(postmasterPid)) {
        const before = seen.get(pid);
        // a smaller reading under a known pid: the pid was reused by a new backend
        if (before !== undefined && backend.cpuMs < before) retired += before;
        seen.set(pid, backend.cpuMs);
      }
      return retired + [...seen.values()].reduce((sum, ms) => sum + ms, 0);
    },
  };
}

/** CPU ms each process spent between two readings of `cpuMs()`. */
export function cpuBetween(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([name, ms]) => [name, ms - (before[name] ?? 0)]));
}

export const loadavg = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export function pct(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** `--name value` of argv. */
export function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}
