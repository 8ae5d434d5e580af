// Staff, owner and platform-admin authentication (spec 4.1, 5.1-5.3): registration, login,
// refresh-token rotation with reuse detection, logout, profile and password change.
import type { Knex } from 'knex';
import type { AppConfig } from '../../config';
import { TenantModel } from '../../db/models/tenant.model';
import { UserModel } from '../../db/models/user.model';
import { RefreshTokenModel } from '../../db/models/refresh-token.model';
import { errors } from '../errors';
import { hashPassword, verifyPassword } from './passwords';
import { hashOpaqueToken, type ImpersonationClaim } from './tokens';
import { issueSession, revokeAllForUser, revokeFamily, type SessionTokens } from './sessions';
import { findResourceIdForUser } from './staff-resource.lookup';
import { toAuthUser, type AuthUserDto } from './user.dto';
import { createTenantWithOwner } from '../tenant/tenant.service';
import type { IndustryType, TenantSettings } from '../tenant/tenant-settings.rules';

export interface AuthDeps {
  config: AppConfig;
  knex: Knex;
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
    const loggedIn = await UserModel.query(trx).patchAndFetchById(owner.id, { lastLoginAt: new Date() });
    return issueSession(trx, deps.config, loggedIn);
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
    const tenant = await TenantModel.query().select('id').findOne({ slug: input.tenantSlug });
    if (!tenant) {
      await spendPasswordCheck(deps, input.password);
      throw invalidCredentials();
    }
    tenantId = tenant.id;
  }
  const query = UserModel.query().where({ isActive: true });
  if (input.email) query.where('email', input.email);
  else query.where('phone', input.phone ?? '');
  if (tenantId) query.where((q) => q.where('tenantId', tenantId!).orWhereNull('tenantId'));
  const candidates = await query;
  if (candidates.length === 0) {
    await spendPasswordCheck(deps, input.password);
    throw invalidCredentials();
  }
  const matching: UserModel[] = [];
  for (const user of candidates) if (await verifyPassword(input.password, user.passwordHash)) matching.push(user);
  if (matching.length === 0) throw invalidCredentials();
  // A tenant account wins over a platform admin with the same e-mail when a tenant is given.
  const inTenant = tenantId ? matching.filter((u) => u.tenantId === tenantId) : [];
  let user: UserModel | undefined;
  if (inTenant.length === 1) user = inTenant[0];
  else if (matching.length === 1) user = matching[0];
  // No tenant given: the platform login (an ADMIN) wins over salon accounts with the same credentials.
  else if (!tenantId) user = matching.find((u) => u.tenantId === null);
  if (!user) {
    const ids = matching.map((u) => u.tenantId).filter((id): id is string => id !== null);
    const tenants = await TenantModel.query().select('slug').whereIn('id', ids).orderBy('slug');
    throw errors.conflict(
      'LOGIN_TENANT_AMBIGUOUS',
      'This account exists in several salons; send tenantSlug (or x-tenant-id) to choose one',
      tenants.map((t) => ({ field: 'tenantSlug', message: `one of: ${t.slug}` })),
    );
  }
  const loggedIn = await UserModel.query().patchAndFetchById(user.id, { lastLoginAt: new Date() });
  return issueSession(deps.knex, deps.config, loggedIn);
}

/**
 * Rotation: the presented token is marked rotated and a new one is issued in the same family.
 * A token that was already rotated or revoked is a replay: the whole family is revoked (committed
 * even though the request fails) and the answer is 401.
 */
export async function refresh(deps: AuthDeps, rawToken: string | undefined): Promise<SessionTokens> {
  if (!rawToken) throw errors.unauthorized('Refresh token required');
  const tokenHash = hashOpaqueToken(rawToken);
  const outcome = await deps.knex.transaction(async (trx): Promise<SessionTokens | 'reused' | 'invalid'> => {
    const row = await RefreshTokenModel.query(trx).findOne({ tokenHash }).forUpdate();
    if (!row) return 'invalid';
    if (row.rotatedAt || row.revokedAt) {
      await revokeFamily(trx, row.familyId);
      return 'reused';
    }
    if (new Date(row.expiresAt).getTime() <= Date.now()) return 'invalid';
    const user = await UserModel.query(trx).findById(row.userId);
    if (!user || !user.isActive) return 'invalid';
    await RefreshTokenModel.query(trx).patch({ rotatedAt: new Date() }).where({ id: row.id });
    return issueSession(trx, deps.config, user, row.familyId);
  });
  if (outcome === 'reused') throw errors.unauthorized('Refresh token was already used; the session has been revoked');
  if (outcome === 'invalid') throw errors.unauthorized('Invalid or expired refresh token');
  return outcome;
}

