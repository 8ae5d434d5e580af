/**
 * The port that wakes a waiting read of the change cursor (docs/rules/front-desk.md#live-updates):
 * a notification that a salon's bookings or notices may have changed, sent by the database when the
 * change commits, to every api process. Filled by integrations/postgres/change-notifications.ts
 * (LISTEN/NOTIFY); without it the waiting read looks again every second.
 */
export type ChangeWait = 'changed' | 'timeout' | 'closed';

export interface ChangeSubscription {
  /**
   * 'changed' as soon as a change of the salon was notified since subscribing or since the last
   * call; otherwise waits up to `ms` for one. 'closed' once the notifications stop for good
   * (the process shuts down).
   */
  next(ms: number): Promise<ChangeWait>;
  close(): void;
}

export interface ChangeNotifications {
  subscribe(tenantId: string): ChangeSubscription;
  /** false while the listening connection is down (notifications may be missed then) */
  healthy(): boolean;
  /** ends every subscription at once (the process shuts down) */
  close(): Promise<void>;
}
