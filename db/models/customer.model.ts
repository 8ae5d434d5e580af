import { BaseModel } from './base.model';

export class CustomerModel extends BaseModel {
  static override tableName = 'customers';

  tenantId!: string;
  name!: string;
  /** normalised: trimmed, no whitespace, dashes, dots or brackets */
  phone!: string | null;
  /** normalised: trimmed, lower case */
  email!: string | null;
  notes!: string | null;
  /** the customer account this salon's record belongs to (one per salon), or null */
  accountId!: string | null;
  /** agreed to "time for your next visit" messages from this salon (migration 160) */
  acceptsRebookingNudges!: boolean;
  /** a record whose identity was erased or pseudonymised (migration 210): no name, contact or notes are left */
  erased!: boolean;
  erasedAt!: Date | null;
}
