import { BaseModel } from './base.model';

/** plan_features (migration 080): what plans can include, shown on the plans page. */
export class PlanFeatureModel extends BaseModel {
  static override tableName = 'plan_features';

  featureKey!: string;
  displayName!: string;
  displayNameNb!: string;
  description!: string | null;
  descriptionNb!: string | null;
  category!: string;
  isRoadmap!: boolean;
  /** 'boolean' | 'number' | 'text' */
  valueType!: string;
  iconKey!: string | null;
  sortOrder!: number;
}
