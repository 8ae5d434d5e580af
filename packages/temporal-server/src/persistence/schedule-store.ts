// Where schedules live between restarts (dev-server role): Postgres, one row per schedule with its
// state as JSON, next to the runs table and separated by the same store id.
import { StateTable } from './state-table';

export interface ScheduleRow {
  namespace: string;
  scheduleId: string;
  json: string;
}

export interface ScheduleStore {
  loadAll(): Promise<string[]>;
  saveAll(rows: ScheduleRow[]): Promise<void>;
  delete(namespace: string, scheduleId: string): Promise<void>;
  close(): Promise<void>;
}

export class PostgresScheduleStore implements ScheduleStore {
  private readonly table: StateTable;

  constructor(databaseUrl: string, storeId = 'default') {
    this.table = new StateTable(
      databaseUrl,
      storeId,
      {
        table: 'temporal_devserver_schedules',
        columns: [
          { name: 'namespace', type: 'text' },
          { name: 'schedule_id', type: 'text' },
        ],
        key: ['namespace', 'schedule_id'],
      },
      1,
    );
  }

  loadAll(): Promise<string[]> {
    return this.table.loadAll();
  }

  saveAll(rows: ScheduleRow[]): Promise<void> {
    return this.table.saveAll(rows.map((r) => ({ values: [r.namespace, r.scheduleId], json: r.json })));
  }

  delete(namespace: string, scheduleId: string): Promise<void> {
    return this.table.deleteWhere({ namespace, schedule_id: scheduleId });
  }

  close(): Promise<void> {
    return this.table.close();
  }
}
