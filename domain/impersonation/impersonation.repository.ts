// Data access of impersonation sessions and their audit log (docs/rules/auth.md#impersonation). Platform-level records:
// scoped by session, admin or the filtered tenant, never returned to a salon.
import { raw } from 'objection';
import type { Db } from '../../db/db-handle';
import { ImpersonationSessionModel } from '../../db/models/impersonation-session.model';
import { ImpersonationAuditLogModel } from '../../db/models/impersonation-audit-log.model';
import { ImpersonationUsedRefreshTokenModel } from '../../db/models/impersonation-used-refresh-token.model';
import { paginate, type PageQuery, type PageResult } from '../../db/paginate';
import { plain, returnedRows } from '../../db/plain';

export interface ImpersonationSessionRow {
  id: string;
  adminUserId: string;
  tenantId: string;
  reason: string;
  ip: string | null;
  userAgent: string | null;
  startedAt: Date;
  endedAt: Date | null;
  refreshTokenHash: string | null;
}

export interface SessionListRow extends ImpersonationSessionRow {
  adminEmail: string | null;
  tenantName: string;
  tenantSlug: string;
  mutationCount: number;
}

export interface AuditLogRow {
  id: string;
  sessionId: string;
  occurredAt: Date;
  method: string;
  path: string;
  statusCode: number;
  bodyHash: string;
}

export async function insertSession(
  db: Db,
  row: Pick<ImpersonationSessionRow, 'adminUserId' | 'tenantId' | 'reason' | 'ip' | 'userAgent' | 'refreshTokenHash' | 'startedAt'>,
): Promise<string> {
  return (await ImpersonationSessionModel.query(db).insert(row)).id;
}

export async function findSession(db: Db, id: string): Promise<ImpersonationSessionRow | undefined> {
  const row = await ImpersonationSessionModel.query(db).findById(id);
  return row && plain(row);
}

export async function findSessionByRefreshHash(db: Db, refreshTokenHash: string): Promise<ImpersonationSessionRow | undefined> {
  const row = await ImpersonationSessionModel.query(db).findOne({ refreshTokenHash });
  return row && plain(row);
}

/** Compare-and-set: the new hash replaces the presented one; false when someone rotated it first. */
export async function rotateSessionRefreshHash(db: Db, id: string, oldHash: string, newHash: string): Promise<boolean> {
  const rows = await returnedRows(
    ImpersonationSessionModel.query(db).patch({ refreshTokenHash: newHash }).where({ id, refreshTokenHash: oldHash }).returning('id'),
  );
  return rows.length === 1;
}

/** Remembers a rotated refresh token of the session: presented again, it is a replay. */
export async function recordUsedRefreshHash(db: Db, sessionId: string, tokenHash: string): Promise<void> {
  await ImpersonationUsedRefreshTokenModel.query(db).insert({ sessionId, tokenHash }).onConflict('tokenHash').ignore();
}

/** The session whose rotated refresh token this is, if it is one. */
export async function sessionOfUsedRefreshHash(db: Db, tokenHash: string): Promise<string | undefined> {
  return (await ImpersonationUsedRefreshTokenModel.query(db).findById(tokenHash))?.sessionId;
}

/** Ends the session unless it already ended (idempotent). */
export async function endSession(db: Db, id: string, at: Date): Promise<void> {
  await ImpersonationSessionModel.query(db).patch({ endedAt: at }).where({ id }).whereNull('endedAt');
}

export async function insertAuditEntry(db: Db, row: Omit<AuditLogRow, 'id' | 'occurredAt'>): Promise<void> {
  await ImpersonationAuditLogModel.query(db).insert(row);
}

/** Sessions with the admin's e-mail, the salon's name and slug, and how many writes were audited. */
function sessionsQuery(db: Db) {
  return ImpersonationSessionModel.query(db)
    .join('tenants as t', 't.id', 'impersonation_sessions.tenantId')
    .leftJoin('users as u', 'u.id', 'impersonation_sessions.adminUserId')
    .select(
      'impersonation_sessions.*',
      'u.email as adminEmail',
      't.name as tenantName',
      't.slug as tenantSlug',
      raw('(SELECT count(*) FROM impersonation_audit_logs l WHERE l.session_id = impersonation_sessions.id)::int AS mutation_count'),
    );
}

export async function sessionWithCount(db: Db, id: string): Promise<SessionListRow | undefined> {
  const row = await sessionsQuery(db).where('impersonation_sessions.id', id).first();
  return row && (plain(row) as unknown as SessionListRow);
}

export async function pageOfSessions(db: Db, filter: { tenantId?: string; activeOnly?: boolean }, page: PageQuery): Promise<PageResult<SessionListRow>> {
  const query = sessionsQuery(db);
  if (filter.tenantId) query.where('impersonation_sessions.tenantId', filter.tenantId);
  if (filter.activeOnly) query.whereNull('impersonation_sessions.endedAt');
  query.orderBy([
    { column: 'impersonation_sessions.startedAt', order: 'desc' },
    { column: 'impersonation_sessions.id', order: 'asc' },
  ]);
  return (await paginate(query, page)) as unknown as PageResult<SessionListRow>;
}

export async function pageOfAuditEntries(db: Db, sessionId: string, page: PageQuery): Promise<PageResult<AuditLogRow>> {
  const query = ImpersonationAuditLogModel.query(db)
    .where({ sessionId })
    .select('id', 'sessionId', 'occurredAt', 'method', 'path', 'statusCode', 'bodyHash')
    .orderBy([
      { column: 'occurredAt', order: 'asc' },
      { column: 'id', order: 'asc' },
    ]);
  return paginate(query, page);
}
