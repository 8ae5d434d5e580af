// Staff, owner and platform-admin authentication (docs/rules/auth.md): registration, login,
// refresh-token rotation with reuse detection, logout, profile and password change.
import { DEFAULT_PHONE_REGION, optionalPhone, samePhone, toE164 } from '../phone/phone.rules';
import { salonPhoneRegion } from '../tenant/tenant-context';
import type { AppConfig } from '../../config';
import type { Db } from '../../db/db-handle';
import { nowOf, type Clock } from '../time/clock';
import { findTenant, findTenantBySlug, slugsOf } from '../tenant/tenant.repository';
import { toTenantDto } from '../tenant/tenant.dto';
import { findResourceIdOfUser } from '../resource/resource.repository';
import { activeUsersBy, contactTaken, findUserById, patchUser, type UserRow } from '../users/user.repository';
import { findRefreshToken, markRotated } from './refresh-token.repository';
import { errors } from '../errors';
import { assertAcceptablePassword, hashPassword, verifyPassword } from '../users/passwords';
import { requestAccountMessage } from './account-messages';
import { hashOpaqueToken, type ImpersonationClaim } from './tokens';
import { endSession, issueSession, revokeAllForUser, type SessionTokens } from './sessions';
import { findAuthSession, staffTokenHolder } from './session.repository';
import { isSessionOpen } from './session.rules';
import { toAuthUser, type AuthUserDto } from '../users/user.dto';
import { createTenantWithOwner } from '../tenant/tenant.service';
import type { IndustryType, SettingsInput } from '../tenant/tenant-settings.rules';
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
  settings?: SettingsInput;
  ownerName?: string;
  email: string;
  phone?: string;
  password: string;
}

/** Tenant + OWNER + default rows + first session, all in one transaction. */
/** Registration: the new salon and its owner, signed in; the answer carries the salon as its owner sees it (GET /tenants/me). */
export async function register(deps: AuthDeps, input: RegisterInput): Promise<SessionTokens & { tenant: TenantDto }> {
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
      'password',
    );
    await startTrial(trx, deps.signaller, owner.tenantId!, now);
    const loggedIn = await patchUser(trx, owner.id, { lastLoginAt: now });
    const session = await issueSession(trx, deps.config, loggedIn, now);
    // read after the trial started, so the salon shows its subscription as it now is
    return { ...session, tenant: toTenantDto((await findTenant(trx, owner.tenantId!))!) };
  });
}

