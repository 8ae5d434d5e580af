// Staff, owner and platform-admin authentication (docs/rules/auth.md): registration, login,
// refresh-token rotation with reuse detection, logout, profile and password change.
import { DEFAULT_PHONE_REGION, optionalPhone, toE164 } from '../phone/phone.rules';
import { salonPhoneRegion } from '../tenant/tenant-context';
import type { AppConfig } from '../../config';
import type { Db } from '../../db/db-handle';
import { nowOf, type Clock } from '../time/clock';
import { findTenantBySlug, slugsOf } from '../tenant/tenant.repository';
import { findResourceIdOfUser } from '../resource/resource.repository';
import { activeUsersBy, contactTaken, findUserById, patchUser, type UserRow } from '../users/user.repository';
import { findRefreshToken, markRotated } from './refresh-token.repository';
import { errors } from '../errors';
import { hashPassword, verifyPassword } from '../users/passwords';
import { hashOpaqueToken, type ImpersonationClaim } from './tokens';
import { issueSession, revokeAllForUser, revokeFamily, type SessionTokens } from './sessions';
import { toAuthUser, type AuthUserDto } from '../users/user.dto';
import { createTenantWithOwner } from '../tenant/tenant.service';
import type { IndustryType, TenantSettings } from '../tenant/tenant-settings.rules';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { startTrial } from '../billing/subscription.service';

export interface AuthDeps {
  config: AppConfig;
  knex: Db;
  /** registration starts the trial by signalling `subscription:<tenantId>` */
  signaller: EntitySignaller;
  /** the clock (the trial starts by it); unset: the system clock */
  now?: Clock;
}

const invalidCredentials = () => errors.unauthorized('Invalid credentials');
/** Compared against when no account matches, so the response time does not reveal it. */
let dummyHash: Promise<string> | undefined;
async function spendPasswordCheck(deps: AuthDeps, password: string): Promise<void> {
  dummyHash ??= hashPassword('no-such-account-dummy', deps.config.passwordHashRounds);
  await verifyPassword(password, await dummyHash);
}

export interface RegisterInput {
  salonName: string;
  slug: string;
  industryType?: IndustryType;
  settings?: Partial<TenantSettings>;
  ownerName?: string;
  email: string;
  phone?: string;
  password: string;
}

/** Tenant + OWNER + default rows + first session, all in one transaction. */
export async function register(deps: AuthDeps, input: RegisterInput): Promise<SessionTokens> {
  const now = nowOf(deps);
  return deps.knex.transaction(async (trx) => {
    const { owner } = await createTenantWithOwner(
      trx,
      {
        name: input.salonName,
        slug: input.slug,
        industryType: input.industryType,
        settings: input.settings,
        owner: { email: input.email, password: input.password, name: input.ownerName, phone: input.phone },
      },
      deps.config.passwordHashRounds,
    );
    await startTrial(trx, deps.signaller, owner.tenantId!, now);
    const loggedIn = await patchUser(trx, owner.id, { lastLoginAt: now });
    return issueSession(trx, deps.config, loggedIn, now);
  });
}

export interface LoginInput {
  email?: string;
  phone?: string;
  password: string;
  tenantSlug?: string;
}

/**
 * Login by e-mail or phone. The tenant comes from `tenantSlug`, else `resolvedTenantId` (x-tenant-id
 * header or host). With a tenant, only that salon's account (or the platform ADMIN with that
 * e-mail) can match. Without one, every account with the identifier is tried; if the password
 * matches accounts in several salons the answer is 409 LOGIN_TENANT_AMBIGUOUS with the salons' slugs.
 */
