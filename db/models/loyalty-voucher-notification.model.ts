import { Model } from 'objection';

/** loyalty_voucher_notifications (migration 070): one message per (voucher, channel, dedupe key), claimed before it is sent. */
export class LoyaltyVoucherNotificationModel extends Model {
  static override tableName = 'loyalty_voucher_notifications';

  id!: string;
  tenantId!: string;
  voucherId!: string;
  channel!: string;
  kind!: string;
  dedupeKey!: string;
  sentAt!: Date | null;
  /** where it went and what it said (migration 210); cleared when the customer's data is erased */
  sentTo!: string | null;
  text!: string | null;
  createdAt!: Date;
}
