import { Model } from 'objection';

/** booking_notifications (migrations 041, 042): one message on one channel, claimed before it is sent, stamped when it went out. */
export class BookingNotificationModel extends Model {
  static override tableName = 'booking_notifications';

  id!: string;
  bookingId!: string;
  tenantId!: string;
  kind!: string;
  /** 'SMS' | 'EMAIL' */
  channel!: string;
  dedupeKey!: string;
  sentAt!: Date | null;
  /** where it went and what it said (migration 210); cleared when the customer's data is erased */
  sentTo!: string | null;
  text!: string | null;
  createdAt!: Date;
}
