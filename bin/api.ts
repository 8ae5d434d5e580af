#!/usr/bin/env node
// The HTTP API process. Needs DATABASE_URL (bin/dev starts an embedded database when it is unset).
import http from 'node:http';
import { loadConfig } from '../config';
import { createApp } from '../api/app';
import { startPlatform, type Platform } from '../devserver/platform';

export async function startApi(platform: Platform, port: number): Promise<http.Server> {
  const app = createApp(platform.deps);
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(port, resolve));
  return server;
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl) throw new Error('DATABASE_URL is required for bin/api (use `npm start` for the embedded stack)');
  const platform = await startPlatform(config);
  const server = await startApi(platform, config.port);
  platform.deps.logger.info({ port: config.port }, 'api listening');
  const shutdown = () => server.close(() => void platform.stop().then(() => process.exit(0)));
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
