import { Model } from 'objection';

/** impersonation_used_refresh_tokens (migration 120): a rotated impersonation refresh token, by hash; presented again it ends its session. */
export class ImpersonationUsedRefreshTokenModel extends Model {
  static override tableName = 'impersonation_used_refresh_tokens';
  static override idColumn = 'tokenHash';

  tokenHash!: string;
  sessionId!: string;
  usedAt!: Date;
}
