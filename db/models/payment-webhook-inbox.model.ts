import { Model } from 'objection';

/** payment_webhook_inbox (migration 050): each provider event once, keyed by (provider, provider event id). */
export class PaymentWebhookInboxModel extends Model {
  static override tableName = 'payment_webhook_inbox';
  static override jsonAttributes = ['payload'];

  id!: string;
  provider!: string;
  providerEventId!: string;
  tenantId!: string;
  paymentId!: string | null;
  eventType!: string;
  payload!: Record<string, unknown>;
  outcome!: string | null;
  receivedAt!: Date;
}
