// Public surface of the salon Temporal dev server.
export { startDevServer } from './server';
export type { DevServer, DevServerOptions } from './server';
