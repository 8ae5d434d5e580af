import { Model } from 'objection';

/** A single-use, expiring password-reset token, stored only as its SHA-256 hash. */
export class PasswordResetTokenModel extends Model {
  static override tableName = 'password_reset_tokens';

  id!: string;
  userId!: string;
  tokenHash!: string;
  expiresAt!: Date;
  usedAt!: Date | null;
  createdAt!: Date;
  /** the PASSWORD_RESET account message that issued it (migration 121) */
  messageId!: string | null;
  /** when its mail went out */
  mailedAt!: Date | null;
}
