// The built-in Temporal dev server of `npm start` in a process of its own (forked by
// devstack/temporal-for-dev.ts), so workflow history writes and task dispatch use the second core
// instead of the api's event loop. Told what to serve by its environment; reports `{ ready, address,
// uiUrl }` over the IPC channel once it listens; stops on SIGTERM/SIGINT and when its parent goes.
import { startDevServer } from '@salon/temporal-server';

async function main(): Promise<void> {
  const env = process.env;
  const server = await startDevServer({
    port: Number(env.DEVSERVER_PORT),
    host: '127.0.0.1',
    databaseUrl: env.DEVSERVER_DATABASE_URL,
    storeId: env.DEVSERVER_STORE_ID,
    uiPort: Number(env.DEVSERVER_UI_PORT) || undefined,
  });
  await server.ready;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), 5000).unref();
    void server.shutdown().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
  process.send?.({ ready: true, address: server.address, uiUrl: server.uiUrl });
}

main().catch((err) => {
  console.error(`temporal dev server: ${(err as Error).message}`);
  process.exit(1);
});
