import { Model } from 'objection';

/** loyalty_voucher_events (migration 070): a voucher's history, one row per change. */
export class LoyaltyVoucherEventModel extends Model {
  static override tableName = 'loyalty_voucher_events';

  id!: string;
  tenantId!: string;
  voucherId!: string;
  action!: string;
  fromStatus!: string | null;
  toStatus!: string;
  bookingId!: string | null;
  actorUserId!: string | null;
  actorRole!: string;
  reason!: string | null;
  createdAt!: Date;
}
