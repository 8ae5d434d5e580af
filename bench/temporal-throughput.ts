// Throughput benchmark for the Temporal servers the platform runs on (npm run bench:temporal; not a
// test): the official CLI's `temporal server start-dev` (what npm start runs: in memory, then on its
// SQLite file as npm start keeps its runs) and the production engine, go.temporal.io/server built by
// `npm run temporal:build-server`, on Postgres (an embedded one started here), printing the same
// figures for each. Starts N workflows, each running one activity and one short timer, against one
// worker, keeping CONCURRENCY workflows in flight, and prints workflows/second and start-to-result
// latencies.
//
// Each line also prints the CPU each process spent per workflow (this process's client and worker,
// the Temporal server, Postgres) and the machine's busy and stolen shares over the run: on a shared
// 2-core VM a run with steal above a few percent is not a quiet run, and its figures say more about
// the neighbours than about the server.
//
// The client and the worker live in this process, set up the way a Temporal deployment tunes a
// worker on a small machine (both are SDK options, neither changes what the server does per
// workflow):
// - the client shares the worker's NativeConnection (Rust gRPC), instead of a second grpc-js
//   connection whose HTTP/2 framing runs on the JavaScript thread the worker also needs;
// - the worker runs workflows on two threads, one per core (WF_THREADS=1 is the SDK default).
//
//   N=2000 CONCURRENCY=12 npm run bench:temporal   (the defaults)
//   STORE=memory | STORE=sqlite | STORE=postgres   only that server and store (memory, sqlite: the dev
//                                                  server; postgres: the Go-built server)
//   --shape booking                  the shape of a booking's workflow at RATE a second for SECONDS
//   CLIENT=grpc-js                   the client on its own grpc-js connection
//   TEMPORAL_ADDRESS=host:port ...   benchmark an already running server instead of starting one
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { startEmbeddedPostgres } from '../devstack/postgres';
import { ensureOfficialTemporal } from '../devstack/official-temporal/install';
import { installedCliPath } from '../devstack/official-temporal/paths';
import { SQLITE_PRAGMAS } from '../devstack/official-temporal/dev-server';
import { ensureGoServer, startGoServer, type GoServer } from '../devstack/official-temporal/go-server';

const SHAPE = process.argv.includes('--shape') ? process.argv[process.argv.indexOf('--shape') + 1] : 'activity-and-timer';
if (SHAPE !== 'activity-and-timer' && SHAPE !== 'booking') throw new Error(`--shape ${SHAPE}: activity-and-timer or booking`);
/** --shape booking: workflows started a second (open loop), for SECONDS */
const RATE = Number(process.env.RATE ?? 50);
const SECONDS = Number(process.env.SECONDS ?? 30);
/** extra arguments of the official CLI's start-dev, e.g. "--dynamic-config-value system.forceSearchAttributesCacheRefreshOnRead=false" */
const DEV_ARGS = process.env.TEMPORAL_DEV_ARGS?.split(' ').filter(Boolean) ?? [];
const N = SHAPE === 'booking' ? RATE * SECONDS : Number(process.env.N ?? 2000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 12);
const WORKFLOW_THREADS = Number(process.env.WF_THREADS ?? 2);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** /proc/<pid>/stat fields after the command name; undefined once the process is gone. */
function procStat(pid: number): string[] | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return undefined;
  }
}

/**
 * CPU time used so far by a process and its descendants (Linux /proc, 100 ticks a second), in
 * milliseconds; 0 where unavailable. Children that already exited count through the root's
 * cutime/cstime, live ones (Postgres backends) through their own counters.
 */
function processTreeCpuMs(rootPid: number | undefined): number {
  if (!rootPid) return 0;
  const root = procStat(rootPid);
  if (!root) return 0;
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    const pid = Number(name);
    if (!pid) continue;
    const f = procStat(pid);
    if (f) children.set(Number(f[1]), [...(children.get(Number(f[1])) ?? []), pid]);
  }
  let ticks = Number(root[13]) + Number(root[14]);
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    const f = procStat(pid);
    if (f) ticks += Number(f[11]) + Number(f[12]);
    stack.push(...(children.get(pid) ?? []));
  }
  return ticks * 10;
}

