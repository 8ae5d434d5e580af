import { Model } from 'objection';

/** waitlist_notifications (migrations 101, 132): one message per (offer or entry, channel, kind), claimed before it is sent. */
export class WaitlistNotificationModel extends Model {
  static override tableName = 'waitlist_notifications';

  id!: string;
  tenantId!: string;
  /** an offer's message, or... */
  offerId!: string | null;
  /** ...an entry's (joining) */
  entryId!: string | null;
  channel!: string;
  kind!: string;
  sentAt!: Date | null;
  /** where it went and what it said (migration 210); cleared when the customer's data is erased */
  sentTo!: string | null;
  text!: string | null;
  createdAt!: Date;
}
