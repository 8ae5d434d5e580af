import { Model } from 'objection';

/** personal_data_exports (migration 210): who exported whose personal data, and when. */
export class PersonalDataExportModel extends Model {
  static override tableName = 'personal_data_exports';

  id!: string;
  /** a salon's export of one of its customers; null: a signed-in customer's own */
  tenantId!: string | null;
  customerId!: string | null;
  customerAccountId!: string | null;
  requestedByUserId!: string | null;
  /** 'OWNER' | 'ADMIN' | 'CUSTOMER' */
  requestedByRole!: string;
  /** 'JSON' | 'SUMMARY' */
  format!: string;
  createdAt!: Date;
}
