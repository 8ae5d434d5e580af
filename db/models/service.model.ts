import { BaseModel } from './base.model';

export class ServiceModel extends BaseModel {
  static override tableName = 'services';
  static override jsonAttributes = ['metadata'];

  tenantId!: string;
  name!: string;
  description!: string | null;
  /** minutes */
  duration!: number;
  /** minor units */
  price!: number;
  currency!: string;
  categoryId!: string | null;
  accountingAccountId!: string | null;
  isActive!: boolean;
  sortOrder!: number;
  metadata!: Record<string, unknown>;
  imageKey!: string | null;
  /** weeks after a visit the customer usually comes back (1 to 52); null: no rebooking nudge (migration 160) */
  typicalIntervalWeeks!: number | null;
}
