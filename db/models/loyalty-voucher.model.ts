import { BaseModel } from './base.model';

/** loyalty_vouchers (migration 070): a reward issued to a salon's customer; moves by compare-and-set on its status, version + 1. */
export class LoyaltyVoucherModel extends BaseModel {
  static override tableName = 'loyalty_vouchers';

  tenantId!: string;
  loyaltyCardId!: string;
  tenantCustomerId!: string;
  code!: string;
  rewardType!: string;
  rewardValue!: number;
  /** domain/loyalty/loyalty.rules.ts VoucherStatus */
  status!: string;
  issuedAt!: Date;
  expiresAt!: Date | null;
  issuedFromCycleNumber!: number;
  issuedFromBookingId!: string | null;
  reservedBookingId!: string | null;
  reservedAt!: Date | null;
  redeemedBookingId!: string | null;
  redeemedAt!: Date | null;
  /** minor units */
  discountApplied!: number | null;
  cancelledAt!: Date | null;
  cancelledReason!: string | null;
  version!: number;
}
