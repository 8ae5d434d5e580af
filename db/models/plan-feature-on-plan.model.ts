import { Model } from 'objection';

/** plan_feature_on_plan (migration 080): a feature's value on a plan (null for boolean features). */
export class PlanFeatureOnPlanModel extends Model {
  static override tableName = 'plan_feature_on_plan';
  static override idColumn = ['planId', 'featureId'];

  planId!: string;
  featureId!: string;
  value!: string | null;
}
