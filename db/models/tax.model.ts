import type { Pojo } from 'objection';
import { BaseModel } from './base.model';

export class TaxModel extends BaseModel {
  static override tableName = 'taxes';

  tenantId!: string;
  name!: string;
  /** percent, up to three decimals; Postgres numeric comes back as a string and is parsed here */
  rate!: number;
  isDefault!: boolean;
  isActive!: boolean;

  override $parseDatabaseJson(json: Pojo): Pojo {
    const parsed = super.$parseDatabaseJson(json);
    if (typeof parsed.rate === 'string') parsed.rate = Number(parsed.rate);
    return parsed;
  }
}
