import { Model } from 'objection';

/** impersonation_sessions (migration 061): a platform admin acting as a salon's owner, with the reason given. */
export class ImpersonationSessionModel extends Model {
  static override tableName = 'impersonation_sessions';

  id!: string;
  adminUserId!: string;
  tenantId!: string;
  reason!: string;
  ip!: string | null;
  userAgent!: string | null;
  startedAt!: Date;
  endedAt!: Date | null;
  /** the session's refresh token, stored only as its hash; rotated by compare-and-set */
  refreshTokenHash!: string | null;
}
