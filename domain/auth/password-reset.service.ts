// Forgotten passwords (docs/rules/auth.md#forgotten-passwords). The request is answered at once and
// the same for every e-mail: it writes an account message (PASSWORD_RESET) whose workflow then finds
// the accounts, issues their single-use, expiring tokens (stored hashed in password_reset_tokens) and
// mails them. A token is derived from its row with the password-reset key, so the worker can write
// it into the mail without it being stored anywhere. Resetting bumps the token version and revokes
// every refresh token.
import crypto from 'node:crypto';
import type { AppConfig } from '../../config';
import type { Db } from '../../db/db-handle';
import type { EntitySignaller } from '../workflow-signals/entity-signaller';
import { nowOf, type Clock } from '../time/clock';
import { findTenant, findTenantBySlug } from '../tenant/tenant.repository';
import { activeUsersBy, findUserById, patchUser, type UserRow } from '../users/user.repository';
import {
  findResetTokenOfMessage,
  insertResetToken,
  lockResetToken,
  markResetTokenUsed,
  newerUnusedResetTokenExists,
  retireUnusedResetTokens,
  type PasswordResetTokenRow,
} from './password-reset-token.repository';
import { AppError } from '../errors';
import { assertAcceptablePassword, hashPassword } from '../users/passwords';
import { hashOpaqueToken } from './tokens';
import { revokeAllForUser } from './sessions';
import { requestAccountMessage } from './account-messages';
import type { AccountMessageRow } from './account-message.repository';

export interface PasswordResetDeps {
  config: AppConfig;
  knex: Db;
  /** the request's account message is signalled to its workflow */
  signaller: EntitySignaller;
  now?: Clock;
}

/**
 * POST /auth/forgot-password: one account message, whatever the e-mail; the answer never waits for
 * (or tells) whether an account has it. The salon it is scoped to, when named, is the body's
 * `tenantSlug` (looked up by the worker) or the request's x-tenant-id or host.
 */
export async function forgotPassword(deps: PasswordResetDeps, email: string, tenant: { tenantSlug?: string; tenantId?: string }): Promise<void> {
  await requestAccountMessage(deps.knex, deps.signaller, {
    kind: 'PASSWORD_RESET',
    email: email.trim(),
    tenantId: tenant.tenantId ?? null,
    tenantSlug: tenant.tenantSlug ?? null,
    createdAt: nowOf(deps),
  });
}

/** A reset token from its row id and the password-reset key (docs/rules/security.md#keys). */
export function resetTokenFor(key: string, tokenId: string): string {
  return crypto.createHmac('sha256', key).update(`password-reset:${tokenId}`).digest('base64url');
}

export interface IssuedResetToken {
  token: PasswordResetTokenRow;
  user: UserRow;
  salon: { id: string; name: string; slug: string } | null;
}

/**
 * The reset tokens of a PASSWORD_RESET message, one per matching active account (the e-mail may
 * exist in several salons; with a salon named only that salon's account, or a platform admin with
 * no salon). Idempotent, for the worker: a retry finds the tokens it issued before. A token expires
 * PASSWORD_RESET_TTL_SECONDS after the request. A request makes the unused tokens of earlier
 * requests stop working, and issues nothing for an account a later request already reached.
 */
export async function resetTokensOf(
  db: Db,
  config: Pick<AppConfig, 'passwordResetTtlSeconds'> & { keys: Pick<AppConfig['keys'], 'passwordReset'> },
  message: AccountMessageRow,
  now: Date,
): Promise<IssuedResetToken[]> {
  if (!message.email) return [];
  let tenantId = message.tenantId ?? undefined;
  if (message.tenantSlug) {
    const named = await findTenantBySlug(db, message.tenantSlug);
    if (!named) return [];
    tenantId = named.id;
  }
  const requestedAt = new Date(message.createdAt);
  const issued: IssuedResetToken[] = [];
  for (const candidate of await activeUsersBy(db, { email: message.email }, tenantId)) {
    const token = await db.transaction(async (trx) => {
      // one user's resets one at a time: which request is the newest is decided under this lock
      const user = await findUserById(trx, candidate.id, true);
      if (!user || !user.isActive) return undefined;
      const existing = await findResetTokenOfMessage(trx, message.id, user.id);
      if (existing) return existing;
      if (await newerUnusedResetTokenExists(trx, user.id, requestedAt)) return undefined;
      await retireUnusedResetTokens(trx, user.id, now, requestedAt);
      const id = crypto.randomUUID();
      return insertResetToken(trx, {
        id,
        userId: user.id,
        messageId: message.id,
        tokenHash: hashOpaqueToken(resetTokenFor(config.keys.passwordReset, id)),
        expiresAt: new Date(requestedAt.getTime() + config.passwordResetTtlSeconds * 1000),
        createdAt: requestedAt,
      });
    });
    if (!token) continue;
    const salon = candidate.tenantId ? await findTenant(db, candidate.tenantId) : undefined;
    issued.push({ token, user: candidate, salon: salon ? { id: salon.id, name: salon.name, slug: salon.slug } : null });
  }
  return issued;
}

export async function resetPassword(deps: Pick<PasswordResetDeps, 'config' | 'knex' | 'now'>, token: string, password: string): Promise<void> {
  assertAcceptablePassword(password);
  const passwordHash = await hashPassword(password, deps.config.passwordHashRounds);
  const now = nowOf(deps);
  await deps.knex.transaction(async (trx) => {
    const row = await lockResetToken(trx, hashOpaqueToken(token));
    if (!row || row.usedAt) throw new AppError(400, 'PASSWORD_RESET_TOKEN_INVALID', 'This reset link is not valid or was already used');
    if (new Date(row.expiresAt).getTime() <= now.getTime()) throw new AppError(400, 'PASSWORD_RESET_TOKEN_EXPIRED', 'This reset link has expired');
    await markResetTokenUsed(trx, row.id, now);
    const user = await findUserById(trx, row.userId, true);
    if (!user || !user.isActive) throw new AppError(400, 'PASSWORD_RESET_TOKEN_INVALID', 'This reset link is not valid or was already used');
    await patchUser(trx, user.id, { passwordHash, tokenVersion: user.tokenVersion + 1 });
    await revokeAllForUser(trx, user.id, now);
  });
}
