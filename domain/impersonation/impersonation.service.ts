// Super-admin impersonation (docs/rules/auth.md#impersonation). The platform ADMIN starts a session on an
// active salon with a reason; the session's access token keeps `sub` = the admin (so its validity
// follows the admin's token version), carries role OWNER, the salon's tenantId and the `imp` claim,
// so every guard downstream treats it as that salon's owner. Ending is idempotent and hands back
// the admin's own session. Every mutating request made with the token is audited by
// api/middleware/impersonation-audit.ts through recordMutation().
import crypto from 'node:crypto';
import type { AppConfig } from '../../config';
import { isSessionOpen, sessionDeadline } from '../auth/session.rules';
import type { Db } from '../../db/db-handle';
import { errors } from '../errors';
import { toIso, toIsoOrNull } from '../time/iso';
import { findTenant } from '../tenant/tenant.repository';
import { findUserById } from '../users/user.repository';
import { accessTokenFor, issueSession, type SessionConfig, type SessionTokens } from '../auth/sessions';
import { hashOpaqueToken, newOpaqueToken, type ImpersonationClaim } from '../auth/tokens';
import * as repo from './impersonation.repository';
import { nowOf, type Clock } from '../time/clock';
import { toAuthUser } from '../users/user.dto';

export const IMPERSONATION_REASON_MAX = 500;

export interface ImpersonationDeps {
  config: SessionConfig & Pick<AppConfig, 'nodeEnv'>;
  knex: Db;
  now?: Clock;
}

export interface ImpersonationSessionDto {
  id: string;
  adminUserId: string;
  adminEmail: string | null;
  tenantId: string;
  tenantName: string;
  tenantSlug: string;
  reason: string;
  ip: string | null;
  userAgent: string | null;
  startedAt: string;
  endedAt: string | null;
  mutationCount: number;
}

function toSessionDto(r: repo.SessionListRow): ImpersonationSessionDto {
  return {
    id: r.id,
    adminUserId: r.adminUserId,
    adminEmail: r.adminEmail,
    tenantId: r.tenantId,
    tenantName: r.tenantName,
    tenantSlug: r.tenantSlug,
    reason: r.reason,
    ip: r.ip,
    userAgent: r.userAgent,
    startedAt: toIso(r.startedAt),
    endedAt: toIsoOrNull(r.endedAt),
    mutationCount: Number(r.mutationCount),
  };
}

export interface Caller {
  userId: string;
  role: string;
  impersonation?: ImpersonationClaim;
}

/** POST /superadmin/impersonate/start */
export async function startImpersonation(
  deps: ImpersonationDeps,
  caller: Caller,
  input: { tenantId: string; reason: string },
  origin: { ip: string | null; userAgent: string | null },
): Promise<{ accessToken: string; refreshToken: string; expiresIn: number; session: ImpersonationSessionDto }> {
  if (caller.impersonation) throw errors.conflict('IMPERSONATION_ALREADY_ACTIVE', 'You are already impersonating a salon; end that first');
  if (caller.role !== 'ADMIN') throw errors.forbidden('Only a platform admin may impersonate');
  const reason = input.reason.trim();
  if (!reason || reason.length > IMPERSONATION_REASON_MAX) {
    throw errors.validation('Request validation failed', [{ field: 'reason', message: `must be 1-${IMPERSONATION_REASON_MAX} characters` }]);
  }
  return deps.knex.transaction(async (trx) => {
    const admin = await findUserById(trx, caller.userId);
    if (!admin || !admin.isActive || admin.role !== 'ADMIN') throw errors.unauthorized('User no longer exists');
    const tenant = await findTenant(trx, input.tenantId);
    if (!tenant) throw errors.notFound('tenant');
    if (!tenant.isActive) throw errors.unprocessable('TENANT_NOT_ACTIVE', 'This salon is deactivated and cannot be impersonated');
    const refreshToken = newOpaqueToken();
    const sessionId = await repo.insertSession(trx, {
      adminUserId: admin.id,
      tenantId: tenant.id,
      reason,
      ip: origin.ip?.slice(0, 64) ?? null,
      userAgent: origin.userAgent?.slice(0, 500) ?? null,
      refreshTokenHash: hashOpaqueToken(refreshToken),
      startedAt: nowOf(deps),
    });
    const accessToken = accessTokenFor(deps.config, { ...admin, role: 'OWNER', tenantId: tenant.id }, { imp: { sessionId, adminUserId: admin.id } });
    const session = (await repo.sessionWithCount(trx, sessionId))!;
    return { accessToken, refreshToken, expiresIn: deps.config.accessTokenTtlSeconds, session: toSessionDto(session) };
  });
}

