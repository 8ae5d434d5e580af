// Customer sign-in with an external OpenID Connect provider (docs/rules/auth.md#customer-sign-in): the ID token is
// verified (IdTokenVerifier), its nonce is claimed once (a replayed token is refused), the account
// is found by (issuer, subject) or created, and a session is issued in the same shape as the staff
// sessions of domain/auth/sessions.ts: a short-lived JWT (`type: customer`, token version `tv`) and
// an opaque rotating refresh token stored only as its hash, in families; presenting a rotated token
// again revokes the family.
import crypto from 'node:crypto';
import type { AppConfig } from '../../config';
import type { Db } from '../../db/db-handle';
import { nowOf, type Clock } from '../time/clock';
import { salonsOfAccount } from '../customer/customer.repository';
import { DEFAULT_PHONE_REGION, optionalPhone, samePhone } from '../phone/phone.rules';
import { errors } from '../errors';
import { toIso, toIsoOrNull } from '../time/iso';
import { hashOpaqueToken, newOpaqueToken, signCustomerAccessToken } from '../auth/tokens';
import { customerTokenHolder, endAuthSession, findAuthSession, insertAuthSession } from '../auth/session.repository';
import { isSessionOpen, sessionDeadline } from '../auth/session.rules';
import type { IdTokenVerifier } from './id-token-verifier';
import * as repo from './customer-account.repository';

export interface CustomerAuthDeps {
  config: Pick<AppConfig, 'keys' | 'accessTokenTtlSeconds' | 'refreshTokenTtlSeconds' | 'sessionMaxSeconds'>;
  knex: Db;
  /** unset: no identity provider is configured (OIDC_ISSUER) */
  idTokenVerifier?: IdTokenVerifier;
  now?: Clock;
}

export interface CustomerAccountDto {
  id: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  phone: string | null;
  /** the phone was proven with a one-time code (docs/rules/customers.md#verifying-a-phone) */
  phoneVerified: boolean;
  lastLoginAt: string | null;
  createdAt: string;
}

export interface CustomerSessionTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
  customer: CustomerAccountDto;
  /** true when this sign-in created the account */
  created?: boolean;
}

export function toAccountDto(a: repo.CustomerAccountRow): CustomerAccountDto {
  return {
    id: a.id,
    email: a.email,
    emailVerified: a.emailVerified,
    name: a.name,
    phone: a.phone,
    phoneVerified: a.phoneVerifiedAt !== null,
    lastLoginAt: toIsoOrNull(a.lastLoginAt),
    createdAt: toIso(a.createdAt),
  };
}

/**
 * A new refresh token (and access token) in `session`, or in a new session that starts now
 * (docs/rules/auth.md#sessions); the refresh token never outlives the session's maximum length.
 */
async function issueCustomerSession(
  db: Db,
  deps: CustomerAuthDeps,
  account: repo.CustomerAccountRow,
  now: Date,
  session?: { id: string; startedAt: Date },
): Promise<CustomerSessionTokens> {
  const open = session ?? { id: await insertAuthSession(db, { customerAccountId: account.id }, now), startedAt: now };
  const deadline = sessionDeadline(open.startedAt, deps.config.sessionMaxSeconds.customer).getTime();
  const expiresAt = new Date(Math.min(now.getTime() + deps.config.refreshTokenTtlSeconds * 1000, deadline));
  const refreshToken = newOpaqueToken();
  await repo.insertCustomerRefreshToken(db, { accountId: account.id, familyId: open.id, tokenHash: hashOpaqueToken(refreshToken), expiresAt });
  return {
    accessToken: signCustomerAccessToken(
      { secret: deps.config.keys.accessToken, accessTtlSeconds: deps.config.accessTokenTtlSeconds },
      { sub: account.id, tv: account.tokenVersion, sid: open.id },
    ),
    refreshToken,
    expiresIn: deps.config.accessTokenTtlSeconds,
    refreshExpiresIn: Math.max(1, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)),
    customer: toAccountDto(account),
  };
}

/** Ends a customer session: its refresh tokens are revoked and its access tokens stop working. */
async function endCustomerSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await repo.revokeCustomerRefreshTokens(db, { familyId: sessionId }, now);
  await endAuthSession(db, sessionId, now);
}

