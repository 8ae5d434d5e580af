// Loaded once by mocha (see .mocharc.json). The shared stack (embedded Postgres, Temporal dev server,
// app, worker) is started lazily by test/support/stack.ts the first time a test asks for it and
// stopped here after the whole run, so pure unit tests never pay for it.
import { stopStack } from './stack';

export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopStack();
  },
};
