// Forgotten passwords: a single-use, expiring token (stored hashed in password_reset_tokens) is
// mailed; the answer never tells whether the account exists. Resetting bumps the token version and
// revokes every refresh token.
import type { AppConfig } from '../../config';
import type { Mailer } from '../notifications/mailer';
import type { Db } from '../../db/db-handle';
import { nowOf, type Clock } from '../time/clock';
import { findTenant, findTenantBySlug } from '../tenant/tenant.repository';
import { activeUsersBy, findUserById, patchUser } from '../users/user.repository';
import { insertResetToken, lockResetToken, markResetTokenUsed, retireUnusedResetTokens } from './password-reset-token.repository';
import { AppError } from '../errors';
import { assertAcceptablePassword, hashPassword } from '../users/passwords';
import { hashOpaqueToken, newOpaqueToken } from './tokens';
import { revokeAllForUser } from './sessions';

export interface PasswordResetDeps {
  config: AppConfig;
  knex: Db;
  mailer: Mailer;
  now?: Clock;
}

/**
 * Sends one reset mail per matching active account (the e-mail may exist in several salons; with a
 * tenant given only that salon's account, or a platform admin with no tenant). Earlier unused reset
 * tokens of the account stop working. Unknown e-mails do nothing, silently.
 */
export async function forgotPassword(deps: PasswordResetDeps, email: string, tenant: { tenantSlug?: string; tenantId?: string }): Promise<void> {
  let tenantId = tenant.tenantId;
  if (tenant.tenantSlug) {
    const found = await findTenantBySlug(deps.knex, tenant.tenantSlug);
    if (!found) return;
    tenantId = found.id;
  }
  const users = await activeUsersBy(deps.knex, { email }, tenantId);
  for (const user of users) {
    const token = newOpaqueToken();
    const now = nowOf(deps);
    const expiresAt = new Date(now.getTime() + deps.config.passwordResetTtlSeconds * 1000);
    await deps.knex.transaction(async (trx) => {
      await retireUnusedResetTokens(trx, user.id, now);
      await insertResetToken(trx, { userId: user.id, tokenHash: hashOpaqueToken(token), expiresAt });
    });
    const salon = user.tenantId ? await findTenant(deps.knex, user.tenantId) : undefined;
    const link = `${deps.config.publicBaseUrl}/reset-password?token=${encodeURIComponent(token)}`;
    await deps.mailer.send({
      to: user.email!,
      subject: 'Tilbakestill passordet ditt',
      text:
        `Noen har bedt om å tilbakestille passordet til kontoen din${salon ? ` hos ${salon.name}` : ''}.\n\n` +
        `Åpne ${link} innen ${Math.round(deps.config.passwordResetTtlSeconds / 60)} minutter for å velge et nytt.\n` +
        'Var det ikke deg, kan du se bort fra denne e-posten.',
      meta: { resetToken: token, userId: user.id, tenantId: user.tenantId, tenantSlug: salon?.slug ?? null, expiresAt: expiresAt.toISOString() },
    });
  }
}

export async function resetPassword(deps: PasswordResetDeps, token: string, password: string): Promise<void> {
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
