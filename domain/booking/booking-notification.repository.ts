// Data access of booking_notifications: at most one message per (booking, channel, dedupe key). The
// row is claimed before the message goes out and stamped when the gateway took it, so a retry after
// a failure sends again and a retry after success sends nothing (the booking workflow's messages,
// the payment workflow's refund SMS).
import { fn } from 'objection';
import type { Db } from '../../db/db-handle';
import { BookingNotificationModel } from '../../db/models/booking-notification.model';

export interface NotificationKey {
  bookingId: string;
  channel: 'SMS' | 'EMAIL';
  dedupeKey: string;
}

/** The notification's row, created unless it exists: its id, and when it went out (null: not yet). */
export async function claimBookingNotification(db: Db, key: NotificationKey, row: { tenantId: string; kind: string }): Promise<{ id: string; sentAt: Date | null }> {
  await BookingNotificationModel.query(db).insert({ ...key, ...row }).onConflict(['bookingId', 'channel', 'dedupeKey']).ignore();
  const claim = await BookingNotificationModel.query(db).select('id', 'sentAt').findOne(key);
  if (!claim) throw new Error(`booking notification ${key.bookingId}/${key.channel}/${key.dedupeKey} vanished after its claim`);
  return { id: claim.id, sentAt: claim.sentAt };
}

/** Stamped with the database's clock once the gateway took the message. */
export async function markBookingNotificationSent(db: Db, id: string): Promise<void> {
  await BookingNotificationModel.query(db).patch({ sentAt: fn.now() }).where({ id });
}
