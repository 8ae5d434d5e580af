// One LISTEN connection per process (docs/rules/front-desk.md#live-updates): Postgres delivers a
// NOTIFY on the channel to every connection listening on it when the notifying transaction commits.
// The connection is the pool's kind but outside the pool (a pooled one would be handed to queries
// and lose its LISTEN); a lost connection is opened again after a second, and `onResync` then says
// that notifications may have been missed meanwhile.
import type { Knex } from 'knex';
import type { Client, Notification } from 'pg';

export interface NotificationListener {
  /** whether the listening connection is up */
  connected(): boolean;
  close(): Promise<void>;
}

const RECONNECT_MS = 1000;

export function listenForNotifications(
  knex: Knex,
  channel: string,
  handlers: { onNotify(payload: string): void; onResync(): void; onError?(err: unknown): void },
): NotificationListener {
  let client: Client | undefined;
  let closed = false;
  let up = false;
  let retry: NodeJS.Timeout | undefined;
  const knexClient = knex.client as { acquireRawConnection(): Promise<Client>; destroyRawConnection(c: Client): Promise<void> };

  const lost = (err?: unknown) => {
    if (err) handlers.onError?.(err);
    const dead = client;
    client = undefined;
    up = false;
    if (dead) void knexClient.destroyRawConnection(dead).catch(() => undefined);
    if (!closed && !retry) retry = setTimeout(connect, RECONNECT_MS);
  };

  async function connect(): Promise<void> {
    retry = undefined;
    if (closed) return;
    try {
      const c = await knexClient.acquireRawConnection();
      if (closed) return void (await knexClient.destroyRawConnection(c).catch(() => undefined));
      client = c;
      c.on('notification', (n: Notification) => handlers.onNotify(n.payload ?? ''));
      c.on('error', lost);
      c.on('end', () => lost());
      // the channel name is ours, never input
      await c.query(`LISTEN ${channel}`);
      up = true;
      handlers.onResync();
    } catch (err) {
      lost(err);
    }
  }

  void connect();
  return {
    connected: () => up,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = undefined;
      up = false;
      if (c) await knexClient.destroyRawConnection(c).catch(() => undefined);
    },
  };
}
