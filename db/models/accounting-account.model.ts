import { BaseModel } from './base.model';

export class AccountingAccountModel extends BaseModel {
  static override tableName = 'accounting_accounts';

  tenantId!: string;
  code!: string;
  name!: string;
  taxId!: string | null;
  isDefault!: boolean;
}
