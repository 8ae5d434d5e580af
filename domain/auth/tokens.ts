// Access tokens (JWT) and opaque secrets (refresh and reset tokens), in one place.
import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Role } from './roles.rules';

export interface ImpersonationClaim {
  sessionId: string;
  adminUserId: string;
}

export interface AccessClaims {
  sub: string;
  tenantId: string | null;
  role: Role;
  /** token version of the user; bumping it on the user invalidates older tokens */
  tv: number;
  imp?: ImpersonationClaim;
  iat?: number;
  exp?: number;
}

export interface TokenSettings {
  secret: string;
  accessTtlSeconds: number;
}

export function signAccessToken(settings: TokenSettings, claims: Omit<AccessClaims, 'iat' | 'exp'>): string {
  return jwt.sign({ ...claims }, settings.secret, { algorithm: 'HS256', expiresIn: settings.accessTtlSeconds });
}

/** Random URL-safe secret for refresh and reset tokens; only its hash is stored. */
export function newOpaqueToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashOpaqueToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