/** Revokes the token's family. Unknown, expired or missing tokens are fine (idempotent). */
export async function logout(deps: AuthDeps, rawToken: string | undefined): Promise<void> {
  if (!rawToken) return;
  const row = await RefreshTokenModel.query(deps.knex).findOne({ tokenHash: hashOpaqueToken(rawToken) });
  if (row) await revokeFamily(deps.knex, row.familyId);
}

export interface MeDto extends AuthUserDto {
  resourceId: string | null;
  impersonation: ImpersonationClaim | null;
}

async function activeUser(userId: string): Promise<UserModel> {
  const user = await UserModel.query().findById(userId);
  if (!user || !user.isActive) throw errors.unauthorized('User no longer exists');
  return user;
}

/**
 * The current user. While an admin impersonates an owner (spec 5.6) the token's `sub` is the admin:
 * the answer shows the admin's identity acting as OWNER of the target tenant, plus the
 * `impersonation` block.
 */
export async function me(deps: AuthDeps, principal: { userId: string; tenantId: string | null; role: string; impersonation?: ImpersonationClaim }): Promise<MeDto> {
  const user = await activeUser(principal.userId);
  if (principal.impersonation) {
    return { ...toAuthUser(user), role: principal.role as MeDto['role'], tenantId: principal.tenantId, resourceId: null, impersonation: principal.impersonation };
  }
  const resourceId = user.role === 'ADMIN' ? null : await findResourceIdForUser(deps.knex, user.tenantId, user.id);
  return { ...toAuthUser(user), resourceId, impersonation: null };
}

/** E-mail and phone, unique within the user's salon (USER_EMAIL_EXISTS / USER_PHONE_EXISTS). */
export async function updateProfile(deps: AuthDeps, userId: string, patch: { email?: string; phone?: string | null }): Promise<MeDto> {
  return deps.knex.transaction(async (trx) => {
    const user = await UserModel.query(trx).findById(userId).forUpdate();
    if (!user || !user.isActive) throw errors.unauthorized('User no longer exists');
    const scope = (q: ReturnType<typeof UserModel.query>) =>
      user.tenantId ? q.where('tenantId', user.tenantId) : q.whereNull('tenantId');
    if (patch.email !== undefined && patch.email.toLowerCase() !== (user.email ?? '').toLowerCase()) {
      const clash = await scope(UserModel.query(trx).select('id').where('email', patch.email).whereNot('id', user.id)).first();
      if (clash) throw errors.conflict('USER_EMAIL_EXISTS', 'A user with this e-mail already exists in this salon');
    }
    if (patch.phone !== undefined && patch.phone !== null && patch.phone !== user.phone) {
      const clash = await scope(UserModel.query(trx).select('id').where('phone', patch.phone).whereNot('id', user.id)).first();
      if (clash) throw errors.conflict('USER_PHONE_EXISTS', 'A user with this phone already exists in this salon');
    }
    const email = patch.email ?? user.email;
    const phone = patch.phone === undefined ? user.phone : patch.phone;
    if (!email && !phone) throw errors.validation('An e-mail or a phone is required', [{ field: 'phone', message: 'cannot be removed without an e-mail' }]);
    const updated = await UserModel.query(trx).patchAndFetchById(user.id, { email, phone });
    return { ...toAuthUser(updated), resourceId: updated.role === 'ADMIN' ? null : await findResourceIdForUser(trx, updated.tenantId, updated.id), impersonation: null };
  });
}

/**
 * Needs the current password. Bumps token_version (every older access token stops working) and
 * revokes every refresh token of the user; the caller gets a fresh session.
 */
export async function changePassword(deps: AuthDeps, userId: string, currentPassword: string, newPassword: string): Promise<SessionTokens> {
  const user = await activeUser(userId);
  if (!(await verifyPassword(currentPassword, user.passwordHash))) {
    throw errors.unprocessable('CURRENT_PASSWORD_INCORRECT', 'The current password is not correct', [{ field: 'currentPassword', message: 'is not correct' }]);
  }
  const passwordHash = await hashPassword(newPassword, deps.config.passwordHashRounds);
  return deps.knex.transaction(async (trx) => {
    const updated = await UserModel.query(trx).patchAndFetchById(user.id, { passwordHash, tokenVersion: user.tokenVersion + 1 });
    await revokeAllForUser(trx, user.id);
    return issueSession(trx, deps.config, updated);
  });
}
