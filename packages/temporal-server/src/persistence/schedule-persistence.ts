// Dev-server role: keeps every schedule in a ScheduleStore, written behind the engine (a few ms
// after each change) and on shutdown, and restored at start-up after the runs, so a schedule
// knows which of its workflows still run. A restored schedule acts on the times it missed while
// the server was down, within its catch-up window.
import type { ScheduleState } from '../rpc/schedule/schedule-state';
import { jsonWithBytes, parseJsonWithBytes } from '../state/run-state';
import type { ScheduleRow, ScheduleStore } from './schedule-store';
import { WriteBehind } from './write-behind';

const keyOf = (s: ScheduleState) => `${s.namespace}\u0000${s.scheduleId}`;

export class SchedulePersistence {
  private readonly writes: WriteBehind<ScheduleState, ScheduleRow>;

  constructor(private readonly store: ScheduleStore) {
    this.writes = new WriteBehind({
      toRow: (s) => ({ namespace: s.namespace, scheduleId: s.scheduleId, json: jsonWithBytes(s) }),
      save: (rows) => store.saveAll(rows),
      what: 'schedules',
    });
  }

  changed(s: ScheduleState): void {
    this.writes.changed(keyOf(s), s);
  }

  deleted(s: ScheduleState): void {
    this.writes.drop(keyOf(s));
    this.writes.then(() => this.store.delete(s.namespace, s.scheduleId), 'deleting a schedule');
  }

  flush(): Promise<void> {
    return this.writes.flush();
  }

  /** Hands every stored schedule to `schedules` (which re-arms it). */
  async restore(schedules: { restore(s: ScheduleState): void }): Promise<void> {
    for (const text of await this.store.loadAll()) schedules.restore(parseJsonWithBytes(text) as ScheduleState);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.store.close();
  }
}
