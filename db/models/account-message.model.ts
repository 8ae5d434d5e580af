import { Model } from 'objection';

/** account_messages (migration 121): a message to an account's owner that its workflow sends. */
export class AccountMessageModel extends Model {
  static override tableName = 'account_messages';
  static override jsonAttributes = ['details'];

  id!: string;
  /** PASSWORD_RESET, CONTACT_CHANGED or PHONE_CODE */
  kind!: string;
  version!: number;
  /** citext */
  email!: string | null;
  phone!: string | null;
  tenantId!: string | null;
  tenantSlug!: string | null;
  userId!: string | null;
  phoneVerificationId!: string | null;
  details!: Record<string, unknown>;
  createdAt!: Date;
  sentAt!: Date | null;
}
