// Loaded once by mocha (see .mocharc.json). The shared stack (app, worker, Temporal) and the run's
// Postgres are started lazily (test/support/stack.ts, test/support/postgres.ts) the first time a test
// asks for them and stopped here after the whole run, so pure unit tests never pay for them.
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { stopStack } from './stack';
import { stopSuitePostgres } from './postgres';
import { closeSharedBrowser } from './chromium';

// Keep the Temporal SDK's own logs out of the test report unless asked for (TEST_TEMPORAL_LOG=INFO).
try {
  const level = (process.env.TEST_TEMPORAL_LOG ?? 'ERROR') as 'ERROR' | 'WARN' | 'INFO';
  Runtime.install({ logger: new DefaultLogger(level), telemetryOptions: { logging: { filter: { core: level, other: level }, forward: {} } } });
} catch {
  // already installed in this process
}

export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await closeSharedBrowser();
    await stopStack();
    await stopSuitePostgres();
  },
};
