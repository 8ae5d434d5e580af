// bench:e2e's plumbing floor (issue 54): what the same libraries cost with nothing of the platform in
// them, beside the platform in the same run, on the same Temporal server and Postgres. Its processes
// (bench/floor/floor-api.ts, as many as the topology has api processes, and bench/floor/floor-worker.ts
// at the platform worker's CPU weight) are started for the phase and stopped after it.
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { freePort } from '../../devstack/postgres';
import { processCpuMs } from '../support/proc-cpu';

export interface FloorProcs {
  bases: string[];
  procs: { name: string; pid: number }[];
  doneAt(): Promise<Map<string, number>>;
  stop(): Promise<void>;
}

function node(file: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [file], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  process.once('exit', () => child.kill('SIGKILL'));
  return child;
}

async function answering(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  for (const until = Date.now() + timeoutMs; ;) {
    if (child.exitCode !== null) throw new Error(`the floor's ${url} process exited ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`the floor's ${url} did not answer`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The floor's table, its api processes and its worker; `dist` is the build bench/e2e.ts runs. */
export async function startFloor(options: {
  dist: string;
  databaseUrl: string;
  temporalAddress: string;
  apis: number;
  knex: Knex;
  env: NodeJS.ProcessEnv;
}): Promise<FloorProcs> {
  await options.knex.raw(
    `CREATE TABLE IF NOT EXISTS bench_floor (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), note text, created_at timestamptz NOT NULL DEFAULT now())`,
  );
  const env = { ...options.env, DATABASE_URL: options.databaseUrl, TEMPORAL_ADDRESS: options.temporalAddress, FLOOR_TASK_QUEUE: 'floor' };
  const healthPort = await freePort();
  const worker = node(path.join(options.dist, 'bench/floor/floor-worker.js'), { ...env, HEALTH_PORT: String(healthPort) });
  // the platform worker's weight beside its api (docker-compose.yml's cpu_shares, npm start's niceness)
  os.setPriority(worker.pid!, 19);
  const ports = await Promise.all(Array.from({ length: options.apis }, () => freePort()));
  const apis = ports.map((port) => node(path.join(options.dist, 'bench/floor/floor-api.js'), { ...env, PORT: String(port) }));
  const bases = ports.map((p) => `http://127.0.0.1:${p}`);
  for (const [i, base] of bases.entries()) await answering(`${base}/health`, apis[i]);
  // the worker bundles its workflow with webpack first: a minute and more on a saturated machine
  await answering(`http://127.0.0.1:${healthPort}/`, worker, 600_000);
  return {
    bases,
    procs: [...apis.map((a, i) => ({ name: `floor api ${i + 1}`, pid: a.pid! })), { name: 'floor worker', pid: worker.pid! }],
    async doneAt() {
      return new Map(Object.entries((await (await fetch(`http://127.0.0.1:${healthPort}/`)).json()) as Record<string, number>));
    },
    async stop() {
      await Promise.all(
        [...apis, worker].map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
              setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
            }),
        ),
      );
    },
  };
}

/** CPU ms of each named process. */
export function cpuOf(procs: { name: string; pid: number }[]): Map<string, number> {
  return new Map(procs.map((p) => [p.name, processCpuMs(p.pid)]));
}

/** The delays from each floor row's write to its run's last activity (ms), for the ids done so far. */
export async function floorDelays(knex: Knex, floor: FloorProcs, ids: string[]): Promise<number[]> {
  const done = await floor.doneAt();
  const rows = (await knex.raw(`SELECT id, extract(epoch FROM created_at) * 1000 AS created FROM bench_floor WHERE id = ANY(?::uuid[])`, [ids])).rows as {
    id: string;
    created: string;
  }[];
  return rows.filter((r) => done.has(r.id)).map((r) => done.get(r.id)! - Number(r.created));
}
