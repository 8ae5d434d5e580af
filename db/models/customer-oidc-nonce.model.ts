import { Model } from 'objection';

/** customer_oidc_nonces (migration 060): an ID-token nonce claimed once, kept until its token expires. */
export class CustomerOidcNonceModel extends Model {
  static override tableName = 'customer_oidc_nonces';
  static override idColumn = ['issuer', 'nonce'];

  issuer!: string;
  nonce!: string;
  expiresAt!: Date;
  createdAt!: Date;
}
