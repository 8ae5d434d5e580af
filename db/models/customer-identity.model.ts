import { BaseModel } from './base.model';

/** customer_identities (migration 060): the provider's (issuer, subject) of an account; unique per pair. */
export class CustomerIdentityModel extends BaseModel {
  static override tableName = 'customer_identities';

  accountId!: string;
  issuer!: string;
  subject!: string;
  email!: string | null;
  lastUsedAt!: Date | null;
}
