import { Model } from 'objection';

/** auth_sessions (migration 120): one sign-in of a staff user or a customer account, until it ends. */
export class AuthSessionModel extends Model {
  static override tableName = 'auth_sessions';

  id!: string;
  userId!: string | null;
  customerAccountId!: string | null;
  startedAt!: Date;
  endedAt!: Date | null;
}
