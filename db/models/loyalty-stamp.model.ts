import { Model } from 'objection';

/** loyalty_stamps (migration 070): one stamp per (card, booking), numbered within its cycle. */
export class LoyaltyStampModel extends Model {
  static override tableName = 'loyalty_stamps';

  id!: string;
  tenantId!: string;
  loyaltyCardId!: string;
  tenantCustomerId!: string;
  bookingId!: string;
  stampNumber!: number;
  cycleNumber!: number;
  createdAt!: Date;
}