export type TenantDto = ReturnType<typeof toTenantDto>;

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
 * Rotation: the presented token is marked rotated and a new one is issued in the same session.
 * A token that was already rotated is a replay: the whole family is revoked and the session ended
 * (committed even though the request fails) and the answer is 401. A revoked token (its session
 * ended) is simply 401, and so is a session past its maximum length (docs/rules/auth.md#sessions).
 */
export async function refresh(deps: AuthDeps, rawToken: string | undefined): Promise<SessionTokens> {
  if (!rawToken) throw errors.unauthorized('Refresh token required');
  const tokenHash = hashOpaqueToken(rawToken);
  const now = nowOf(deps);
  const outcome = await deps.knex.transaction(async (trx): Promise<SessionTokens | 'reused' | 'revoked' | 'too-old' | 'invalid'> => {
    const row = await findRefreshToken(trx, tokenHash, true);
    if (!row) return 'invalid';
    // Revoked (logout, password change or reset): simply no longer valid. Rotated: a replay.
    if (row.revokedAt) return 'revoked';
    if (row.rotatedAt) {
      await endSession(trx, row.familyId, now);
      return 'reused';
    }
    if (new Date(row.expiresAt).getTime() < now.getTime()) return 'invalid';
    const session = await findAuthSession(trx, row.familyId, true);
    if (!session || session.endedAt) return 'revoked';
    if (!isSessionOpen(session, deps.config.sessionMaxSeconds.staff, now)) {
      await endSession(trx, session.id, now);
      return 'too-old';
    }
    const user = await findUserById(trx, row.userId);
    if (!user || !user.isActive) return 'invalid';
    await markRotated(trx, row.id, now);
    return issueSession(trx, deps.config, user, now, { id: session.id, startedAt: new Date(session.startedAt) });
  });
  if (outcome === 'reused') throw errors.unauthorized('Refresh token was already used; the session has been revoked');
  if (outcome === 'revoked') throw errors.unauthorized('This session has ended (signed out or the password changed); sign in again');
  if (outcome === 'too-old') throw errors.unauthorized('This session has reached its maximum length; sign in again');
  if (outcome === 'invalid') throw errors.unauthorized('Invalid or expired refresh token');
  return outcome;
}

/**
 * Ends the session of the refresh token and the one of the access token the request was signed in
 * with (docs/rules/auth.md#sessions): their refresh tokens are revoked and their access tokens stop
 * working at once. Unknown, expired or missing tokens are fine (idempotent).
 */
export async function logout(deps: AuthDeps, rawToken: string | undefined, accessSessionId?: string): Promise<void> {
  const now = nowOf(deps);
  await deps.knex.transaction(async (trx) => {
    const row = rawToken ? await findRefreshToken(trx, hashOpaqueToken(rawToken)) : undefined;
    if (row) await endSession(trx, row.familyId, now);
    if (accessSessionId && accessSessionId !== row?.familyId) await endSession(trx, accessSessionId, now);
  });
}

/** GET /auth/me's resourceId: the staff member linked to the login, inside the user's own salon (never for a platform ADMIN). */
async function resourceIdOf(db: Db, user: UserRow): Promise<string | null> {
  return user.role === 'ADMIN' || !user.tenantId ? null : findResourceIdOfUser(db, user.id, user.tenantId);
}

/** Why an access token no longer lets its holder in, or 'ok'. */
export type TokenHolderStatus = 'ok' | 'gone' | 'revoked' | 'session-ended' | 'impersonation-ended';

/**
 * Is the holder of a staff access token still allowed in (docs/rules/auth.md#sessions)? 'gone' when
 * the user was deleted or deactivated, 'revoked' when the token's version is older than the user's
 * (password or contact details changed), 'session-ended' when its sign-in session was signed out or
 * is past its maximum length, 'impersonation-ended' likewise for an impersonation token's session.
 * Impersonation tokens carry the admin as `sub`, so their validity follows the admin's version.
 * One round trip (staffTokenHolder): every authenticated request asks.
 */
export async function tokenHolderStatus(
  db: Db,
  claims: { sub: string; tv: number; sid?: string; imp?: ImpersonationClaim },
  maxSeconds: { staff: number; impersonation: number },
  now: Date,
): Promise<TokenHolderStatus> {
  const impersonationId = claims.imp?.sessionId ?? null;
  const holder = await staffTokenHolder(db, claims.sub, impersonationId ? null : (claims.sid ?? null), impersonationId);
  if (!holder || !holder.is_active) return 'gone';
  if (holder.token_version !== claims.tv) return 'revoked';
  if (impersonationId) {
    const open =
      holder.impersonation_started_at !== null &&
      claims.imp!.adminUserId === claims.sub &&
      isSessionOpen({ startedAt: holder.impersonation_started_at, endedAt: holder.impersonation_ended_at }, maxSeconds.impersonation, now);
    return open ? 'ok' : 'impersonation-ended';
  }
  const open =
    holder.session_started_at !== null && isSessionOpen({ startedAt: holder.session_started_at, endedAt: holder.session_ended_at }, maxSeconds.staff, now);
  return open ? 'ok' : 'session-ended';
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
export async function me(
  deps: AuthDeps,
  principal: { userId: string; tenantId: string | null; role: string; impersonation?: ImpersonationClaim },
): Promise<MeDto> {
  const user = await activeUser(deps.knex, principal.userId);
  if (principal.impersonation) {
    return {
      ...toAuthUser(user),
      role: principal.role as MeDto['role'],
      tenantId: principal.tenantId,
      resourceId: null,
      impersonation: principal.impersonation,
    };
  }
  const resourceId = await resourceIdOf(deps.knex, user);
  return { ...toAuthUser(user), resourceId, impersonation: null };
}

export interface ProfileChange {
  email?: string;
  phone?: string | null;
  /** needed when the e-mail or the phone changes */
  currentPassword?: string;
}

/** The profile after a change, and the caller's new session when the change ended the others. */
export interface ProfileResult extends MeDto {
  session: SessionTokens | null;
}

/**
 * E-mail and phone, unique within the user's salon (USER_EMAIL_EXISTS / USER_PHONE_EXISTS). A
 * change of either is a change of where password resets go, so it needs the current password (400
 * without it, 422 CURRENT_PASSWORD_INCORRECT when wrong), tells the old address (an account message,
 * docs/rules/auth.md#account-messages), bumps the token version and revokes every refresh token:
 * every other session ends, and the caller gets a new one (docs/rules/auth.md#changing-contact-details).
 */
export async function updateProfile(deps: AuthDeps, userId: string, patch: ProfileChange): Promise<ProfileResult> {
  const now = nowOf(deps);
  return deps.knex.transaction(async (trx) => {
    const user = await activeUser(trx, userId, true);
    // the number in E.164, read in the salon's country (docs/rules/conventions.md#phone-numbers)
    if (patch.phone !== undefined && patch.phone !== null)
      patch = { ...patch, phone: optionalPhone(patch.phone, user.tenantId ? await salonPhoneRegion(trx, user.tenantId) : DEFAULT_PHONE_REGION, 'phone') };
    const emailChanges = patch.email !== undefined && patch.email.toLowerCase() !== (user.email ?? '').toLowerCase();
    const phoneChanges = patch.phone !== undefined && !(patch.phone === null ? user.phone === null : samePhone(patch.phone, user.phone));
    if (!emailChanges && !phoneChanges) return { ...toAuthUser(user), resourceId: await resourceIdOf(trx, user), impersonation: null, session: null };
    // the password first: without it, the answer tells nothing about other users' addresses either
    if (patch.currentPassword === undefined) {
      throw errors.validation('Request validation failed', [{ field: 'currentPassword', message: 'is required to change the e-mail or the phone' }]);
    }
    if (!(await verifyPassword(patch.currentPassword, user.passwordHash))) {
      throw errors.unprocessable('CURRENT_PASSWORD_INCORRECT', 'The current password is not correct', [
        { field: 'currentPassword', message: 'is not correct' },
      ]);
    }
    if (emailChanges && (await contactTaken(trx, user.tenantId, { email: patch.email! }, user.id)))
      throw errors.conflict('USER_EMAIL_EXISTS', 'A user with this e-mail already exists in this salon');
    if (phoneChanges && patch.phone !== null && (await contactTaken(trx, user.tenantId, { phone: patch.phone! }, user.id)))
      throw errors.conflict('USER_PHONE_EXISTS', 'A user with this phone already exists in this salon');
    const email = emailChanges ? patch.email! : user.email;
    const phone = phoneChanges ? (patch.phone ?? null) : user.phone;
    if (!email && !phone) throw errors.validation('An e-mail or a phone is required', [{ field: 'phone', message: 'cannot be removed without an e-mail' }]);
    const updated = await patchUser(trx, user.id, { email, phone, tokenVersion: user.tokenVersion + 1 });
    await revokeAllForUser(trx, user.id, now);
    const changed = [...(emailChanges ? (['email'] as const) : []), ...(phoneChanges ? (['phone'] as const) : [])];
    // the owner of the old address hears of it: by e-mail when the login had one, else by SMS to the old phone
    await requestAccountMessage(trx, deps.signaller, {
      kind: 'CONTACT_CHANGED',
      userId: user.id,
      email: user.email,
      phone: user.email ? null : user.phone,
      tenantId: user.tenantId,
      details: { changed },
      createdAt: now,
    });
    const session = await issueSession(trx, deps.config, updated, now);
    return { ...toAuthUser(updated), resourceId: await resourceIdOf(trx, updated), impersonation: null, session };
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
  assertAcceptablePassword(newPassword, 'newPassword');
  const passwordHash = await hashPassword(newPassword, deps.config.passwordHashRounds);
  const now = nowOf(deps);
  return deps.knex.transaction(async (trx) => {
    const updated = await patchUser(trx, user.id, { passwordHash, tokenVersion: user.tokenVersion + 1 });
    await revokeAllForUser(trx, user.id, now);
    return issueSession(trx, deps.config, updated, now);
  });
}