/** The machine's CPU time counters from /proc/stat (user … steal); empty where unavailable. */
function machineCpuCounters(): number[] {
  try {
    return fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  } catch {
    return [];
  }
}

/** Busy and stolen shares of all cores between two counter readings, in percent. */
function machineShares(before: number[], after: number[]): { busyPercent: number; stealPercent: number } | undefined {
  if (before.length < 8 || after.length < 8) return undefined;
  const d = after.map((v, i) => v - before[i]);
  const total = d.reduce((a, b) => a + b, 0) || 1;
  const idle = d[3] + d[4];
  return { busyPercent: Math.round(((total - idle - d[7]) / total) * 100), stealPercent: Math.round((d[7] / total) * 100) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The server of a store: the dev server (memory, its SQLite file) or the Go-built one (Postgres). */
const serverOf = (store: string) =>
  store === 'postgres' ? `go.temporal.io/server on Postgres` : store === 'external' ? 'TEMPORAL_ADDRESS' : `temporal server start-dev (${store})`;

async function runOnce(
  store: string,
  workflowBundle: WorkflowBundleWithSourceMap,
  options: { dbFile?: string; postgresUrl?: string; postgresPid?: number } = {},
): Promise<void> {
  let address = process.env.TEMPORAL_ADDRESS;
  let server: ReturnType<typeof spawn> | undefined;
  let goServer: GoServer | undefined;
  const { postgresPid } = options;
  if (!address) {
    // The server in its own process, as npm start and production run it (and so it gets its own core).
    const port = await freePort();
    if (options.postgresUrl) {
      goServer = await startGoServer({ port, postgresUrl: options.postgresUrl, databasePrefix: `bench_${Date.now()}` });
    } else {
      const db = options.dbFile ? ['--db-filename', options.dbFile, ...SQLITE_PRAGMAS] : [];
      server = spawn(
        installedCliPath(),
        ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--headless', '--log-level', 'error', ...db, ...DEV_ARGS],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
    }
    address = `127.0.0.1:${port}`;
  }
  const serverPid = server?.pid ?? goServer?.child.pid;
  let connection: Connection | undefined;
  for (let i = 0; i < 100 && !connection; i++) {
    connection = await Connection.connect({ address, connectTimeout: 200 }).catch(() => undefined);
    if (!connection) await new Promise((r) => setTimeout(r, 50));
  }
  if (!connection) throw new Error(`cannot connect to ${address}`);
  const nativeConnection = await NativeConnection.connect({ address });
  const client = new Client({ connection: process.env.CLIENT === 'grpc-js' ? connection : nativeConnection });
  const taskQueue = `bench-${Date.now()}`;
  let confirmed = 0;
  const worker = await Worker.create({
    connection: nativeConnection,
    taskQueue,
    workflowBundle,
    activities: {
      echo: async (s: string) => {
        if (s === 'email') confirmed += 1;
        return s;
      },
    },
    workflowThreadPoolSize: WORKFLOW_THREADS,
    ...(process.env.NON_STICKY_RATIO ? { nonStickyToStickyPollRatio: Number(process.env.NON_STICKY_RATIO) } : {}),
    ...(process.env.MAX_CACHED ? { maxCachedWorkflows: Number(process.env.MAX_CACHED) } : {}),
  });

  const latencies: number[] = [];
  let next = 0;
  const started = Date.now();
  const benchCpuBefore = process.cpuUsage();
  const machineBefore = machineCpuCounters();
  const serverCpuBefore = processTreeCpuMs(serverPid);
  const postgresCpuBefore = processTreeCpuMs(postgresPid);
  await worker.runUntil(async () => {
    const lane = async () => {
      while (next < N) {
        const i = next++;
        const t0 = performance.now();
        const r = await client.workflow.execute('activityAndTimer', { taskQueue, workflowId: `bench-${taskQueue}-${i}` });
        if (r !== 'bench') throw new Error(`unexpected result ${r}`);
        latencies.push(performance.now() - t0);
      }
    };
    if (SHAPE === 'booking') {
      // open loop: each workflow is started at its own offset; done once every one has run its local activities
      await Promise.all(
        Array.from({ length: N }, (_, i) =>
          new Promise<void>((resolve) => setTimeout(resolve, (i * 1000) / RATE)).then(async () => {
            const t0 = performance.now();
            await client.workflow.signalWithStart('bookingShape', { taskQueue, workflowId: `bench-${taskQueue}-${i}`, signal: 'event', signalArgs: [1] });
            latencies.push(performance.now() - t0);
          }),
        ),
      );
      while (confirmed < N) await new Promise((r) => setTimeout(r, 50));
      return;
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  });
  const seconds = (Date.now() - started) / 1000;
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const machine = machineShares(machineBefore, machineCpuCounters());
  const serverCpu = processTreeCpuMs(serverPid) - serverCpuBefore;
  const postgresCpu = processTreeCpuMs(postgresPid) - postgresCpuBefore;
  latencies.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      node: process.version,
      server: serverOf(store),
      store,
      shape: SHAPE,
      ...(SHAPE === 'booking' ? { rate: RATE } : {}),
      ...(DEV_ARGS.length ? { devArgs: DEV_ARGS.join(' ') } : {}),
      workflows: N,
      concurrency: CONCURRENCY,
      workflowThreads: WORKFLOW_THREADS,
      client: process.env.CLIENT === 'grpc-js' ? 'grpc-js' : 'native',
      seconds: Number(seconds.toFixed(2)),
      workflowsPerSecond: Number((N / seconds).toFixed(1)),
      p50ms: Number(percentile(latencies, 50).toFixed(1)),
      p99ms: Number(percentile(latencies, 99).toFixed(1)),
      maxMs: Number(latencies[latencies.length - 1].toFixed(1)),
      // CPU per workflow: this process (client, SDK worker and its threads) and the server process.
      cpuMsPerWorkflow: {
        clientAndWorker: Number(((benchCpu.user + benchCpu.system) / 1000 / N).toFixed(2)),
        ...(serverPid ? { server: Number((serverCpu / N).toFixed(2)) } : {}),
        ...(postgresPid ? { postgres: Number((postgresCpu / N).toFixed(2)) } : {}),
      },
      // The whole machine over the run: busy share of all cores, and time the hypervisor gave to others.
      machine,
    }),
  );
  await connection.close();
  await nativeConnection.close();
  if (server) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await goServer?.stop();
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR'), telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } } });
  const workflowsPath = path.resolve(__dirname, '../../bench/temporal-workflows.ts');
  const workflowBundle = await bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('ERROR') });
  ensureOfficialTemporal();
  const stores = process.env.TEMPORAL_ADDRESS ? ['external'] : process.env.STORE ? [process.env.STORE] : ['memory', 'sqlite', 'postgres'];
  if (stores.includes('postgres')) ensureGoServer();
  for (const store of stores) {
    if (store === 'sqlite') {
      // the dev server keeps its runs in a SQLite file, as npm start runs it
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-bench-sqlite-'));
      try {
        await runOnce(store, workflowBundle, { dbFile: path.join(dataDir, 'temporal.db') });
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    } else if (store === 'postgres') {
      // the production engine on a Postgres of its own, so no run restores the runs of the one before
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-bench-pg-'));
      const pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), persistent: false, database: 'bench' });
      try {
        const postmasterPid = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
        await runOnce(store, workflowBundle, { postgresUrl: pg.url, postgresPid: postmasterPid });
      } finally {
        await pg.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    } else if (store === 'memory' || store === 'external') {
      await runOnce(store, workflowBundle);
    } else {
      throw new Error(`STORE=${store}: memory, sqlite or postgres`);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
