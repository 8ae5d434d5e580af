import { BaseModel } from './base.model';

/** payment_configs (migration 050): a salon's payment provider account; credentials sealed, at most one active. */
export class PaymentConfigModel extends BaseModel {
  static override tableName = 'payment_configs';

  tenantId!: string;
  provider!: string;
  displayName!: string;
  isTest!: boolean;
  isActive!: boolean;
  /** 'AUTO' | 'MANUAL' */
  captureMode!: string;
  credentialsSealed!: string;
  keyVersion!: number;
  lastHealthCheckAt!: Date | null;
  lastHealthCheckStatus!: string | null;
}
