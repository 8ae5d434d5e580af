// An open desk follows the salon's committed changes (docs/rules/front-desk.md#live-updates): it
// asks GET /schedule/changes from its cursor, waiting up to 25 seconds for a change each time; every
// answer with a change tells the desk, which reads the day again. After a failed read it waits two
// seconds and starts again from a fresh cursor, and tells the desk to read the day again (nothing is
// missed: the cursor is the database's).
import { api, call } from './api';

export interface LiveChange {
  bookingIds: string[];
  /** other staff members' bookings changed (STAFF), or more than one answer holds */
  others: boolean;
  notices: number;
}

const WAIT_S = 25;
const RETRY_MS = 2000;

export function followChanges(onChange: (change: LiveChange) => void, onHealth: (up: boolean) => void): () => void {
  let stopped = false;
  let cursor: string | null = null;
  const controller = new AbortController();

  async function loop(): Promise<void> {
    while (!stopped) {
      const answer = await call(() =>
        cursor === null
          ? api.GET('/schedule/changes', { signal: controller.signal })
          : api.GET('/schedule/changes', { params: { query: { after: cursor, wait: WAIT_S } }, signal: controller.signal }),
      );
      if (stopped) return;
      if (!answer.ok) {
        onHealth(false);
        const hadCursor = cursor !== null;
        cursor = null;
        await new Promise((r) => setTimeout(r, RETRY_MS));
        if (hadCursor && !stopped) onChange({ bookingIds: [], others: true, notices: 0 });
        continue;
      }
      onHealth(true);
      const changes = answer.data.data;
      const first = cursor === null;
      cursor = changes.cursor;
      if (!first && (changes.bookings.length || changes.hidden || changes.notices || changes.more))
        onChange({ bookingIds: changes.bookings.map((b) => b.id), others: changes.hidden > 0 || changes.more, notices: changes.notices });
    }
  }

  void loop();
  return () => {
    stopped = true;
    controller.abort();
  };
}
