// Where run state lives between restarts (dev-server role). Postgres, one row per run, written
// behind the engine (a few ms after each change) and read once at start-up. Several servers can
// share a database by using different store ids.
import type { Pool } from 'pg';
import { storePool } from './store-pool';

export interface RunStore {
  loadAll(): Promise<string[]>;
  saveAll(rows: { runId: string; namespace: string; workflowId: string; seq: number; json: string }[]): Promise<void>;
  deleteRuns(runIds: string[]): Promise<void>;
  close(): Promise<void>;
}

export class PostgresRunStore implements RunStore {
  private readonly pool: Pool;
  private ready?: Promise<void>;

  constructor(databaseUrl: string, private readonly storeId = 'default') {
    this.pool = storePool(databaseUrl, 2);
  }

  private init(): Promise<void> {
    this.ready ??= this.pool.query(`
      CREATE TABLE IF NOT EXISTS temporal_devserver_runs (
        store_id text NOT NULL,
        run_id text NOT NULL,
        namespace text NOT NULL,
        workflow_id text NOT NULL,
        seq bigint NOT NULL,
        state text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (store_id, run_id)
      )`).then(() => undefined);
    return this.ready;
  }

  async loadAll(): Promise<string[]> {
    await this.init();
    const res = await this.pool.query('SELECT state FROM temporal_devserver_runs WHERE store_id = $1 ORDER BY seq', [this.storeId]);
    return res.rows.map((r: { state: string }) => r.state);
  }

  async saveAll(rows: { runId: string; namespace: string; workflowId: string; seq: number; json: string }[]): Promise<void> {
    if (!rows.length) return;
    await this.init();
    await this.pool.query(
      `INSERT INTO temporal_devserver_runs (store_id, run_id, namespace, workflow_id, seq, state)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[])
       ON CONFLICT (store_id, run_id) DO UPDATE SET state = EXCLUDED.state, updated_at = now()`,
      [this.storeId, rows.map((r) => r.runId), rows.map((r) => r.namespace), rows.map((r) => r.workflowId), rows.map((r) => r.seq), rows.map((r) => r.json)],
    );
  }

  async deleteRuns(runIds: string[]): Promise<void> {
    if (!runIds.length) return;
    await this.init();
    await this.pool.query('DELETE FROM temporal_devserver_runs WHERE store_id = $1 AND run_id = ANY($2::text[])', [this.storeId, runIds]);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
