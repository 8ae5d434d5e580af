// Temporal helpers for tests, on one of two engines (TEMPORAL_ENGINE, default `builtin`):
//   builtin   our own server, the workspace package @salon/temporal-server (in-process, and its
//             compiled launcher; after editing the package, `npm run build -w @salon/temporal-server`);
//   official  the official engine of versions.json: `temporal server start-dev` (the CLI) and the
//             Java time-skipping test server, installed by `npm run temporal:install` (run here
//             when missing). `npm test` runs the workflow, e2e, production and crash suites on both.
//   official-postgres  for the production tests only (`npm run test:temporal-postgres`): the Temporal
//             frontend is go.temporal.io/server at the pinned version, built by `npm run
//             temporal:build-server`, on Postgres persistence and visibility (the suite's Postgres).
//
//   startTestTemporal(): Promise<TestTemporal>
//     One dev server per mocha run (port picked by the OS, shared by every caller and stopped by
//     stopTestTemporal(), which the root hooks may call). Use `server.address` with
//     NativeConnection.connect({ address }) / Connection.connect({ address }); namespace 'default'.
//
//   startTemporalFrontend({ port, dbFile? }): Proc
//     The engine's dev server as a process of its own, for the production topology tests (the
//     Temporal frontend at TEMPORAL_ADDRESS); `dbFile` keeps its runs across a restart.
//
//   createTimeSkippingEnv(opts?): Promise<TestWorkflowEnvironment>
//     TestWorkflowEnvironment.createTimeSkipping() with the server executable pointed at the
//     engine's time-skipping server: the package's compiled launcher (its `launcherPath`) or the official Java test server. Time skips while the test
//     awaits a workflow result or env.sleep(). Call env.teardown() when done.
//
//   createLocalEnv(opts?): Promise<TestWorkflowEnvironment>
//     TestWorkflowEnvironment.createLocal() with the built-in launcher in dev-server mode (no
//     skipping); the built-in server's own tests use it.
//
//   launcherPath / ensureLauncherBuilt(): absolute path of the compiled launcher (the latter fails
//     with what to run when it is missing).
import * as fs from 'node:fs';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalTestWorkflowEnvironmentOptions, TimeSkippingTestWorkflowEnvironmentOptions } from '@temporalio/testing';
import { startDevServer, launcherPath } from '@salon/temporal-server';
import { SQLITE_PRAGMAS, startOfficialDevServer } from '../../devstack/official-temporal/dev-server';
import { installedCliPath, installedTestServerPath } from '../../devstack/official-temporal/paths';
import { ensureOfficialTemporal } from '../../devstack/official-temporal/install';
import { startGoServer } from '../../devstack/official-temporal/go-server';
import { run, runExecutable, type Proc } from './processes';

export { launcherPath };

export type TemporalEngine = 'builtin' | 'official' | 'official-postgres';

function engineFromEnv(): TemporalEngine {
  const value = process.env.TEMPORAL_ENGINE ?? 'builtin';
  if (value !== 'builtin' && value !== 'official' && value !== 'official-postgres')
    throw new Error(`TEMPORAL_ENGINE is "${value}": builtin, official or official-postgres`);
  return value;
}

/** The engine these tests run on (TEMPORAL_ENGINE). */
export const temporalEngine: TemporalEngine = engineFromEnv();

/** The official CLI, installed first when missing (as npm test does). */
export function officialCli(): string {
  ensureOfficialTemporal();
  return installedCliPath();
}

export interface TestTemporal {
  engine: TemporalEngine;
  address: string;
  shutdown(): Promise<void>;
}

let shared: Promise<TestTemporal> | undefined;

export function startTestTemporal(): Promise<TestTemporal> {
  shared ??= (async (): Promise<TestTemporal> => {
    if (temporalEngine === 'builtin') {
      const server = await startDevServer({ port: 0, host: '127.0.0.1' });
      return { engine: 'builtin', address: server.address, shutdown: () => server.shutdown() };
    }
    const server = await startOfficialDevServer({ cli: officialCli() });
    return { engine: temporalEngine, address: server.address, shutdown: () => server.stop() };
  })();
  return shared;
}

/**
 * The engine's Temporal frontend as a process of its own on 127.0.0.1:`port` (headless): our
 * launcher, `temporal server start-dev`, or the Go-built server on Postgres. A restart keeps the
 * runs with `dbFile` (the CLI's SQLite file), `databaseUrl` (the built-in server's Postgres store) or
 * `databasePrefix` (the Go-built server's databases, made on the Postgres at `postgresUrl`, the
 * suite's; default per port).
 */
export async function startTemporalFrontend(options: {
  port: number;
  postgresUrl: string;
  dbFile?: string;
  databaseUrl?: string;
  databasePrefix?: string;
  env?: NodeJS.ProcessEnv;
}): Promise<Proc> {
  const args = ['server', 'start-dev', '--port', String(options.port), '--ip', '127.0.0.1', '--headless'];
  if (temporalEngine === 'builtin')
    return run(launcherPath, { ...options.env }, [...args, ...(options.databaseUrl ? ['--database-url', options.databaseUrl] : [])]);
  if (temporalEngine === 'official')
    return runExecutable(officialCli(), { ...options.env }, [
      ...args,
      '--log-level',
      'warn',
      ...(options.dbFile ? ['--db-filename', options.dbFile, ...SQLITE_PRAGMAS] : []),
    ]);
  const server = await startGoServer({
    port: options.port,
    postgresUrl: options.postgresUrl,
    databasePrefix: options.databasePrefix ?? `temporal_${process.pid}_${options.port}`,
  });
  const proc: Proc = { child: server.child, output: '', exited: new Promise((resolve) => server.child.once('exit', (code) => resolve(code))) };
  Object.defineProperty(proc, 'output', { get: () => server.output() });
  return proc;
}

export async function stopTestTemporal(): Promise<void> {
  const s = shared;
  shared = undefined;
  if (s) await (await s).shutdown();
}

/** The SDK spawns the launcher as compiled JavaScript: the package's build. */
export function ensureLauncherBuilt(): string {
  if (!fs.existsSync(launcherPath)) throw new Error(`${launcherPath} is missing: run npm run build (or npm run build -w @salon/temporal-server)`);
  return launcherPath;
}

export function createTimeSkippingEnv(opts: TimeSkippingTestWorkflowEnvironmentOptions = {}): Promise<TestWorkflowEnvironment> {
  let executable: string;
  if (temporalEngine !== 'builtin') {
    ensureOfficialTemporal();
    executable = installedTestServerPath();
  } else {
    executable = ensureLauncherBuilt();
  }
  return withStartRetries(() =>
    TestWorkflowEnvironment.createTimeSkipping({
      ...opts,
      server: { ...opts.server, executable: { type: 'existing-path', path: executable } },
    }),
  );
}

export function createLocalEnv(opts: LocalTestWorkflowEnvironmentOptions = {}): Promise<TestWorkflowEnvironment> {
  ensureLauncherBuilt();
  return withStartRetries(() =>
    TestWorkflowEnvironment.createLocal({
      ...opts,
      server: { ...opts.server, executable: { type: 'existing-path', path: launcherPath } },
    }),
  );
}

/**
 * The SDK gives a launched server 5 s (not configurable) to accept connections; on a busy 2-core
 * machine starting Node alone can take longer. That one failure is a slow start, not a broken
 * server, so it is tried again (twice); any other failure is the test's.
 */
async function withStartRetries<T>(start: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (attempt >= attempts || !/did not start within/.test(String((err as Error).message))) throw err;
    }
  }
}
