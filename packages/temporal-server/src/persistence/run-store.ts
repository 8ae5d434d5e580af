// Where run state lives between restarts (dev-server role). Postgres, one row per run, written
// behind the engine (a few ms after each change) and read once at start-up, in creation order.
// Several servers can share a database by using different store ids.
import { StateTable } from './state-table';

export interface RunRow {
  runId: string;
  namespace: string;
  workflowId: string;
  seq: number;
  json: string;
}

export interface RunStore {
  loadAll(): Promise<string[]>;
  saveAll(rows: RunRow[]): Promise<void>;
  deleteRuns(runIds: string[]): Promise<void>;
  close(): Promise<void>;
}

export class PostgresRunStore implements RunStore {
  private readonly table: StateTable;

  constructor(databaseUrl: string, storeId = 'default') {
    this.table = new StateTable(
      databaseUrl,
      storeId,
      {
        table: 'temporal_devserver_runs',
        columns: [
          { name: 'run_id', type: 'text' },
          { name: 'namespace', type: 'text' },
          { name: 'workflow_id', type: 'text' },
          { name: 'seq', type: 'bigint' },
        ],
        key: ['run_id'],
        orderBy: 'seq',
      },
      2,
    );
  }

  loadAll(): Promise<string[]> {
    return this.table.loadAll();
  }

  saveAll(rows: RunRow[]): Promise<void> {
    return this.table.saveAll(rows.map((r) => ({ values: [r.runId, r.namespace, r.workflowId, r.seq], json: r.json })));
  }

  async deleteRuns(runIds: string[]): Promise<void> {
    if (runIds.length) await this.table.deleteWhere({ run_id: runIds });
  }

  close(): Promise<void> {
    return this.table.close();
  }
}
