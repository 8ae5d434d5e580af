// Data access of impersonation sessions and their audit log (docs/rules/auth.md#impersonation). Platform-level records:
// scoped by session, admin or the filtered tenant, never returned to a salon.
import type { Knex } from 'knex';
import type { Db } from '../../db/db-handle';

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

export async function insertSession(db: Db, row: Pick<ImpersonationSessionRow, 'adminUserId' | 'tenantId' | 'reason' | 'ip' | 'userAgent' | 'refreshTokenHash'>): Promise<string> {
  const [inserted] = await db('impersonationSessions').insert(row).returning('id');
  return inserted.id;
}

export async function findSession(db: Db, id: string): Promise<ImpersonationSessionRow | undefined> {
  return db<ImpersonationSessionRow>('impersonationSessions').where({ id }).first();
}

export async function findSessionByRefreshHash(db: Db, refreshTokenHash: string): Promise<ImpersonationSessionRow | undefined> {
  return db<ImpersonationSessionRow>('impersonationSessions').where({ refreshTokenHash }).first();
}

/** Compare-and-set: the new hash replaces the presented one; false when someone rotated it first. */
export async function rotateSessionRefreshHash(db: Db, id: string, oldHash: string, newHash: string): Promise<boolean> {
  const rows = await db('impersonationSessions').where({ id, refreshTokenHash: oldHash }).update({ refreshTokenHash: newHash }).returning('id');
  return rows.length === 1;
}

/** Ends the session unless it already ended (idempotent). */
export async function endSession(db: Db, id: string, at: Date): Promise<void> {
  await db('impersonationSessions').where({ id }).whereNull('endedAt').update({ endedAt: at });
}

export async function insertAuditEntry(db: Db, row: Omit<AuditLogRow, 'id' | 'occurredAt'>): Promise<void> {
  await db('impersonationAuditLogs').insert(row);
}

function sessionsQuery(db: Db) {
  return db('impersonationSessions as s')
    .join('tenants as t', 't.id', 's.tenantId')
    .leftJoin('users as u', 'u.id', 's.adminUserId')
    .select(
      's.*',
      'u.email as adminEmail',
      't.name as tenantName',
      't.slug as tenantSlug',
      db.raw('(SELECT count(*) FROM impersonation_audit_logs l WHERE l.session_id = s.id)::int AS mutation_count'),
    );
}

export async function sessionWithCount(db: Db, id: string): Promise<SessionListRow | undefined> {
  return sessionsQuery(db).where('s.id', id).first();
}

export async function pageOfSessions(db: Db, filter: { tenantId?: string; activeOnly?: boolean }, page: { page: number; limit: number }): Promise<{ rows: SessionListRow[]; total: number }> {
  const filtered = (table: string) => (q: Knex.QueryBuilder) => {
    if (filter.tenantId) q.where(`${table}.tenantId`, filter.tenantId);
    if (filter.activeOnly) q.whereNull(`${table}.endedAt`);
  };
  const [{ count }] = await db('impersonationSessions').where(filtered('impersonationSessions')).count({ count: '*' });
  const rows: SessionListRow[] = await sessionsQuery(db)
    .where(filtered('s'))
    .orderBy([{ column: 's.startedAt', order: 'desc' }, { column: 's.id', order: 'asc' }])
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
  return { rows, total: Number(count) };
}

export async function pageOfAuditEntries(db: Db, sessionId: string, page: { page: number; limit: number }): Promise<{ rows: AuditLogRow[]; total: number }> {
  const base = db('impersonationAuditLogs').where({ sessionId });
  const [{ count }] = await base.clone().count({ count: '*' });
  const rows: AuditLogRow[] = await base
    .clone()
    .select('id', 'sessionId', 'occurredAt', 'method', 'path', 'statusCode', 'bodyHash')
    .orderBy([{ column: 'occurredAt', order: 'asc' }, { column: 'id', order: 'asc' }])
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
  return { rows, total: Number(count) };
}