export async function login(deps: AuthDeps, input: LoginInput, resolvedTenantId?: string): Promise<SessionTokens> {
  let tenantId = resolvedTenantId;
  if (input.tenantSlug) {
    const tenant = await findTenantBySlug(deps.knex, input.tenantSlug);
    if (!tenant) {
      await spendPasswordCheck(deps, input.password);
      throw invalidCredentials();
    }
    tenantId = tenant.id;
  }
  // a number is looked up as stored (E.164), read in the salon's country; one that is no number finds nobody
  const phone = input.email ? null : (toE164(input.phone, tenantId ? await salonPhoneRegion(deps.knex, tenantId) : DEFAULT_PHONE_REGION) ?? input.phone ?? '');
  const candidates = await activeUsersBy(deps.knex, input.email ? { email: input.email } : { phone: phone! }, tenantId, true);
  if (candidates.length === 0) {
    await spendPasswordCheck(deps, input.password);
    throw invalidCredentials();
  }
  const matching: UserRow[] = [];
  for (const user of candidates) if (await verifyPassword(input.password, user.passwordHash)) matching.push(user);
  if (matching.length === 0) throw invalidCredentials();
  // A tenant account wins over a platform admin with the same e-mail when a tenant is given.
  const inTenant = tenantId ? matching.filter((u) => u.tenantId === tenantId) : [];
  let user: UserRow | undefined;
  if (inTenant.length === 1) user = inTenant[0];
  else if (matching.length === 1) user = matching[0];
  // No tenant given: the platform login (an ADMIN) wins over salon accounts with the same credentials.
  else if (!tenantId) user = matching.find((u) => u.tenantId === null);
  if (!user) {
    const ids = matching.map((u) => u.tenantId).filter((id): id is string => id !== null);
    const slugs = await slugsOf(deps.knex, ids);
    throw errors.conflict(
      'LOGIN_TENANT_AMBIGUOUS',
      'This account exists in several salons; send tenantSlug (or x-tenant-id) to choose one',
      slugs.map((slug) => ({ field: 'tenantSlug', message: `one of: ${slug}` })),
    );
  }
  const now = nowOf(deps);
  const loggedIn = await patchUser(deps.knex, user.id, { lastLoginAt: now });
  return issueSession(deps.knex, deps.config, loggedIn, now);
}

/**
 * Rotation: the presented token is marked rotated and a new one is issued in the same family.
 * A token that was already rotated is a replay: the whole family is revoked (committed even though
 * the request fails) and the answer is 401. A revoked token (its session ended) is simply 401.
 */
export async function refresh(deps: AuthDeps, rawToken: string | undefined): Promise<SessionTokens> {
  if (!rawToken) throw errors.unauthorized('Refresh token required');
  const tokenHash = hashOpaqueToken(rawToken);
  const now = nowOf(deps);
  const outcome = await deps.knex.transaction(async (trx): Promise<SessionTokens | 'reused' | 'revoked' | 'invalid'> => {
    const row = await findRefreshToken(trx, tokenHash, true);
    if (!row) return 'invalid';
    // Revoked (logout, password change or reset): simply no longer valid. Rotated: a replay.
    if (row.revokedAt) return 'revoked';
    if (row.rotatedAt) {
      await revokeFamily(trx, row.familyId, now);
      return 'reused';
    }
    if (new Date(row.expiresAt).getTime() <= now.getTime()) return 'invalid';
    const user = await findUserById(trx, row.userId);
    if (!user || !user.isActive) return 'invalid';
    await markRotated(trx, row.id, now);
    return issueSession(trx, deps.config, user, now, row.familyId);
  });
  if (outcome === 'reused') throw errors.unauthorized('Refresh token was already used; the session has been revoked');
  if (outcome === 'revoked') throw errors.unauthorized('This session has ended (signed out or the password changed); sign in again');
  if (outcome === 'invalid') throw errors.unauthorized('Invalid or expired refresh token');
  return outcome;
}

/** Revokes the token's family. Unknown, expired or missing tokens are fine (idempotent). */
export async function logout(deps: AuthDeps, rawToken: string | undefined): Promise<void> {
  if (!rawToken) return;
  const row = await findRefreshToken(deps.knex, hashOpaqueToken(rawToken));
  if (row) await revokeFamily(deps.knex, row.familyId, nowOf(deps));
}

/** GET /auth/me's resourceId: the staff member linked to the login, inside the user's own salon (never for a platform ADMIN). */
async function resourceIdOf(db: Db, user: UserRow): Promise<string | null> {
  return user.role === 'ADMIN' || !user.tenantId ? null : findResourceIdOfUser(db, user.id, user.tenantId);
}

/**
 * Is the signed-in user of an access token still allowed in? 'gone' when the user was deleted or
 * deactivated, 'revoked' when the token's version is older than the user's (password changed).
 * Impersonation tokens carry the admin as `sub`, so their validity follows the admin's version.
 */
