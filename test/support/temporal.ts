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
//   launcherPath / ensureLauncherBuilt(): absolute path of the compiled launcher (compiled on
//     demand when missing or older than devserver/temporal sources, subfolders included).
import * as path from 'node:path';
import * as fs from 'node:fs';
import { execFileSync } from 'node:child_process';
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

/**
 * The SDK spawns the launcher as compiled JavaScript. `npm run build` produces it; when a single
 * test file runs without a build (or after editing the server), compile just the dev server.
 */
export function ensureLauncherBuilt(): string {
  const srcDir = path.resolve(__dirname, '../../devserver/temporal');
  const built = fs.existsSync(launcherPath) ? fs.statSync(launcherPath).mtimeMs : 0;
  const stale = fs.readdirSync(srcDir, { recursive: true }).some((f) => String(f).endsWith('.ts') && fs.statSync(path.join(srcDir, String(f))).mtimeMs > built);
  if (stale) {
    const tsc = require.resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', path.join(srcDir, 'tsconfig.build.json')], { stdio: 'inherit' });
  }
  if ((fs.statSync(launcherPath).mode & 0o111) === 0) fs.chmodSync(launcherPath, 0o755);
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
