import { Model } from 'objection';

/** tenant_customer_visits (migration 030): one completed booking counted in the salon's metrics, keyed by the booking. */
export class TenantCustomerVisitModel extends Model {
  static override tableName = 'tenant_customer_visits';
  static override idColumn = 'bookingId';

  bookingId!: string;
  tenantId!: string;
  tenantCustomerId!: string;
  /** minor units */
  amount!: number;
  visitedAt!: Date;
  createdAt!: Date;
}
