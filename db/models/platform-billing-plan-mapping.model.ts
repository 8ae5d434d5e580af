import { Model } from 'objection';

/** platform_billing_plan_mappings (migration 080): which provider variant sells a plan under a billing config. */
export class PlatformBillingPlanMappingModel extends Model {
  static override tableName = 'platform_billing_plan_mappings';

  id!: string;
  configId!: string;
  planKey!: string;
  providerVariantId!: string;
}