/** POST /superadmin/impersonate/end: only with an impersonation token; idempotent; the admin's own tokens. */
export async function endImpersonation(deps: ImpersonationDeps, caller: Caller): Promise<SessionTokens> {
  if (!caller.impersonation) throw errors.forbidden('This token is not impersonating anyone');
  const session = await repo.findSession(deps.knex, caller.impersonation.sessionId);
  if (!session || session.adminUserId !== caller.userId) throw errors.unauthorized('Unknown impersonation session');
  const now = nowOf(deps);
  return deps.knex.transaction(async (trx) => {
    await repo.endSession(trx, session.id, now);
    const admin = await findUserById(trx, caller.userId);
    if (!admin || !admin.isActive) throw errors.unauthorized('User no longer exists');
    return issueSession(trx, deps.config, admin, now);
  });
}

/**
 * POST /auth/refresh with an impersonation session's refresh token: a new impersonation access token
 * and a new refresh token (the old one stops working: compare-and-set on the stored hash). Undefined
 * when the token is not an impersonation token (the caller tries the staff refresh tokens); 401 when
 * the session has ended or reached its maximum length. A rotated token presented again is a replay
 * (someone else holds the session's tokens): the session ends and the answer is 401
 * (docs/rules/auth.md#impersonation).
 */
export async function refreshImpersonation(deps: ImpersonationDeps, rawToken: string | undefined): Promise<SessionTokens | undefined> {
  if (!rawToken) return undefined;
  const now = nowOf(deps);
  const oldHash = hashOpaqueToken(rawToken);
  const session = await repo.findSessionByRefreshHash(deps.knex, oldHash);
  if (!session) {
    const replayed = await repo.sessionOfUsedRefreshHash(deps.knex, oldHash);
    if (!replayed) return undefined;
    await repo.endSession(deps.knex, replayed, now);
    throw errors.unauthorized('This impersonation refresh token was already used; the impersonation session has ended');
  }
  if (session.endedAt) throw errors.unauthorized('The impersonation session has ended');
  if (!isSessionOpen(session, deps.config.sessionMaxSeconds.impersonation, now)) {
    await repo.endSession(deps.knex, session.id, now);
    throw errors.unauthorized('The impersonation session has reached its maximum length; start a new one');
  }
  const admin = await findUserById(deps.knex, session.adminUserId);
  if (!admin || !admin.isActive) throw errors.unauthorized('User no longer exists');
  const refreshToken = newOpaqueToken();
  const rotated = await deps.knex.transaction(async (trx) => {
    if (!(await repo.rotateSessionRefreshHash(trx, session.id, oldHash, hashOpaqueToken(refreshToken)))) return false;
    await repo.recordUsedRefreshHash(trx, session.id, oldHash);
    return true;
  });
  if (!rotated) {
    // another refresh with the same token won the compare-and-set: the token was used twice
    await repo.endSession(deps.knex, session.id, now);
    throw errors.unauthorized('This impersonation refresh token was already used; the impersonation session has ended');
  }
  const accessToken = accessTokenFor(
    deps.config,
    { ...admin, role: 'OWNER', tenantId: session.tenantId },
    { imp: { sessionId: session.id, adminUserId: admin.id } },
  );
  const untilDeadline = Math.floor((sessionDeadline(session.startedAt, deps.config.sessionMaxSeconds.impersonation).getTime() - now.getTime()) / 1000);
  return {
    accessToken,
    refreshToken,
    expiresIn: deps.config.accessTokenTtlSeconds,
    refreshExpiresIn: Math.max(1, Math.min(deps.config.refreshTokenTtlSeconds, untilDeadline)),
    user: toAuthUser(admin),
  };
}

/** One audit row per mutating request made with an impersonation token: never the body, only its SHA-256. */
export async function recordMutation(
  db: Db,
  sessionId: string,
  request: { method: string; path: string; statusCode: number; body: Buffer | undefined },
): Promise<void> {
  await repo.insertAuditEntry(db, {
    sessionId,
    method: request.method,
    path: request.path.slice(0, 2000),
    statusCode: request.statusCode,
    bodyHash: crypto
      .createHash('sha256')
      .update(request.body ?? Buffer.alloc(0))
      .digest('hex'),
  });
}

/** GET /superadmin/impersonate/sessions */
export async function listSessions(db: Db, q: { tenantId?: string; activeOnly?: boolean; page: number; limit: number }) {
  const { rows, total } = await repo.pageOfSessions(db, { tenantId: q.tenantId, activeOnly: q.activeOnly }, q);
  return { rows: rows.map(toSessionDto), total, page: q.page, limit: q.limit };
}

/** GET /superadmin/impersonate/sessions/:id/logs */
export async function sessionLogs(db: Db, sessionId: string, page: { page: number; limit: number }) {
  if (!(await repo.findSession(db, sessionId))) throw errors.notFound('impersonationSession');
  const { rows, total } = await repo.pageOfAuditEntries(db, sessionId, page);
  return { rows: rows.map((r) => ({ ...r, occurredAt: toIso(r.occurredAt) })), total, page: page.page, limit: page.limit };
}
