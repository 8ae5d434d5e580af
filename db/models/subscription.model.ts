import { BaseModel } from './base.model';

/** subscriptions (migration 080): a tenant's subscription to a plan, as the billing provider reports it. */
export class SubscriptionModel extends BaseModel {
  static override tableName = 'subscriptions';

  tenantId!: string;
  planKey!: string;
  /** domain/billing/subscription.rules.ts SubscriptionStatus */
  status!: string;
  provider!: string | null;
  providerSubId!: string | null;
  providerCustomerId!: string | null;
  trialEndsAt!: Date | null;
  currentPeriodEnd!: Date | null;
  cancelAtPeriodEnd!: boolean;
  canceledAt!: Date | null;
  expiredAt!: Date | null;
  seatLimit!: number | null;
}
