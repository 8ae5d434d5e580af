import { BaseModel } from './base.model';

/** loyalty_cards (migration 070): a VISIT_BASED (stamps) or POINTS_BASED card of a salon; soft-deleted. */
export class LoyaltyCardModel extends BaseModel {
  static override tableName = 'loyalty_cards';

  tenantId!: string;
  name!: string;
  /** 'VISIT_BASED' | 'POINTS_BASED' (domain/loyalty/loyalty.rules.ts) */
  type!: string;
  isActive!: boolean;
  requiredStamps!: number | null;
  /** minor units */
  minBookingValue!: number | null;
  voucherExpiryMonths!: number | null;
  rewardType!: string | null;
  rewardValue!: number | null;
  earnRate!: number | null;
  redeemRate!: number | null;
  expiryMonths!: number | null;
  minRedemption!: number | null;
  /** uuid[] (a Postgres array, not JSON): empty = every service */
  serviceIds!: string[];
  deletedAt!: Date | null;
}
