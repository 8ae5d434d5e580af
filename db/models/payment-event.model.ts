import { Model } from 'objection';

/** payment_events (migration 050): a payment's history, one row per change, written in the changing transaction. */
export class PaymentEventModel extends Model {
  static override tableName = 'payment_events';
  static override jsonAttributes = ['data'];

  id!: string;
  paymentId!: string;
  tenantId!: string;
  type!: string;
  fromStatus!: string | null;
  toStatus!: string | null;
  amount!: number | null;
  actorRole!: string;
  actorUserId!: string | null;
  data!: Record<string, unknown>;
  createdAt!: Date;
}
