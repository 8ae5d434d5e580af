// One Postgres table of a store's state rows (runs, schedules, standalone activities): created on
// first use, read once at start-up, written in batches of upserts, rows separated by store id so
// several servers can share a database. Each row is a few key columns plus the state as JSON.
import type { Pool } from 'pg';
import { storePool } from './store-pool';

export interface StateTableSpec {
  table: string;
  /** Columns before `state`, in order, with their SQL type. */
  columns: { name: string; type: 'text' | 'bigint' }[];
  /** The columns that, with the store id, identify a row. */
  key: string[];
  /** Load order (e.g. creation order), if it matters. */
  orderBy?: string;
}

export interface StateRow {
  /** One value per column of the spec, in order. */
  values: (string | number)[];
  json: string;
}

export class StateTable {
  private readonly pool: Pool;
  private ready?: Promise<void>;

  constructor(
    databaseUrl: string,
    private readonly storeId: string,
    private readonly spec: StateTableSpec,
    poolSize: number,
  ) {
    this.pool = storePool(databaseUrl, poolSize);
  }

  private init(): Promise<void> {
    const { table, columns, key } = this.spec;
    this.ready ??= this.pool
      .query(
        `
      CREATE TABLE IF NOT EXISTS ${table} (
        store_id text NOT NULL,
        ${columns.map((c) => `${c.name} ${c.type} NOT NULL,`).join('\n        ')}
        state text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (store_id, ${key.join(', ')})
      )`,
      )
      .then(() => undefined);
    return this.ready;
  }

  async loadAll(): Promise<string[]> {
    await this.init();
    const order = this.spec.orderBy ? ` ORDER BY ${this.spec.orderBy}` : '';
    const res = await this.pool.query(`SELECT state FROM ${this.spec.table} WHERE store_id = $1${order}`, [this.storeId]);
    return res.rows.map((r: { state: string }) => r.state);
  }

  async saveAll(rows: StateRow[]): Promise<void> {
    if (!rows.length) return;
    await this.init();
    const { table, columns, key } = this.spec;
    const arrays = columns.map((c, i) => `$${i + 2}::${c.type}[]`);
    await this.pool.query(
      `INSERT INTO ${table} (store_id, ${columns.map((c) => c.name).join(', ')}, state)
       SELECT $1, * FROM unnest(${[...arrays, `$${columns.length + 2}::text[]`].join(', ')})
       ON CONFLICT (store_id, ${key.join(', ')}) DO UPDATE SET state = EXCLUDED.state, updated_at = now()`,
      [this.storeId, ...columns.map((_c, i) => rows.map((r) => r.values[i])), rows.map((r) => r.json)],
    );
  }

  /** Deletes the rows whose `column` is one of `values`, plus any extra conditions on other columns. */
  async deleteWhere(conditions: Record<string, string | string[]>): Promise<void> {
    await this.init();
    const clauses: string[] = [];
    const params: unknown[] = [this.storeId];
    for (const [column, value] of Object.entries(conditions)) {
      params.push(value);
      clauses.push(Array.isArray(value) ? `${column} = ANY($${params.length}::text[])` : `${column} = $${params.length}`);
    }
    await this.pool.query(`DELETE FROM ${this.spec.table} WHERE store_id = $1 AND ${clauses.join(' AND ')}`, params);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
