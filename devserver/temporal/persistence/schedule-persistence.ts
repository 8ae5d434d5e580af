// Dev-server role: keeps every schedule in a ScheduleStore, written behind the engine (a few ms
// after each change) and on shutdown, and restored at start-up after the runs, so a schedule
// knows which of its workflows still run. A restored schedule acts on the times it missed while
// the server was down, within its catch-up window.
import type { ScheduleState } from '../api/schedule/schedule-state';
import { jsonWithBytes, parseJsonWithBytes } from '../state/run-state';
import type { ScheduleStore } from './schedule-store';

const WRITE_BEHIND_MS = 20;

export class SchedulePersistence {
  private dirty = new Map<string, ScheduleState>();
  private flushTimer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly store: ScheduleStore) {}

  changed(s: ScheduleState): void {
    this.dirty.set(`${s.namespace}\u0000${s.scheduleId}`, s);
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, WRITE_BEHIND_MS);
  }

  deleted(s: ScheduleState): void {
    this.dirty.delete(`${s.namespace}\u0000${s.scheduleId}`);
    this.flushing = this.flushing
      .then(() => this.store.delete(s.namespace, s.scheduleId))
      .catch((err) => console.error('[temporal-devserver] deleting a schedule failed', err));
  }

  flush(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    if (!this.dirty.size) return this.flushing;
    const rows = [...this.dirty.values()].map((s) => ({ namespace: s.namespace, scheduleId: s.scheduleId, json: jsonWithBytes(s) }));
    this.dirty.clear();
    this.flushing = this.flushing
      .then(() => this.store.saveAll(rows))
      .catch((err) => console.error('[temporal-devserver] storing schedules failed', err));
    return this.flushing;
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
