// Access tokens (JWT) and opaque secrets (refresh and reset tokens), in one place.
import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Role } from '../users/roles.rules';

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
  /** the sign-in session (auth_sessions) the token belongs to; absent on impersonation tokens, whose session is `imp` */
  sid?: string;
  imp?: ImpersonationClaim;
  iat?: number;
  exp?: number;
}

export interface TokenSettings {
  secret: string;
  accessTtlSeconds: number;
}

const hmacKeys = new Map<string, crypto.KeyObject>();

/**
 * The secret as a KeyObject, made once per secret. Given a string, jsonwebtoken first tries to read
 * it as a PEM public or private key and only makes a secret key after that throws, on every call:
 * that was most of the api's CPU on every signed-in request (docs/performance-history.md#2026-11-28-the-access-token-check).
 */
export function hmacKey(secret: string): crypto.KeyObject {
  let key = hmacKeys.get(secret);
  if (!key) hmacKeys.set(secret, (key = crypto.createSecretKey(Buffer.from(secret))));
  return key;
}

export function signAccessToken(settings: TokenSettings, claims: Omit<AccessClaims, 'iat' | 'exp'>): string {
  return jwt.sign({ ...claims }, hmacKey(settings.secret), { algorithm: 'HS256', expiresIn: settings.accessTtlSeconds });
}

/** Random URL-safe secret for refresh and reset tokens; only its hash is stored. */
export function newOpaqueToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashOpaqueToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** A customer's access token (docs/rules/auth.md#tokens): `type: customer`, the account as `sub`, its token version. */
export interface CustomerAccessClaims {
  sub: string;
  type: 'customer';
  role: 'CUSTOMER';
  tv: number;
  /** the sign-in session (auth_sessions) */
  sid: string;
  iat?: number;
  exp?: number;
}

export function signCustomerAccessToken(settings: TokenSettings, claims: Omit<CustomerAccessClaims, 'iat' | 'exp' | 'type' | 'role'>): string {
  return jwt.sign({ ...claims, type: 'customer', role: 'CUSTOMER' }, hmacKey(settings.secret), { algorithm: 'HS256', expiresIn: settings.accessTtlSeconds });
}

/** The claims of a valid customer token; undefined for anything else (staff tokens included), with why. */
export function verifyCustomerAccessToken(secret: string, token: string): { claims?: CustomerAccessClaims; failure?: string } {
  let decoded: unknown;
  try {
    decoded = jwt.verify(token, hmacKey(secret), { algorithms: ['HS256'] });
  } catch (err) {
    return { failure: (err as Error).name === 'TokenExpiredError' ? 'Token expired' : 'Invalid token' };
  }
  const c = decoded as Partial<CustomerAccessClaims>;
  if (c.type !== 'customer') return { failure: 'Staff tokens are not accepted here; sign in as a customer' };
  if (!isUuid(c.sub) || !isUuid(c.sid) || typeof c.tv !== 'number') return { failure: 'Invalid token' };
  return { claims: c as CustomerAccessClaims };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A claim that names a row must be a UUID: anything else names no one (401), never a query. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
