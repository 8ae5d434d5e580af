// Temporal helpers for tests, backed by our own server, the workspace package @salon/temporal-server
// (packages/temporal-server; nothing downloaded). The tests use its build (dist/, made by `npm run
// build`, as `npm ci` and `npm test` do); after editing the package, `npm run build -w
// @salon/temporal-server` before running a platform test file on its own.
//
//   startTestTemporal(): Promise<DevServer>
//     One in-process dev server per mocha run (port picked by the OS, shared by every caller and
//     stopped by stopTestTemporal(), which the root hooks may call). Use `server.address` with
//     NativeConnection.connect({ address }) / Connection.connect({ address }); namespace 'default'.
//
//   createTimeSkippingEnv(opts?): Promise<TestWorkflowEnvironment>
//     TestWorkflowEnvironment.createTimeSkipping() with the server executable pointed at the package's
//     compiled launcher (its `launcherPath`). Time skips while the test awaits a workflow result or
//     env.sleep(). Call env.teardown() when done.
//
//   createLocalEnv(opts?): Promise<TestWorkflowEnvironment>
//     TestWorkflowEnvironment.createLocal() with the same launcher in dev-server mode (no skipping).
//
//   launcherPath / ensureLauncherBuilt(): absolute path of the compiled launcher (the latter fails
//     with what to run when it is missing).
import * as fs from 'node:fs';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalTestWorkflowEnvironmentOptions, TimeSkippingTestWorkflowEnvironmentOptions } from '@temporalio/testing';
import { startDevServer, DevServer, launcherPath } from '@salon/temporal-server';

export { launcherPath };

let shared: Promise<DevServer> | undefined;

export function startTestTemporal(): Promise<DevServer> {
  shared ??= startDevServer({ port: 0, host: '127.0.0.1' });
  return shared;
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
  ensureLauncherBuilt();
  return withStartRetries(() =>
    TestWorkflowEnvironment.createTimeSkipping({
      ...opts,
      server: { ...opts.server, executable: { type: 'existing-path', path: launcherPath } },
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
