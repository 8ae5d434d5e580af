import { BaseModel } from './base.model';

/** plans (migration 080): the platform's SaaS plans; platform-wide, no tenant. */
export class PlanModel extends BaseModel {
  static override tableName = 'plans';

  planKey!: string;
  displayName!: string;
  displayNameNb!: string;
  /** 'monthly' | 'yearly' (domain/billing/plan.rules.ts) */
  billingCycle!: string;
  tagline!: string | null;
  taglineNb!: string | null;
  description!: string | null;
  descriptionNb!: string | null;
  /** minor units */
  flatPriceMinor!: number | null;
  pricePerSeatMinor!: number | null;
  currency!: string;
  selfServeCheckout!: boolean;
  isPublic!: boolean;
  isFeatured!: boolean;
  sortOrder!: number;
  trialDays!: number | null;
  sandboxVariantId!: string | null;
  polarVariantId!: string | null;
  lemonsqueezyVariantId!: string | null;
  updatedBy!: string | null;
}
