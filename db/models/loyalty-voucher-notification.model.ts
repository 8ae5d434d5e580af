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
  createdAt!: Date;
}
