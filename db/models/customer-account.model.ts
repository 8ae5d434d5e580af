import { BaseModel } from './base.model';

/** customer_accounts (migration 060): one person across salons, signed in with an external identity provider. */
export class CustomerAccountModel extends BaseModel {
  static override tableName = 'customer_accounts';

  /** citext */
  email!: string | null;
  emailVerified!: boolean;
  name!: string | null;
  phone!: string | null;
  /** when the account's phone was proven by a one-time code (null: not proven) */
  phoneVerifiedAt!: Date | null;
  tokenVersion!: number;
  isActive!: boolean;
  lastLoginAt!: Date | null;
}
