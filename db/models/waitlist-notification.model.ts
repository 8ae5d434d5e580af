import { Model } from 'objection';

/** waitlist_notifications (migration 100): one message per (offer, channel, kind), claimed before it is sent. */
export class WaitlistNotificationModel extends Model {
  static override tableName = 'waitlist_notifications';

  id!: string;
  tenantId!: string;
  offerId!: string;
  channel!: string;
  kind!: string;
  sentAt!: Date | null;
  createdAt!: Date;
}
