import { BaseModel } from './base.model';

/** platform_billing_configs (migration 080): the platform's billing provider accounts; one per (provider, test mode), at most one active. */
export class PlatformBillingConfigModel extends BaseModel {
  static override tableName = 'platform_billing_configs';

  provider!: string;
  isTest!: boolean;
  storeId!: string | null;
  apiBaseUrl!: string;
  storeDomain!: string | null;
  displayName!: string;
  sealedCredentials!: string;
  keyVersion!: number;
  isActive!: boolean;
  lastHealthCheckAt!: Date | null;
  lastHealthCheckStatus!: string | null;
}
