import { Model } from 'objection';

/** impersonation_audit_logs (migration 061): each write made with an impersonation token (never its body, only its hash). */
export class ImpersonationAuditLogModel extends Model {
  static override tableName = 'impersonation_audit_logs';

  id!: string;
  sessionId!: string;
  occurredAt!: Date;
  method!: string;
  path!: string;
  statusCode!: number;
  bodyHash!: string;
}
