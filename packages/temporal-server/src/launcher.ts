#!/usr/bin/env node
// Executable entry point (compiled to dist/launcher.js, made executable by the
// build). sdk-core spawns it as an "existing-path" server and gives it ~5 s to answer
// GetSystemInfo, then SIGKILLs it on teardown; so it listens first and exits when its parent dies.
import { parseLauncherArgs } from './launcher-args';
import { startDevServer } from './server';

const SEARCH_ATTRIBUTE_TYPES: Record<string, number> = { Text: 1, Keyword: 2, Int: 3, Double: 4, Bool: 5, Datetime: 6, KeywordList: 7 };

async function main(): Promise<void> {
  let config;
  try {
    config = parseLauncherArgs(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const server = await startDevServer({
    port: config.port,
    host: config.host,
    namespace: config.namespaces,
    timeSkipping: config.timeSkipping,
    databaseUrl: config.databaseUrl ?? process.env.TEMPORAL_DEVSERVER_DATABASE_URL,
    uiPort: config.uiPort,
  });
  if (config.startUnlocked) server.engine.clock.unlock();
  for (const [name, type] of Object.entries(config.searchAttributes)) {
    server.engine.searchAttributeTypes.set(name, SEARCH_ATTRIBUTE_TYPES[type] ?? 2);
  }
  console.error(
    `[temporal-devserver] ${config.mode === 'dev' ? 'dev server' : 'time-skipping test server'} listening on ${config.host}:${server.port}${server.uiUrl ? `, web UI on ${server.uiUrl}` : ''}`,
  );

  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    void server.shutdown().finally(() => process.exit(code));
    setTimeout(() => process.exit(code), 3000).unref();
  };
  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => stop(0));
  // Die with the parent: stdin is /dev/null when sdk-core spawns us, so watch the parent pid.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop(0);
  }, 500).unref();
  // Keep the process alive (the interval above is unref'd so it never blocks a clean exit).
  setInterval(() => undefined, 1 << 30);
}

main().catch((e) => {
  console.error('[temporal-devserver] failed to start:', e);
  process.exit(1);
});
