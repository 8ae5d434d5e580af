import { Model } from 'objection';

/** loyalty_points_balances (migration 070): the running balance of one (card, customer); locked while points move. */
export class LoyaltyPointsBalanceModel extends Model {
  static override tableName = 'loyalty_points_balances';
  static override idColumn = ['loyaltyCardId', 'tenantCustomerId'];

  loyaltyCardId!: string;
  tenantCustomerId!: string;
  tenantId!: string;
  balance!: number;
  updatedAt!: Date;
}
