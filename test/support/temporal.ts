// Temporal for tests: the official engine pinned in devstack/official-temporal/versions.json, the
// one Temporal the platform runs on (docs/temporal-engines.md):
//
//   startTestTemporal(): Promise<TestTemporal>
//     The official CLI's `temporal server start-dev` (in memory), one per mocha run: started on first
//     use, shared by every caller, stopped by stopTestTemporal() (the stack's stop). Use
//     `address` with NativeConnection.connect({ address }) / Connection.connect({ address });
//     namespace 'default', the platform's search attributes registered.
//
//   startTemporalFrontend({ port, postgresUrl, databasePrefix? }): Proc
//     The production engine as the Temporal frontend of the production topology tests:
//     go.temporal.io/server at the pinned version (built by `npm test` with the machine's Go,
//     devstack/official-temporal/go-server.ts), persistence and visibility in two databases of the
//     Postgres at `postgresUrl` (the suite's). A restart with the same `databasePrefix` keeps the runs.
//
//   createTimeSkippingEnv(opts?): Promise<TestWorkflowEnvironment>
//     TestWorkflowEnvironment.createTimeSkipping() on the Java time-skipping test server: time skips
//     while the test awaits a workflow result or env.sleep(). Call env.teardown() when done.
//
// The CLI and the test server are installed by `npm ci` (and by `npm test` when missing).
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { TimeSkippingTestWorkflowEnvironmentOptions } from '@temporalio/testing';
import { startOfficialDevServer } from '../../devstack/official-temporal/dev-server';
import { installedCliPath, installedTestServerPath } from '../../devstack/official-temporal/paths';
import { ensureOfficialTemporal } from '../../devstack/official-temporal/install';
import { startGoServer } from '../../devstack/official-temporal/go-server';
import { registerPlatformSearchAttributes } from '../../devstack/official-temporal/search-attributes';
import type { Proc } from './processes';

/** The official CLI, installed first when missing (as npm test does). */
export function officialCli(): string {
  ensureOfficialTemporal();
  return installedCliPath();
}

export interface TestTemporal {
  address: string;
  shutdown(): Promise<void>;
}

/**
 * The tests' dev server is `npm start`'s with one setting changed: a timer fires when it is due, not
 * up to a second later. The server schedules no timer sooner than `history.timerProcessorMaxTimeShift`
 * (1 s, a margin for clock skew between the hosts of a cluster; this is one process) from now, so a
 * deadline already passed (an expired payment's, a past hold's: `condition(..., 1)`) waited a second
 * (bench: a workflow with a 5 ms timer, 1,035 ms p50 start to result, 115 ms with 10 ms).
 */
export const TEST_DYNAMIC_CONFIG = { 'history.timerProcessorMaxTimeShift': '10ms' };

let shared: Promise<TestTemporal> | undefined;

export function startTestTemporal(): Promise<TestTemporal> {
  shared ??= (async (): Promise<TestTemporal> => {
    const server = await startOfficialDevServer({ cli: officialCli(), dynamicConfig: TEST_DYNAMIC_CONFIG });
    return { address: server.address, shutdown: () => server.stop() };
  })();
  return shared;
}

/**
 * The production engine (the Go-built server on Postgres) on 127.0.0.1:`port`, as a process of its
 * own. Its databases are `<databasePrefix>` and `<databasePrefix>_visibility` on the Postgres at
 * `postgresUrl` (default prefix: per process and port); the same prefix again keeps the runs.
 */
export async function startTemporalFrontend(options: { port: number; postgresUrl: string; databasePrefix?: string }): Promise<Proc> {
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

export async function createTimeSkippingEnv(opts: TimeSkippingTestWorkflowEnvironmentOptions = {}): Promise<TestWorkflowEnvironment> {
  ensureOfficialTemporal();
  const env = await withStartRetries(() =>
    TestWorkflowEnvironment.createTimeSkipping({
      ...opts,
      server: { ...opts.server, executable: { type: 'existing-path', path: installedTestServerPath() } },
    }),
  );
  await registerPlatformSearchAttributes(env.connection, env.namespace ?? 'default');
  return env;
}

/**
 * The SDK gives a launched server 5 s (not configurable) to accept connections; on a busy 2-core
 * machine starting it can take longer. That one failure is a slow start, not a broken server, so it
 * is tried again (twice); any other failure is the test's.
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
