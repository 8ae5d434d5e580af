import { BaseModel } from './base.model';

export class ServiceCategoryModel extends BaseModel {
  static override tableName = 'service_categories';

  tenantId!: string;
  name!: string;
  sortOrder!: number;
}
