// Temporal helpers for tests, backed by our own server in devserver/temporal (nothing downloaded).
//
//   startTestTemporal(): Promise<DevServer>
//     One in-process dev server per mocha run (port picked by the OS, shared by every caller and
//     stopped by stopTestTemporal(), which the root hooks may call). Use `server.address` with
//     NativeConnection.connect({ address }) / Connection.connect({ address }); namespace 'default'.
//
//   createTimeSkippingEnv(opts?): Promise<TestWorkflowEnvironment>
//     TestWorkflowEnvironment.createTimeSkipping() with the server executable pointed at our compiled
//     launcher (dist/devserver/temporal/launcher.js, produced by `npm run build`). Time skips while
//     the test awaits a workflow result or env.sleep(). Call env.teardown() when done.
//
//   createLocalEnv(opts?): Promise<TestWorkflowEnvironment>
//     TestWorkflowEnvironment.createLocal() with the same launcher in dev-server mode (no skipping).
//
//   launcherPath: absolute path of the compiled launcher.
import * as path from 'node:path';
import * as fs from 'node:fs';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalTestWorkflowEnvironmentOptions, TimeSkippingTestWorkflowEnvironmentOptions } from '@temporalio/testing';
import { startDevServer, DevServer } from '../../devserver/temporal';

export const launcherPath = path.resolve(__dirname, '../../dist/devserver/temporal/launcher.js');

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

function assertLauncherBuilt(): void {
  if (!fs.existsSync(launcherPath)) {
    throw new Error(`${launcherPath} is missing: run "npm run build" first (the SDK spawns the compiled launcher)`);
  }
}

export function createTimeSkippingEnv(opts: TimeSkippingTestWorkflowEnvironmentOptions = {}): Promise<TestWorkflowEnvironment> {
  assertLauncherBuilt();
  return TestWorkflowEnvironment.createTimeSkipping({
    ...opts,
    server: { ...opts.server, executable: { type: 'existing-path', path: launcherPath } },
  });
}

export function createLocalEnv(opts: LocalTestWorkflowEnvironmentOptions = {}): Promise<TestWorkflowEnvironment> {
  assertLauncherBuilt();
  return TestWorkflowEnvironment.createLocal({
    ...opts,
    server: { ...opts.server, executable: { type: 'existing-path', path: launcherPath } },
  });
}
