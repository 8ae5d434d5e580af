// Sessions (docs/rules/auth.md#sessions) = an auth_sessions row per sign-in, an access token (JWT,
// `sid` = the session) and a rotating refresh token. Refresh tokens are opaque, stored only as
// SHA-256 hashes in refresh_tokens, grouped by family_id = the session: each login starts one, each
// refresh rotates within it, and presenting a rotated token again revokes the whole family and ends
// the session. Signing out ends the session, which ends its access tokens at once; a session also
// ends its maximum length after it started, however often it is refreshed.
import type { AppConfig } from '../../config';
import type { Db } from '../../db/db-handle';
import { insertRefreshToken, revokeRefreshTokens } from './refresh-token.repository';
import { endAuthSession, insertAuthSession } from './session.repository';
import { sessionDeadline } from './session.rules';
import type { UserRow } from '../users/user.repository';
import { hashOpaqueToken, newOpaqueToken, signAccessToken, type ImpersonationClaim } from './tokens';
import { toAuthUser, type AuthUserDto } from '../users/user.dto';

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  /** refresh token lifetime, for the cookie */
  refreshExpiresIn: number;
  user: AuthUserDto;
}

export type SessionConfig = Pick<AppConfig, 'keys' | 'accessTokenTtlSeconds' | 'refreshTokenTtlSeconds' | 'sessionMaxSeconds'>;

/** An access token of the user's sign-in session `sid`, or of an impersonation session (`imp`). */
export function accessTokenFor(config: SessionConfig, user: UserRow, session: { sid: string } | { imp: ImpersonationClaim }): string {
  return signAccessToken(
    { secret: config.keys.accessToken, accessTtlSeconds: config.accessTokenTtlSeconds },
    { sub: user.id, tenantId: user.tenantId, role: user.role, tv: user.tokenVersion, ...session },
  );
}

/** The session a refresh continues: its id (the refresh-token family) and when it started. */
export interface OpenSession {
  id: string;
  startedAt: Date;
}

/**
 * Signs an access token and stores a new refresh token, valid from `now`: in `session` (a refresh),
 * or in a new session that starts now (a sign-in). The refresh token lives REFRESH_TOKEN_TTL_SECONDS,
 * never past the session's maximum length.
 */
export async function issueSession(db: Db, config: SessionConfig, user: UserRow, now: Date, session?: OpenSession): Promise<SessionTokens> {
  const open = session ?? { id: await insertAuthSession(db, { userId: user.id }, now), startedAt: now };
  const deadline = sessionDeadline(open.startedAt, config.sessionMaxSeconds.staff).getTime();
  const expiresAt = new Date(Math.min(now.getTime() + config.refreshTokenTtlSeconds * 1000, deadline));
  const refreshToken = newOpaqueToken();
  await insertRefreshToken(db, { userId: user.id, familyId: open.id, tokenHash: hashOpaqueToken(refreshToken), expiresAt });
  return {
    accessToken: accessTokenFor(config, user, { sid: open.id }),
    refreshToken,
    expiresIn: config.accessTokenTtlSeconds,
    refreshExpiresIn: Math.max(1, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)),
    user: toAuthUser(user),
  };
}

/** Ends one session: its refresh tokens are revoked and its access tokens stop working. */
export async function endSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await revokeRefreshTokens(db, { familyId: sessionId }, now);
  await endAuthSession(db, sessionId, now);
}

export async function revokeAllForUser(db: Db, userId: string, now: Date): Promise<void> {
  await revokeRefreshTokens(db, { userId }, now);
}
