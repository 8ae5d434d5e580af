// The dev server's Postgres stores keep working when the server closes their idle connections (a
// Postgres restart, or embedded Postgres stopping first as `npm start` shuts down): no uncaught
// 'error' that would kill the process, and the next query gets a fresh connection.
import { expect } from 'chai';
import { Client } from 'pg';
import { storePool } from '../src/persistence/store-pool';
import { testDatabaseUrl } from './support/postgres';

describe('dev server store pool', () => {
  it('when Postgres terminates its idle connection then nothing is thrown and the next query works', async function () {
    this.timeout(120_000);
    const databaseUrl = await testDatabaseUrl();
    const pool = storePool(databaseUrl, 1);
    const admin = new Client({ connectionString: databaseUrl });
    await admin.connect();
    const uncaught: unknown[] = [];
    const record = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', record);
    try {
      const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      await new Promise((r) => setTimeout(r, 200)); // the idle client notices the closed socket
      const again = await pool.query<{ one: number }>('SELECT 1 AS one');
      expect(again.rows[0].one).to.equal(1);
      expect(uncaught).to.deep.equal([]);
    } finally {
      process.removeListener('uncaughtException', record);
      await admin.end();
      await pool.end();
    }
  });
});
