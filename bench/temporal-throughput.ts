// Throughput benchmark for a Temporal dev server (npm run bench:temporal; not a test): the built-in
// one, or with `-- --engine official` the official CLI's `temporal server start-dev` (installed by
// npm run temporal:install, run here when missing), printing the same figures for each.
// Starts N workflows, each running one activity and one short timer, against one worker, keeping
// CONCURRENCY workflows in flight, and prints workflows/second and start-to-result latencies:
// once with the server's in-memory store and once with the store `npm start` keeps its runs in: for
// the built-in server its Postgres store (embedded Postgres in a temporary folder, as npm start keeps
// runs in the platform's database), for the official CLI its SQLite file.
//
// Each line also prints the CPU each process spent per workflow and the machine's busy and stolen
// shares over the run: on a shared 2-core VM a run with steal above a few percent is not a quiet
// run, and its figures say more about the neighbours than about the server.
//
// The client and the worker live in this process and cost about three times the server's CPU, so
// they are set up the way a Temporal deployment tunes a worker on a small machine (both are SDK
// options, neither changes what the server does per workflow):
// - the client shares the worker's NativeConnection (Rust gRPC), instead of a second grpc-js
//   connection whose HTTP/2 framing runs on the JavaScript thread the worker also needs;
// - the worker runs workflows on two threads, one per core. With one (the SDK default with a
//   reused V8 context), every activation waits its turn on that thread, whose VM calls each start
//   and join a timeout watchdog; that thread, not the CPU, capped the run near 90 workflows/s.
//
//   N=2000 CONCURRENCY=12 npm run bench:temporal   (the defaults)
//   npm run bench:temporal -- --engine official      the official CLI's dev server instead
//   STORE=memory | STORE=postgres | STORE=sqlite    only one of the two
//   CLIENT=grpc-js                   the client on its own grpc-js connection
//   WF_THREADS=1                     the SDK's default workflow thread pool
//   TEMPORAL_ADDRESS=host:port ...   benchmark an already running server instead of spawning ours
//   SERVER_LAUNCHERS=a.js,b.js       spawn each of these dev server builds in turn (a before/after
//                                    comparison in one run, e.g. the launcher.js of
//                                    packages/temporal-server/dist in another worktree)
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { launcherPath } from '@salon/temporal-server';
import { startEmbeddedPostgres } from '../devstack/postgres';
import { ensureOfficialTemporal } from '../devstack/official-temporal/install';
import { installedCliPath } from '../devstack/official-temporal/paths';
import { SQLITE_PRAGMAS } from '../devstack/official-temporal/dev-server';

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
const engineArg = process.argv.indexOf('--engine');
const ENGINE = engineArg >= 0 ? process.argv[engineArg + 1] : 'builtin';
if (ENGINE !== 'builtin' && ENGINE !== 'official') throw new Error(`--engine ${ENGINE}: builtin or official`);

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

const LAUNCHERS = process.env.SERVER_LAUNCHERS?.split(',')
  .filter(Boolean)
  .map((l) => path.resolve(l)) ?? [launcherPath];

async function runOnce(
  store: string,
  workflowBundle: WorkflowBundleWithSourceMap,
  launcher: string,
  databaseUrl?: string,
  postgresPid?: number,
): Promise<void> {
  let address = process.env.TEMPORAL_ADDRESS;
  let server: ReturnType<typeof spawn> | undefined;
  if (!address) {
    // The server in its own process, as bin/dev runs it (and so it gets its own core).
    const port = await freePort();
    if (ENGINE === 'official') {
      const db = databaseUrl ? ['--db-filename', databaseUrl, ...SQLITE_PRAGMAS] : [];
      server = spawn(
        installedCliPath(),
        ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--headless', '--log-level', 'error', ...db, ...DEV_ARGS],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
    } else {
      const db = databaseUrl ? ['--database-url', databaseUrl] : [];
      server = spawn(
        process.execPath,
        [...(process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []), launcher, 'server', 'start-dev', '--port', String(port), '--headless', ...db],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
    }
    address = `127.0.0.1:${port}`;
  }
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
  const serverCpuBefore = processTreeCpuMs(server?.pid);
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
  const serverCpu = processTreeCpuMs(server?.pid) - serverCpuBefore;
  const postgresCpu = processTreeCpuMs(postgresPid) - postgresCpuBefore;
  latencies.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      node: process.version,
      engine: ENGINE,
      store,
      ...(LAUNCHERS.length > 1 ? { launcher } : {}),
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
        ...(server ? { server: Number((serverCpu / N).toFixed(2)) } : {}),
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
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR'), telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } } });
  const workflowsPath = path.resolve(__dirname, '../../bench/temporal-workflows.ts');
  const workflowBundle = await bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('ERROR') });
  const durable = ENGINE === 'official' ? 'sqlite' : 'postgres';
  if (ENGINE === 'official') ensureOfficialTemporal();
  const stores = process.env.TEMPORAL_ADDRESS ? ['external'] : process.env.STORE ? [process.env.STORE] : ['memory', durable];
  for (const store of stores) {
    for (const launcher of ENGINE === 'official' ? [installedCliPath()] : LAUNCHERS) {
      if (store === 'sqlite') {
        // the official CLI keeps its runs in a SQLite file, as npm start runs it
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-bench-sqlite-'));
        try {
          await runOnce(store, workflowBundle, launcher, path.join(dataDir, 'temporal.db'));
        } finally {
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
        continue;
      }
      if (store !== 'postgres') {
        await runOnce(store, workflowBundle, launcher);
        continue;
      }
      // A database of its own for each server, so none restores the runs of the one before.
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-bench-pg-'));
      const pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), persistent: false, database: 'bench' });
      try {
        const postmasterPid = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
        await runOnce(store, workflowBundle, launcher, pg.url, postmasterPid);
      } finally {
        await pg.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
