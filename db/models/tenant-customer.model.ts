import type { RelationMappings } from 'objection';
import { BaseModel } from './base.model';
import { CustomerModel } from './customer.model';

export class TenantCustomerModel extends BaseModel {
  static override tableName = 'tenant_customers';

  tenantId!: string;
  customerId!: string;
  tags!: string[];
  notes!: string | null;
  visitCount!: number;
  firstVisit!: Date | null;
  lastVisit!: Date | null;
  /** minor units */
  totalSpent!: number;
  customer?: CustomerModel;

  static override get relationMappings(): RelationMappings {
    return {
      customer: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: CustomerModel,
        join: { from: 'tenant_customers.customerId', to: 'customers.id' },
      },
    };
  }
}
