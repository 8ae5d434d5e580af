import { Model } from 'objection';

/** customer_retention_sweeps (migration 210): what one sweep of a salon's customer retention did. */
export class CustomerRetentionSweepModel extends Model {
  static override tableName = 'customer_retention_sweeps';

  id!: string;
  tenantId!: string;
  sweptAt!: Date;
  retentionMonths!: number;
  pseudonymised!: number;
  accountingRemoved!: number;
  createdAt!: Date;
}
