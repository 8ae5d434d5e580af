// Throughput benchmark for the built-in Temporal dev server (npm run bench:temporal; not a test).
// Starts N workflows, each running one activity and one short timer, against one worker, keeping
// CONCURRENCY workflows in flight, and prints workflows/second and start-to-result latencies:
// once with the server's in-memory store and once with its Postgres store (embedded Postgres in a
// temporary folder, as `npm start` keeps runs in the platform's database).
//
//   N=2000 CONCURRENCY=8 npm run bench:temporal   (the defaults)
//   STORE=memory | STORE=postgres    only one of the two
//   TEMPORAL_ADDRESS=host:port ...   benchmark an already running server instead of spawning ours
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { startEmbeddedPostgres } from '../devserver/postgres';

const N = Number(process.env.N ?? 2000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function runOnce(store: string, workflowBundle: WorkflowBundleWithSourceMap, databaseUrl?: string): Promise<void> {
  let address = process.env.TEMPORAL_ADDRESS;
  let server: ReturnType<typeof spawn> | undefined;
  if (!address) {
    // Our server in its own process, as bin/dev runs it (and so it gets its own core).
    const port = await freePort();
    const launcher = path.resolve(__dirname, '../devserver/temporal/launcher.js');
    const db = databaseUrl ? ['--database-url', databaseUrl] : [];
    server = spawn(process.execPath, [...(process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []), launcher, 'server', 'start-dev', '--port', String(port), '--headless', ...db], { stdio: ['ignore', 'ignore', 'inherit'] });
    address = `127.0.0.1:${port}`;
  }
  let connection: Connection | undefined;
  for (let i = 0; i < 100 && !connection; i++) {
    connection = await Connection.connect({ address, connectTimeout: 200 }).catch(() => undefined);
    if (!connection) await new Promise((r) => setTimeout(r, 50));
  }
  if (!connection) throw new Error(`cannot connect to ${address}`);
  const client = new Client({ connection });
  const nativeConnection = await NativeConnection.connect({ address });
  const taskQueue = `bench-${Date.now()}`;
  const worker = await Worker.create({
    connection: nativeConnection,
    taskQueue,
    workflowBundle,
    activities: { echo: async (s: string) => s },
    ...(process.env.WF_THREADS ? { workflowThreadPoolSize: Number(process.env.WF_THREADS) } : {}),
    ...(process.env.NON_STICKY_RATIO ? { nonStickyToStickyPollRatio: Number(process.env.NON_STICKY_RATIO) } : {}),
    ...(process.env.MAX_CACHED ? { maxCachedWorkflows: Number(process.env.MAX_CACHED) } : {}),
  });

  const latencies: number[] = [];
  let next = 0;
  const started = Date.now();
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
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  });
  const seconds = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(JSON.stringify({
    store,
    workflows: N,
    concurrency: CONCURRENCY,
    seconds: Number(seconds.toFixed(2)),
    workflowsPerSecond: Number((N / seconds).toFixed(1)),
    p50ms: Number(percentile(latencies, 50).toFixed(1)),
    p99ms: Number(percentile(latencies, 99).toFixed(1)),
    maxMs: Number(latencies[latencies.length - 1].toFixed(1)),
  }));
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
  const workflowsPath = path.resolve(__dirname, '../../test/devserver/workflows/index.ts');
  const workflowBundle = await bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('ERROR') });
  const stores = process.env.TEMPORAL_ADDRESS ? ['external'] : process.env.STORE ? [process.env.STORE] : ['memory', 'postgres'];
  for (const store of stores) {
    if (store !== 'postgres') {
      await runOnce(store, workflowBundle);
      continue;
    }
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-bench-pg-'));
    const pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), persistent: false, database: 'bench' });
    try {
      await runOnce(store, workflowBundle, pg.url);
    } finally {
      await pg.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
