// Data access of booking_notifications: at most one message per (booking, channel, dedupe key). The
// row is claimed before the message goes out and stamped when the gateway took it, so a retry after
// a failure sends again and a retry after success sends nothing (the booking workflow's messages,
// the payment workflow's refund SMS).
import type { Db } from '../../db/db-handle';
import { runNamedStatement } from '../../db/named-statement';

export interface NotificationKey {
  bookingId: string;
  channel: 'SMS' | 'EMAIL';
  dedupeKey: string;
}

// A message's claim and its stamp are named statements (db/named-statement.ts): the worker sends
// them for every message, and knex's and objection's query path was about a seventh of its main
// thread (docs/performance.md).
const CLAIM = `INSERT INTO booking_notifications (booking_id, channel, dedupe_key, kind, tenant_id) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (booking_id, channel, dedupe_key) DO UPDATE SET kind = booking_notifications.kind
  RETURNING id, sent_at AS "sentAt"`;
const MARK_SENT = `UPDATE booking_notifications SET sent_at = CURRENT_TIMESTAMP(6), sent_to = ?, text = ? WHERE id = ?`;

/**
 * The notification's row, created unless it exists: its id, and when it went out (null: not yet).
 * One statement: on a conflict the existing row is "updated" to itself, which makes RETURNING
 * answer with it (DO NOTHING would return nothing and need a second read).
 */
export async function claimBookingNotification(
  db: Db,
  key: NotificationKey,
  row: { tenantId: string; kind: string },
): Promise<{ id: string; sentAt: Date | null }> {
  const [claim] = await runNamedStatement<{ id: string; sentAt: Date | null }>(db, {
    name: 'booking-notification-claim',
    sql: CLAIM,
    bindings: [key.bookingId, key.channel, key.dedupeKey, row.kind, row.tenantId],
  });
  if (!claim) throw new Error(`booking notification ${key.bookingId}/${key.channel}/${key.dedupeKey} was neither written nor found`);
  return claim;
}

/** What went out: its address and text (docs/rules/personal-data.md#what-is-kept). */
export interface SentMessage {
  to: string;
  text: string;
}

/** Stamped with the database's clock once the gateway took the message, with where it went and what it said. */
export async function markBookingNotificationSent(db: Db, id: string, sent: SentMessage | null = null): Promise<void> {
  await runNamedStatement(db, { name: 'booking-notification-sent', sql: MARK_SENT, bindings: [sent?.to ?? null, sent?.text ?? null, id] });
}
