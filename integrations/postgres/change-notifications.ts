// The ChangeNotifications port (domain/desk/change-notifications.ts) over Postgres LISTEN/NOTIFY:
// the bookings' and notices' trigger (migration 190) notifies `salon_changes` with the salon's id
// when a change commits; this process's one listening connection wakes the waiting reads of that
// salon. The connection opens with the first subscription.
import type { DbPool } from '../../db/db-handle';
import { listenForNotifications, type NotificationListener } from '../../db/notification-listener';
import type { ChangeNotifications, ChangeSubscription, ChangeWait } from '../../domain/desk/change-notifications';
import type { Logger } from '../logger';

export const CHANGES_CHANNEL = 'salon_changes';

interface Waiter {
  tenantId: string;
  notified: boolean;
  wake?: (outcome: ChangeWait) => void;
}

export function postgresChangeNotifications(knex: DbPool, logger?: Logger): ChangeNotifications {
  const waiters = new Set<Waiter>();
  let listener: NotificationListener | undefined;
  let closed = false;

  const notify = (waiter: Waiter) => {
    waiter.notified = true;
    waiter.wake?.('changed');
  };

  function listen(): NotificationListener {
    listener ??= listenForNotifications(knex, CHANGES_CHANNEL, {
      onNotify: (tenantId) => {
        for (const w of waiters) if (w.tenantId === tenantId) notify(w);
      },
      // notifications may have been missed while the connection was down: every waiting read looks again
      onResync: () => waiters.forEach(notify),
      onError: (err) => logger?.warn({ err }, 'the change notifications connection was lost; opening it again'),
    });
    return listener;
  }

  return {
    subscribe(tenantId): ChangeSubscription {
      if (!closed) listen();
      const waiter: Waiter = { tenantId, notified: false };
      if (!closed) waiters.add(waiter);
      return {
        next(ms) {
          if (closed) return Promise.resolve('closed');
          if (waiter.notified) {
            waiter.notified = false;
            return Promise.resolve('changed');
          }
          return new Promise<ChangeWait>((resolve) => {
            const timer = setTimeout(() => done('timeout'), ms);
            const done = (outcome: ChangeWait) => {
              clearTimeout(timer);
              waiter.wake = undefined;
              waiter.notified = false;
              resolve(outcome);
            };
            waiter.wake = done;
          });
        },
        close() {
          waiters.delete(waiter);
          waiter.wake?.('closed');
        },
      };
    },
    healthy: () => listener?.connected() ?? false,
    async close() {
      closed = true;
      for (const w of waiters) w.wake?.('closed');
      waiters.clear();
      await listener?.close();
    },
  };
}
