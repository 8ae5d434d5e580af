import { Model } from 'objection';

/** payment_refunds (migration 050): a refund reserved against a captured payment, settled by the provider. */
export class PaymentRefundModel extends Model {
  static override tableName = 'payment_refunds';

  id!: string;
  paymentId!: string;
  tenantId!: string;
  /** minor units */
  amount!: number;
  reason!: string | null;
  status!: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  idempotencyKey!: string;
  providerRefundId!: string | null;
  completedAt!: Date | null;
  createdAt!: Date;
}
