// Forgotten passwords: a single-use, expiring token (stored hashed in password_reset_tokens) is
// mailed; the answer never tells whether the account exists. Resetting bumps the token version and
// revokes every refresh token.
import type { Knex } from 'knex';
import type { AppConfig } from '../../config';
import type { Mailer } from '../../integrations/mail/mailer';
import { TenantModel } from '../../db/models/tenant.model';
import { UserModel } from '../../db/models/user.model';
import { PasswordResetTokenModel } from '../../db/models/password-reset-token.model';
import { AppError } from '../errors';
import { hashPassword } from './passwords';
import { hashOpaqueToken, newOpaqueToken } from './tokens';
import { revokeAllForUser } from './sessions';

export interface PasswordResetDeps {
  config: AppConfig;
  knex: Knex;
  mailer: Mailer;
}

/**
 * Sends one reset mail per matching active account (the e-mail may exist in several salons; with a
 * tenant given only that salon's account, or a platform admin with no tenant). Earlier unused reset
 * tokens of the account stop working. Unknown e-mails do nothing, silently.
 */
export async function forgotPassword(deps: PasswordResetDeps, email: string, tenant: { tenantSlug?: string; tenantId?: string }): Promise<void> {
  let tenantId = tenant.tenantId;
  if (tenant.tenantSlug) {
    const found = await TenantModel.query().select('id').findOne({ slug: tenant.tenantSlug });
    if (!found) return;
    tenantId = found.id;
  }
  const query = UserModel.query().where({ email, isActive: true });
  if (tenantId) query.where('tenantId', tenantId);
  const users = await query;
  for (const user of users) {
    const token = newOpaqueToken();
    const expiresAt = new Date(Date.now() + deps.config.passwordResetTtlSeconds * 1000);
    await deps.knex.transaction(async (trx) => {
      await PasswordResetTokenModel.query(trx).patch({ usedAt: new Date() }).where({ userId: user.id }).whereNull('usedAt');
      await PasswordResetTokenModel.query(trx).insert({ userId: user.id, tokenHash: hashOpaqueToken(token), expiresAt });
    });
    const salon = user.tenantId ? await TenantModel.query().select('name', 'slug').findById(user.tenantId) : undefined;
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
  const passwordHash = await hashPassword(password, deps.config.passwordHashRounds);
  await deps.knex.transaction(async (trx) => {
    const row = await PasswordResetTokenModel.query(trx).findOne({ tokenHash: hashOpaqueToken(token) }).forUpdate();
    if (!row || row.usedAt) throw new AppError(400, 'PASSWORD_RESET_TOKEN_INVALID', 'This reset link is not valid or was already used');
    if (new Date(row.expiresAt).getTime() <= Date.now()) throw new AppError(400, 'PASSWORD_RESET_TOKEN_EXPIRED', 'This reset link has expired');
    await PasswordResetTokenModel.query(trx).patch({ usedAt: new Date() }).where({ id: row.id });
    const user = await UserModel.query(trx).findById(row.userId).forUpdate();
    if (!user || !user.isActive) throw new AppError(400, 'PASSWORD_RESET_TOKEN_INVALID', 'This reset link is not valid or was already used');
    await UserModel.query(trx).patchAndFetchById(user.id, { passwordHash, tokenVersion: user.tokenVersion + 1 });
    await revokeAllForUser(trx, user.id);
  });
}
