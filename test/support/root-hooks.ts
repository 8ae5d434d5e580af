// Loaded once by mocha (see .mocharc.json). The shared stack (embedded Postgres, app) is started
// lazily by test/support/stack.ts the first time a test asks for it and stopped here after the
// whole run, so pure unit tests never pay for it.
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { stopStack } from './stack';
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
  },
};
