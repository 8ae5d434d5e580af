import { Model } from 'objection';

/** subscription_webhook_inbox (migration 080): each billing provider event once, applied in order per tenant. */
export class SubscriptionWebhookInboxModel extends Model {
  static override tableName = 'subscription_webhook_inbox';
  static override jsonAttributes = ['payload'];

  id!: string;
  provider!: string;
  providerEventId!: string;
  eventName!: string;
  payload!: unknown;
  signature!: string | null;
  verified!: boolean;
  tenantId!: string | null;
  subscriptionId!: string | null;
  processedAt!: Date | null;
  failureReason!: string | null;
  createdAt!: Date;
}
