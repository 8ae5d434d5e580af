import { Model } from 'objection';

/** loyalty_points_transactions (migrations 070, 071): the points ledger (EARN, REDEEM, ADJUST, EXPIRE) with the balance after each. */
export class LoyaltyPointsTransactionModel extends Model {
  static override tableName = 'loyalty_points_transactions';

  id!: string;
  tenantId!: string;
  loyaltyCardId!: string;
  tenantCustomerId!: string;
  type!: string;
  points!: number;
  balanceAfter!: number;
  bookingId!: string | null;
  reason!: string | null;
  actorUserId!: string | null;
  expiresAt!: Date | null;
  createdAt!: Date;
}
