import { Model } from 'objection';

/** salon_notices (migration 190): what the salon's owner is told about a booking, once per booking and kind. */
export class SalonNoticeModel extends Model {
  static override tableName = 'salon_notices';

  id!: string;
  tenantId!: string;
  bookingId!: string;
  /** 'APPROVAL_NEEDED' | 'CUSTOMER_CANCELLED' */
  kind!: string;
  createdAt!: Date;
  readAt!: Date | null;
  /** the writing transaction (the change cursor, docs/rules/front-desk.md#live-updates) */
  changedXid!: string | null;
}
