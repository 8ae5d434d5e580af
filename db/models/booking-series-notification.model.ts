import { Model } from 'objection';

/** booking_series_notifications (migration 160): one series message per (occurrence, recipient, channel, kind), claimed before it is sent. */
export class BookingSeriesNotificationModel extends Model {
  static override tableName = 'booking_series_notifications';

  id!: string;
  tenantId!: string;
  seriesId!: string;
  occurrenceIndex!: number;
  /** CUSTOMER, or SALON:<user id> */
  recipient!: string;
  channel!: string;
  kind!: string;
  sentAt!: Date | null;
  /** where it went and what it said (migration 210); cleared when the customer's data is erased */
  sentTo!: string | null;
  text!: string | null;
  createdAt!: Date;
}
