import { Model } from 'objection';

/** customer_refresh_tokens (migration 060): a customer's refresh token, stored only as its hash, in families like the staff ones. */
export class CustomerRefreshTokenModel extends Model {
  static override tableName = 'customer_refresh_tokens';

  id!: string;
  accountId!: string;
  familyId!: string;
  tokenHash!: string;
  expiresAt!: Date;
  rotatedAt!: Date | null;
  revokedAt!: Date | null;
  createdAt!: Date;
}
