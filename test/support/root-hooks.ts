// Loaded once by mocha (see .mocharc.json). The shared stack (app, worker, Temporal) and the run's
// Postgres are started lazily (test/support/stack.ts, test/support/postgres.ts) the first time a test
// asks for them and stopped here after the whole run, so pure unit tests never pay for them.
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { stack, stopStack } from './stack';
import { stopSuitePostgres } from './postgres';
import { closeSharedBrowser } from './chromium';

// Keep the Temporal SDK's own logs out of the test report unless asked for (TEST_TEMPORAL_LOG=INFO).
try {
  const level = (process.env.TEST_TEMPORAL_LOG ?? 'ERROR') as 'ERROR' | 'WARN' | 'INFO';
  Runtime.install({ logger: new DefaultLogger(level), telemetryOptions: { logging: { filter: { core: level, other: level }, forward: {} } } });
} catch {
  // already installed in this process
}

/** Suites that run without the shared stack: they start what they need themselves, or nothing. */
const WITHOUT_STACK = /[/\\]test[/\\](unit|production)[/\\]/;

export const mochaHooks = {
  // The stack starts before the first test that needs it rather than inside it: its start (Postgres,
  // migrations, Temporal, the worker) on a loaded machine takes longer than one test may.
  async beforeAll(this: Mocha.Context) {
    const files = (this.test?.parent?.suites ?? []).map((suite) => suite.file ?? '');
    if (!files.some((file) => file && !WITHOUT_STACK.test(file))) return;
    this.timeout(300_000);
    await stack();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await closeSharedBrowser();
    await stopStack();
    await stopSuitePostgres();
  },
};
