// Data access of sign-in sessions (docs/rules/auth.md#sessions): one auth_sessions row per sign-in
// of a staff user or a customer account, ended by sign-out; plain rows out, the caller passes the
// pool or its transaction.
import type { Db } from '../../db/db-handle';
import { AuthSessionModel } from '../../db/models/auth-session.model';
import { plainOrUndefined, type Row } from '../../db/plain';
import { runNamedStatement } from '../../db/named-statement';

export type AuthSessionRow = Row<AuthSessionModel>;

export async function insertAuthSession(db: Db, holder: { userId: string } | { customerAccountId: string }, startedAt: Date): Promise<string> {
  return (await AuthSessionModel.query(db).insert({ ...holder, startedAt })).id;
}

export async function findAuthSession(db: Db, id: string, lock = false): Promise<AuthSessionRow | undefined> {
  const q = AuthSessionModel.query(db).findById(id);
  if (lock) q.forUpdate();
  return plainOrUndefined(await q);
}

/** Ends the session unless it already ended (idempotent). */
export async function endAuthSession(db: Db, id: string, at: Date): Promise<void> {
  await AuthSessionModel.query(db).patch({ endedAt: at }).where({ id }).whereNull('endedAt');
}

/** What the access-token check needs about a staff token's holder, its session and its impersonation session. */
export interface StaffTokenHolder {
  is_active: boolean;
  token_version: number;
  /** the token's sign-in session (null: none with this id for this user) */
  session_started_at: Date | null;
  session_ended_at: Date | null;
  /** the impersonation session an impersonation token names (null: none of this admin) */
  impersonation_started_at: Date | null;
  impersonation_ended_at: Date | null;
}

/**
 * The user of a staff access token with its sign-in session and, for an impersonation token, its
 * impersonation session, in one round trip. Every authenticated request runs it (api/middleware/
 * authenticate.ts), so it is a named statement: a model query cannot join the three by the token's
 * ids in one statement, and the knex query path cost more than the statement (docs/performance-history.md#2026-11-28-the-access-token-check).
 */
export async function staffTokenHolder(
  db: Db,
  userId: string,
  sessionId: string | null,
  impersonationSessionId: string | null,
): Promise<StaffTokenHolder | undefined> {
  const rows = await runNamedStatement<StaffTokenHolder>(db, {
    name: 'staff-token-holder',
    sql: `SELECT u.is_active, u.token_version, s.started_at AS session_started_at, s.ended_at AS session_ended_at,
        i.started_at AS impersonation_started_at, i.ended_at AS impersonation_ended_at
      FROM users u
      LEFT JOIN auth_sessions s ON s.id = ?::uuid AND s.user_id = u.id
      LEFT JOIN impersonation_sessions i ON i.id = ?::uuid AND i.admin_user_id = u.id
      WHERE u.id = ?::uuid`,
    bindings: [sessionId, impersonationSessionId, userId],
  });
  return rows[0];
}

export interface CustomerTokenHolder {
  is_active: boolean;
  token_version: number;
  session_started_at: Date | null;
  session_ended_at: Date | null;
}

/** The account of a customer access token with its sign-in session, in one round trip (as staffTokenHolder). */
export async function customerTokenHolder(db: Db, accountId: string, sessionId: string): Promise<CustomerTokenHolder | undefined> {
  const rows = await runNamedStatement<CustomerTokenHolder>(db, {
    name: 'customer-token-holder',
    sql: `SELECT a.is_active, a.token_version, s.started_at AS session_started_at, s.ended_at AS session_ended_at
      FROM customer_accounts a
      LEFT JOIN auth_sessions s ON s.id = ?::uuid AND s.customer_account_id = a.id
      WHERE a.id = ?::uuid`,
    bindings: [sessionId, accountId],
  });
  return rows[0];
}
