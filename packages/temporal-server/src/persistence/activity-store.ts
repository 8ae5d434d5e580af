// Where standalone activity executions live between restarts (dev-server role): Postgres, one row
// per execution with its state as JSON, next to the runs table and separated by the same store id,
// read in creation order so the latest execution of an activity id becomes its current one.
import { StateTable } from './state-table';

export interface ActivityRow {
  runId: string;
  namespace: string;
  activityId: string;
  seq: number;
  json: string;
}

export interface ActivityStore {
  loadAll(): Promise<string[]>;
  saveAll(rows: ActivityRow[]): Promise<void>;
  delete(runIds: string[]): Promise<void>;
  close(): Promise<void>;
}

export class PostgresActivityStore implements ActivityStore {
  private readonly table: StateTable;

  constructor(databaseUrl: string, storeId = 'default') {
    this.table = new StateTable(
      databaseUrl,
      storeId,
      {
        table: 'temporal_devserver_activities',
        columns: [
          { name: 'run_id', type: 'text' },
          { name: 'namespace', type: 'text' },
          { name: 'activity_id', type: 'text' },
          { name: 'seq', type: 'bigint' },
        ],
        key: ['run_id'],
        orderBy: 'seq',
      },
      1,
    );
  }

  loadAll(): Promise<string[]> {
    return this.table.loadAll();
  }

  saveAll(rows: ActivityRow[]): Promise<void> {
    return this.table.saveAll(rows.map((r) => ({ values: [r.runId, r.namespace, r.activityId, r.seq], json: r.json })));
  }

  async delete(runIds: string[]): Promise<void> {
    if (runIds.length) await this.table.deleteWhere({ run_id: runIds });
  }

  close(): Promise<void> {
    return this.table.close();
  }
}
