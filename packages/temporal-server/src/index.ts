// Public surface of the salon Temporal-compatible server: everything its users import comes from here.
import * as path from 'node:path';

export { startDevServer } from './server';
export type { DevServer, DevServerOptions } from './server';

/**
 * Absolute path of the compiled launcher, the executable the Temporal SDK's test environments spawn
 * as an "existing-path" server (`TestWorkflowEnvironment.createTimeSkipping()` / `createLocal()`).
 * It is `dist/launcher.js`, whether this module runs compiled (from dist/) or from source (src/).
 */
export const launcherPath = path.resolve(__dirname, '..', 'dist', 'launcher.js');
