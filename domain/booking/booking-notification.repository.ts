// Data access of booking_notifications: at most one message per (booking, channel, dedupe key). The
// row is claimed before the message goes out and stamped when the gateway took it, so a retry after
// a failure sends again and a retry after success sends nothing (the booking workflow's messages,
// the payment workflow's refund SMS).
import { fn, raw } from 'objection';
import { returnedRows } from '../../db/plain';
import type { Db } from '../../db/db-handle';
import { BookingNotificationModel } from '../../db/models/booking-notification.model';

export interface NotificationKey {
  bookingId: string;
  channel: 'SMS' | 'EMAIL';
  dedupeKey: string;
}

/**
 * The notification's row, created unless it exists: its id, and when it went out (null: not yet).
 * One statement: on a conflict the existing row is "updated" to itself, which makes RETURNING
 * answer with it (DO NOTHING would return nothing and need a second read).
 */
export async function claimBookingNotification(db: Db, key: NotificationKey, row: { tenantId: string; kind: string }): Promise<{ id: string; sentAt: Date | null }> {
  const [claim] = await returnedRows<{ id: string; sentAt: Date | null }>(
    BookingNotificationModel.query(db)
      .insert({ ...key, ...row })
      .onConflict(['bookingId', 'channel', 'dedupeKey'])
      .merge({ kind: raw('booking_notifications.kind') })
      .returning(['id', 'sentAt']),
  );
  if (!claim) throw new Error(`booking notification ${key.bookingId}/${key.channel}/${key.dedupeKey} was neither written nor found`);
  return claim;
}

/** Stamped with the database's clock once the gateway took the message. */
export async function markBookingNotificationSent(db: Db, id: string): Promise<void> {
  await BookingNotificationModel.query(db).patch({ sentAt: fn.now() }).where({ id });
}
