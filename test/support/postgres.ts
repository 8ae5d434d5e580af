// One embedded Postgres per mocha run, in a throw-away folder: the embedded stack's database
// (test/support/stack.ts) and the server the production topology tests make their own databases on
// (they need no stack: api, worker and Temporal run as processes of their own). Started on first use,
// stopped by the root hooks after the run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../devstack/postgres';

export interface SuitePostgres {
  /** the `salon` database (the stack's); other databases: the same URL with another name */
  url: string;
  /** a scratch folder beside it, removed with it */
  dir: string;
}

let started: Promise<SuitePostgres & { handle: EmbeddedPostgresHandle }> | undefined;

export function suitePostgres(): Promise<SuitePostgres> {
  started ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-test-pg-'));
    const handle = await startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), persistent: false });
    return { url: handle.url, dir, handle };
  })();
  return started;
}

export async function stopSuitePostgres(): Promise<void> {
  const s = started;
  started = undefined;
  if (!s) return;
  const { handle, dir } = await s;
  await handle.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
