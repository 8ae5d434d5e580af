// Where schedules live between restarts (dev-server role): Postgres, one row per schedule with its
// state as JSON, next to the runs table and separated by the same store id.
import type { Pool } from 'pg';
import { storePool } from './store-pool';

export interface ScheduleRow { namespace: string; scheduleId: string; json: string }

export interface ScheduleStore {
  loadAll(): Promise<string[]>;
  saveAll(rows: ScheduleRow[]): Promise<void>;
  delete(namespace: string, scheduleId: string): Promise<void>;
  close(): Promise<void>;
}

export class PostgresScheduleStore implements ScheduleStore {
  private readonly pool: Pool;
  private ready?: Promise<void>;

  constructor(databaseUrl: string, private readonly storeId = 'default') {
    this.pool = storePool(databaseUrl, 1);
  }

  private init(): Promise<void> {
    this.ready ??= this.pool.query(`
      CREATE TABLE IF NOT EXISTS temporal_devserver_schedules (
        store_id text NOT NULL,
        namespace text NOT NULL,
        schedule_id text NOT NULL,
        state text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (store_id, namespace, schedule_id)
      )`).then(() => undefined);
    return this.ready;
  }

  async loadAll(): Promise<string[]> {
    await this.init();
    const res = await this.pool.query('SELECT state FROM temporal_devserver_schedules WHERE store_id = $1', [this.storeId]);
    return res.rows.map((r: { state: string }) => r.state);
  }

  async saveAll(rows: ScheduleRow[]): Promise<void> {
    if (!rows.length) return;
    await this.init();
    await this.pool.query(
      `INSERT INTO temporal_devserver_schedules (store_id, namespace, schedule_id, state)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[])
       ON CONFLICT (store_id, namespace, schedule_id) DO UPDATE SET state = EXCLUDED.state, updated_at = now()`,
      [this.storeId, rows.map((r) => r.namespace), rows.map((r) => r.scheduleId), rows.map((r) => r.json)],
    );
  }

  async delete(namespace: string, scheduleId: string): Promise<void> {
    await this.init();
    await this.pool.query('DELETE FROM temporal_devserver_schedules WHERE store_id = $1 AND namespace = $2 AND schedule_id = $3', [this.storeId, namespace, scheduleId]);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
