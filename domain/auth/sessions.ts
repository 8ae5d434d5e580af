// Sessions = an access token (JWT) plus a rotating refresh token. Refresh tokens are opaque, stored
// only as SHA-256 hashes in refresh_tokens and grouped by family_id: each login starts a family,
// each refresh rotates within it, and presenting a rotated token again revokes the whole family.
import crypto from 'node:crypto';
import type { AppConfig } from '../../config';
import type { Db } from '../../db/db-handle';
import { insertRefreshToken, revokeRefreshTokens } from './refresh-token.repository';
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

export type SessionConfig = Pick<AppConfig, 'jwtSecret' | 'accessTokenTtlSeconds' | 'refreshTokenTtlSeconds'>;

export function accessTokenFor(config: SessionConfig, user: UserRow, imp?: ImpersonationClaim): string {
  return signAccessToken(
    { secret: config.jwtSecret, accessTtlSeconds: config.accessTokenTtlSeconds },
    { sub: user.id, tenantId: user.tenantId, role: user.role, tv: user.tokenVersion, ...(imp ? { imp } : {}) },
  );
}

/** Signs an access token and stores a new refresh token (in `familyId`, or a new family), valid from `now`. */
export async function issueSession(db: Db, config: SessionConfig, user: UserRow, now: Date, familyId?: string): Promise<SessionTokens> {
  const refreshToken = newOpaqueToken();
  await insertRefreshToken(db, {
    userId: user.id,
    familyId: familyId ?? crypto.randomUUID(),
    tokenHash: hashOpaqueToken(refreshToken),
    expiresAt: new Date(now.getTime() + config.refreshTokenTtlSeconds * 1000),
  });
  return {
    accessToken: accessTokenFor(config, user),
    refreshToken,
    expiresIn: config.accessTokenTtlSeconds,
    refreshExpiresIn: config.refreshTokenTtlSeconds,
    user: toAuthUser(user),
  };
}

export async function revokeFamily(db: Db, familyId: string, now: Date): Promise<void> {
  await revokeRefreshTokens(db, { familyId }, now);
}

export async function revokeAllForUser(db: Db, userId: string, now: Date): Promise<void> {
  await revokeRefreshTokens(db, { userId }, now);
}