export async function tokenHolderStatus(db: Db, userId: string, tokenVersion: number): Promise<'ok' | 'gone' | 'revoked'> {
  const user = await findUserById(db, userId);
  if (!user || !user.isActive) return 'gone';
  return user.tokenVersion === tokenVersion ? 'ok' : 'revoked';
}

export interface MeDto extends AuthUserDto {
  resourceId: string | null;
  impersonation: ImpersonationClaim | null;
}

async function activeUser(db: Db, userId: string, lock = false): Promise<UserRow> {
  const user = await findUserById(db, userId, lock);
  if (!user || !user.isActive) throw errors.unauthorized('User no longer exists');
  return user;
}

/**
 * The current user. While an admin impersonates an owner (docs/rules/auth.md#impersonation) the token's `sub` is the admin:
 * the answer shows the admin's identity acting as OWNER of the target tenant, plus the
 * `impersonation` block.
 */
export async function me(deps: AuthDeps, principal: { userId: string; tenantId: string | null; role: string; impersonation?: ImpersonationClaim }): Promise<MeDto> {
  const user = await activeUser(deps.knex, principal.userId);
  if (principal.impersonation) {
    return { ...toAuthUser(user), role: principal.role as MeDto['role'], tenantId: principal.tenantId, resourceId: null, impersonation: principal.impersonation };
  }
  const resourceId = await resourceIdOf(deps.knex, user);
  return { ...toAuthUser(user), resourceId, impersonation: null };
}

/** E-mail and phone, unique within the user's salon (USER_EMAIL_EXISTS / USER_PHONE_EXISTS). */
export async function updateProfile(deps: AuthDeps, userId: string, patch: { email?: string; phone?: string | null }): Promise<MeDto> {
  return deps.knex.transaction(async (trx) => {
    const user = await activeUser(trx, userId, true);
    if (patch.phone) patch = { ...patch, phone: optionalPhone(patch.phone, user.tenantId ? await salonPhoneRegion(trx, user.tenantId) : DEFAULT_PHONE_REGION, 'phone') };
    if (patch.email !== undefined && patch.email.toLowerCase() !== (user.email ?? '').toLowerCase()) {
      if (await contactTaken(trx, user.tenantId, { email: patch.email }, user.id)) throw errors.conflict('USER_EMAIL_EXISTS', 'A user with this e-mail already exists in this salon');
    }
    if (patch.phone !== undefined && patch.phone !== null && patch.phone !== user.phone) {
      if (await contactTaken(trx, user.tenantId, { phone: patch.phone }, user.id)) throw errors.conflict('USER_PHONE_EXISTS', 'A user with this phone already exists in this salon');
    }
    const email = patch.email ?? user.email;
    const phone = patch.phone === undefined ? user.phone : patch.phone;
    if (!email && !phone) throw errors.validation('An e-mail or a phone is required', [{ field: 'phone', message: 'cannot be removed without an e-mail' }]);
    const updated = await patchUser(trx, user.id, { email, phone });
    return { ...toAuthUser(updated), resourceId: await resourceIdOf(trx, updated), impersonation: null };
  });
}

/**
 * Needs the current password. Bumps token_version (every older access token stops working) and
 * revokes every refresh token of the user; the caller gets a fresh session.
 */
export async function changePassword(deps: AuthDeps, userId: string, currentPassword: string, newPassword: string): Promise<SessionTokens> {
  const user = await activeUser(deps.knex, userId);
  if (!(await verifyPassword(currentPassword, user.passwordHash))) {
    throw errors.unprocessable('CURRENT_PASSWORD_INCORRECT', 'The current password is not correct', [{ field: 'currentPassword', message: 'is not correct' }]);
  }
  const passwordHash = await hashPassword(newPassword, deps.config.passwordHashRounds);
  const now = nowOf(deps);
  return deps.knex.transaction(async (trx) => {
    const updated = await patchUser(trx, user.id, { passwordHash, tokenVersion: user.tokenVersion + 1 });
    await revokeAllForUser(trx, user.id, now);
    return issueSession(trx, deps.config, updated, now);
  });
}