/** POST /auth/customer/oauth: `{idToken, nonce}` -> a customer session (201 when the account is new). */
export async function signInWithIdToken(deps: CustomerAuthDeps, input: { idToken: string; nonce: string }): Promise<CustomerSessionTokens> {
  if (!deps.idTokenVerifier) throw errors.unavailable('CUSTOMER_SIGN_IN_NOT_CONFIGURED', 'Customer sign-in is not configured (OIDC_ISSUER)');
  const identity = await deps.idTokenVerifier.verify(input.idToken, input.nonce);
  const now = nowOf(deps);
  return deps.knex.transaction(async (trx) => {
    if (!(await repo.claimNonce(trx, identity.issuer, input.nonce, identity.expiresAt, now))) {
      throw errors.unauthorized('ID token nonce has already been used; start the sign-in again');
    }
    let created = false;
    let accountId = await repo.findAccountIdByIdentity(trx, identity.issuer, identity.subject);
    if (!accountId) {
      const candidate = await repo.insertAccount(trx, { email: identity.email, emailVerified: identity.emailVerified, name: identity.name });
      if (await repo.insertIdentityUnlessTaken(trx, candidate, { issuer: identity.issuer, subject: identity.subject, email: identity.email }, now)) {
        accountId = candidate;
        created = true;
      } else {
        // a parallel first sign-in of the same person won: use its account, drop ours
        await repo.deleteAccount(trx, candidate);
        accountId = (await repo.findAccountIdByIdentity(trx, identity.issuer, identity.subject))!;
      }
    } else {
      await repo.touchIdentity(trx, identity.issuer, identity.subject, identity.email, now);
    }
    const account = await repo.findAccount(trx, accountId, true);
    if (!account || !account.isActive) throw errors.unauthorized('This customer account is disabled');
    const updated = await repo.patchAccount(trx, account.id, {
      lastLoginAt: now,
      // the provider's e-mail and name fill what the customer has not set
      ...(!account.email && identity.email ? { email: identity.email, emailVerified: identity.emailVerified } : {}),
      ...(account.email && identity.email === account.email && identity.emailVerified && !account.emailVerified ? { emailVerified: true } : {}),
      ...(!account.name && identity.name ? { name: identity.name } : {}),
    });
    return { ...(await issueCustomerSession(trx, deps, updated, now)), created };
  });
}

/** POST /auth/customer/refresh: rotation with reuse detection and the session's maximum length, as for staff refresh tokens. */
export async function refreshCustomerSession(deps: CustomerAuthDeps, rawToken: string | undefined): Promise<CustomerSessionTokens> {
  if (!rawToken) throw errors.unauthorized('Refresh token required');
  const now = nowOf(deps);
  const outcome = await deps.knex.transaction(async (trx): Promise<CustomerSessionTokens | 'reused' | 'revoked' | 'too-old' | 'invalid'> => {
    const row = await repo.findCustomerRefreshToken(trx, hashOpaqueToken(rawToken), true);
    if (!row) return 'invalid';
    if (row.revokedAt) return 'revoked';
    if (row.rotatedAt) {
      await endCustomerSession(trx, row.familyId, now);
      return 'reused';
    }
    if (new Date(row.expiresAt).getTime() < now.getTime()) return 'invalid';
    const session = await findAuthSession(trx, row.familyId, true);
    if (!session || session.endedAt) return 'revoked';
    if (!isSessionOpen(session, deps.config.sessionMaxSeconds.customer, now)) {
      await endCustomerSession(trx, session.id, now);
      return 'too-old';
    }
    const account = await repo.findAccount(trx, row.accountId);
    if (!account || !account.isActive) return 'invalid';
    await repo.markCustomerTokenRotated(trx, row.id, now);
    return issueCustomerSession(trx, deps, account, now, { id: session.id, startedAt: new Date(session.startedAt) });
  });
  if (outcome === 'reused') throw errors.unauthorized('Refresh token was already used; the session has been revoked');
  if (outcome === 'revoked') throw errors.unauthorized('This session has ended (signed out); sign in again');
  if (outcome === 'too-old') throw errors.unauthorized('This session has reached its maximum length; sign in again');
  if (outcome === 'invalid') throw errors.unauthorized('Invalid or expired refresh token');
  return outcome;
}

