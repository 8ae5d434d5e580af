// The connection pool of a dev-server store. A pooled connection the server closes while idle
// (Postgres restarted, or stopped before us as `npm start` shuts down) raises 'error' on the pool;
// without a listener that is an uncaught exception that kills the process. The pool drops the dead
// connection and opens a new one on the next query, so there is nothing else to do.
//
// pg is loaded with the first store: a server without a database never needs it, and loading it
// at start-up delays the launcher's first answer.
import type { Pool } from 'pg';

export function storePool(databaseUrl: string, max: number): Pool {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pg = require('pg') as typeof import('pg');
  const pool = new pg.Pool({ connectionString: databaseUrl, max });
  pool.on('error', () => undefined);
  return pool;
}
