import { Model } from 'objection';

/** platform_audit_logs (migration 080): what a platform admin changed on a tenant (billing exemption...). */
export class PlatformAuditLogModel extends Model {
  static override tableName = 'platform_audit_logs';
  static override jsonAttributes = ['details'];

  id!: string;
  adminUserId!: string;
  action!: string;
  tenantId!: string | null;
  details!: Record<string, unknown>;
  createdAt!: Date;
}
