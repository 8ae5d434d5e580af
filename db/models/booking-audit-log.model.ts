import { Model } from 'objection';

/** booking_audit_logs (migration 040): who changed what when; written in the changing transaction. */
export class BookingAuditLogModel extends Model {
  static override tableName = 'booking_audit_logs';
  static override jsonAttributes = ['changes'];

  id!: string;
  bookingId!: string;
  tenantId!: string;
  actorUserId!: string | null;
  actorRole!: string;
  action!: string;
  fromStatus!: string | null;
  toStatus!: string | null;
  reason!: string | null;
  forced!: boolean;
  changes!: Record<string, unknown>;
  createdAt!: Date;
}
