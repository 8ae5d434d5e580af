// The compiled launcher for the tests that spawn it (the SDK's TestWorkflowEnvironment, the
// launcher's own tests, the web UI's --ui-port). The SDK spawns it as JavaScript, so the tests run
// the build in dist/: `ensureLauncherBuilt()` compiles the package when dist/ is missing or older
// than any source file (a test file run on its own right after editing the server).
//
//   createTimeSkippingEnv(opts?): TestWorkflowEnvironment.createTimeSkipping() on our launcher.
//   createLocalEnv(opts?): TestWorkflowEnvironment.createLocal() on the same launcher (dev-server mode).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalTestWorkflowEnvironmentOptions, TimeSkippingTestWorkflowEnvironmentOptions } from '@temporalio/testing';
import { launcherPath } from '../../src';

const packageDir = path.resolve(__dirname, '../..');

export function ensureLauncherBuilt(): string {
  const srcDir = path.join(packageDir, 'src');
  const built = fs.existsSync(launcherPath) ? fs.statSync(launcherPath).mtimeMs : 0;
  const stale = fs.readdirSync(srcDir, { recursive: true }).some((f) => String(f).endsWith('.ts') && fs.statSync(path.join(srcDir, String(f))).mtimeMs > built);
  if (stale) {
    const tsc = require.resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', path.join(packageDir, 'tsconfig.build.json')], { stdio: 'inherit' });
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