/**
 * POST /auth/customer/logout: ends the refresh token's session and the one the request's access
 * token belongs to (their access tokens stop working at once); unknown or missing tokens are fine.
 */
export async function logoutCustomer(deps: CustomerAuthDeps, rawToken: string | undefined, accessSessionId?: string): Promise<void> {
  const now = nowOf(deps);
  await deps.knex.transaction(async (trx) => {
    const row = rawToken ? await repo.findCustomerRefreshToken(trx, hashOpaqueToken(rawToken)) : undefined;
    if (row) await endCustomerSession(trx, row.familyId, now);
    if (accessSessionId && accessSessionId !== row?.familyId) await endCustomerSession(trx, accessSessionId, now);
  });
}

/**
 * Is the holder of a customer token still allowed in: the account active, the token version
 * current, the session neither signed out nor past its maximum length? One round trip.
 */
export async function customerTokenStatus(
  db: Db,
  claims: { sub: string; tv: number; sid: string },
  maxSeconds: number,
  now: Date,
): Promise<'ok' | 'gone' | 'revoked' | 'session-ended'> {
  const holder = await customerTokenHolder(db, claims.sub, claims.sid);
  if (!holder || !holder.is_active) return 'gone';
  if (holder.token_version !== claims.tv) return 'revoked';
  const open = holder.session_started_at !== null && isSessionOpen({ startedAt: holder.session_started_at, endedAt: holder.session_ended_at }, maxSeconds, now);
  return open ? 'ok' : 'session-ended';
}

async function activeAccount(db: Db, accountId: string, lock = false): Promise<repo.CustomerAccountRow> {
  const account = await repo.findAccount(db, accountId, lock);
  if (!account || !account.isActive) throw errors.unauthorized('Customer account no longer exists');
  return account;
}

/** GET /auth/customer/me */
export async function currentCustomer(db: Db, accountId: string): Promise<CustomerAccountDto> {
  return toAccountDto(await activeAccount(db, accountId));
}

export interface CustomerMeDto extends CustomerAccountDto {
  salons: { tenantId: string; slug: string; name: string; customerId: string }[];
}

/** GET /customer/me: the account and the salons that know it as a customer. */
export async function customerProfile(db: Db, accountId: string): Promise<CustomerMeDto> {
  const account = await activeAccount(db, accountId);
  return { ...toAccountDto(account), salons: await salonsOfAccount(db, accountId) };
}

/** The account's customer record in each salon that knows it (their loyalty cards and vouchers hang off these). */
export async function customerIdsOfAccount(db: Db, accountId: string): Promise<string[]> {
  return (await salonsOfAccount(db, accountId)).map((s) => s.customerId);
}

/**
 * PATCH /customer/me/profile: name and phone (the e-mail is the identity provider's). A new phone is
 * not proven: the account's proof goes until the new number is verified (docs/rules/customers.md#verifying-a-phone).
 */
export async function updateCustomerProfile(db: Db, accountId: string, patch: { name?: string; phone?: string | null }): Promise<CustomerMeDto> {
  await db.transaction(async (trx) => {
    const account = await activeAccount(trx, accountId, true);
    const changes: Partial<repo.CustomerAccountRow> = {};
    if (patch.name !== undefined) {
      const name = patch.name.trim();
      if (!name) throw errors.validation('Request validation failed', [{ field: 'name', message: 'must not be empty' }]);
      changes.name = name;
    }
    if (patch.phone !== undefined) {
      // an account belongs to no salon: a number without a country code is read as Norway's (docs/rules/conventions.md#phone-numbers)
      changes.phone = optionalPhone(patch.phone, DEFAULT_PHONE_REGION, 'phone');
      if (!samePhone(changes.phone, account.phone)) changes.phoneVerifiedAt = null;
    }
    if (Object.keys(changes).length) await repo.patchAccount(trx, accountId, changes);
  });
  return customerProfile(db, accountId);
}
