import { Model } from 'objection';

/** A refresh token, stored only as its SHA-256 hash; rotation keeps tokens of one login in a family. */
export class RefreshTokenModel extends Model {
  static override tableName = 'refresh_tokens';

  id!: string;
  userId!: string;
  familyId!: string;
  tokenHash!: string;
  expiresAt!: Date;
  rotatedAt!: Date | null;
  revokedAt!: Date | null;
  createdAt!: Date;
}
