import { Model } from 'objection';

/**
 * phone_normalisation_issues (migration 130): a stored number the move to E.164 left as it was,
 * because no country reads it (NOT_A_NUMBER) or its E.164 form is another row's (TAKEN, that row's
 * id in otherRowId); for the salon or operations to settle by hand (docs/rules/conventions.md#phone-numbers).
 */
export class PhoneNormalisationIssueModel extends Model {
  static override tableName = 'phone_normalisation_issues';

  id!: string;
  tableName!: string;
  rowId!: string;
  tenantId!: string | null;
  columnName!: string;
  value!: string;
  problem!: string;
  e164!: string | null;
  otherRowId!: string | null;
  createdAt!: Date;
}
