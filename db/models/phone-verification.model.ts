import { Model } from 'objection';

/** phone_verifications (migration 121): a one-time code sent to a customer's phone; the code itself is derived, never stored. */
export class PhoneVerificationModel extends Model {
  static override tableName = 'phone_verifications';

  id!: string;
  customerAccountId!: string;
  phone!: string;
  createdAt!: Date;
  expiresAt!: Date;
  failedAttempts!: number;
  verifiedAt!: Date | null;
}
