// Side effects of the account message workflow (docs/rules/auth.md#account-messages): read the
// committed message, and send it once. A password reset issues its tokens first (idempotently: a
// retry finds them) and mails each account its own, once; a contact change tells the old address; a
// phone code goes by SMS. A failed send is retried on the delivery schedule (activities/message-delivery.ts).
import { ApplicationFailure } from '@temporalio/activity';
import type { AppConfig } from '../config';
import type { Db } from '../db/db-handle';
import type { Mailer } from '../domain/notifications/mailer';
import type { SmsSender } from '../domain/notifications/sms-sender';
import { nowOf, type Clock } from '../domain/time/clock';
import { accountMessageContract } from '../domain/auth/account-message-events.rules';
import { findAccountMessage, markAccountMessageSent, type AccountMessageRow } from '../domain/auth/account-message.repository';
import { resetTokenFor, resetTokensOf } from '../domain/auth/password-reset.service';
import { markResetTokenMailed } from '../domain/auth/password-reset-token.repository';
import { findTenant } from '../domain/tenant/tenant.repository';
import { findPhoneVerification } from '../domain/customer-account/phone-verification.repository';
import { phoneCodeFor } from '../domain/customer-account/phone-code';
import { PHONE_CODE_TTL_MINUTES } from '../domain/customer-account/phone-verification.rules';
import { renderContactChanged, renderPasswordReset, renderPhoneCode, type ChangedContact } from '../domain/notifications/account-messages.rules';
import { norwegianDateTime } from '../domain/notifications/booking-messages.rules';
import type { DeliveryOutcome } from './booking.types';
import { deliverOnce } from './message-delivery';
import { committedAt } from './read-committed';
import { AccountMessageActivityErrors, type AccountMessageActivities } from './account.types';

/** Where reset links point and the keys tokens and codes are derived with (from PUBLIC_BASE_URL and JWT_SECRET). */
export type AccountMessageConfig = Pick<AppConfig, 'publicBaseUrl' | 'passwordResetTtlSeconds'> & {
  keys: Pick<AppConfig['keys'], 'passwordReset' | 'phoneCode'>;
};

export interface AccountActivityDeps {
  knex: Db;
  mailer: Mailer;
  sms: SmsSender;
  now?: Clock;
  /** unset: a worker that cannot send account messages (they fail, and are retried, until one that can takes them) */
  accounts?: AccountMessageConfig;
}

const DEFAULT_TIMEZONE = 'Europe/Oslo';

export function createAccountMessageActivities(deps: AccountActivityDeps): AccountMessageActivities {
  const { knex, mailer, sms } = deps;
  const gateways = { mailer, sms };

  /** A PASSWORD_RESET: the accounts' tokens, each mailed once (its mailed_at is the claim). */
  async function mailResetLinks(message: AccountMessageRow, accounts: AccountMessageConfig): Promise<void> {
    for (const { token, user, salon } of await resetTokensOf(knex, accounts, message, nowOf(deps))) {
      const raw = resetTokenFor(accounts.keys.passwordReset, token.id);
      await deliverOnce('EMAIL', gateways, {
        label: `password reset ${token.id}`,
        failureType: AccountMessageActivityErrors.deliveryFailed,
        // the folder outbox keeps these for development and tests; the SMTP mailer sends no metadata
        meta: {
          kind: 'PASSWORD_RESET',
          resetToken: raw,
          userId: user.id,
          tenantId: user.tenantId,
          tenantSlug: salon?.slug ?? null,
          expiresAt: new Date(token.expiresAt).toISOString(),
        },
        claim: async () => ({ id: token.id, sentAt: token.mailedAt }),
        compose: async () => ({
          contact: { phone: null, email: user.email, smsCountry: null },
          message: renderPasswordReset({
            salonName: salon?.name ?? null,
            link: `${accounts.publicBaseUrl}/reset-password?token=${encodeURIComponent(raw)}`,
            validMinutes: Math.round(accounts.passwordResetTtlSeconds / 60),
          }),
        }),
        markSent: (id) => markResetTokenMailed(knex, id),
      });
    }
  }

  return {
    async readAccountMessage({ messageId, minVersion }) {
      const message = await findAccountMessage(knex, messageId);
      return committedAt(
        accountMessageContract,
        messageId,
        minVersion,
        message && { id: message.id, version: message.version, kind: message.kind, sent: message.sentAt !== null },
      );
    },

    async deliverAccountMessage({ messageId }): Promise<DeliveryOutcome> {
      const message = await findAccountMessage(knex, messageId);
      if (!message) throw ApplicationFailure.nonRetryable(`account message ${messageId} not found`, AccountMessageActivityErrors.notFound);
      if (message.sentAt) return 'ALREADY_SENT';
      const accounts = deps.accounts;
      if (!accounts)
        throw ApplicationFailure.retryable('this worker has no account message settings (publicBaseUrl, keys)', AccountMessageActivityErrors.deliveryFailed);
      const once = {
        label: `account message ${message.id} (${message.kind})`,
        failureType: AccountMessageActivityErrors.deliveryFailed,
        claim: async () => ({ id: message.id, sentAt: message.sentAt }),
        markSent: (id: string) => markAccountMessageSent(knex, id),
      };
      switch (message.kind) {
        case 'PASSWORD_RESET':
          await mailResetLinks(message, accounts);
          await markAccountMessageSent(knex, message.id);
          return 'SENT';
        case 'CONTACT_CHANGED': {
          const salon = message.tenantId ? await findTenant(knex, message.tenantId) : undefined;
          const changed = ((message.details.changed as ChangedContact[] | undefined) ?? []).filter((c) => c === 'email' || c === 'phone');
          const timezone = (salon?.settings as { timezone?: string } | undefined)?.timezone ?? DEFAULT_TIMEZONE;
          return deliverOnce(message.email ? 'EMAIL' : 'SMS', gateways, {
            ...once,
            meta: { kind: 'CONTACT_CHANGED', userId: message.userId },
            compose: async () => ({
              // an account belongs to no salon: its messages reach any country, within their own limits
              contact: { phone: message.phone, email: message.email, smsCountry: null },
              message: renderContactChanged({ salonName: salon?.name ?? null, changed, at: norwegianDateTime(new Date(message.createdAt), timezone) }),
            }),
          });
        }
        case 'PHONE_CODE': {
          const verification = message.phoneVerificationId ? await findPhoneVerification(knex, message.phoneVerificationId) : undefined;
          if (!verification)
            throw ApplicationFailure.nonRetryable(`phone verification of message ${message.id} not found`, AccountMessageActivityErrors.notFound);
          const code = phoneCodeFor(accounts.keys.phoneCode, verification.id);
          return deliverOnce('SMS', gateways, {
            ...once,
            // the folder outbox keeps the code for development and tests; an SMS gateway gets the text only
            meta: { kind: 'PHONE_CODE', code, phoneVerificationId: verification.id },
            compose: async () => ({
              contact: { phone: verification.phone, email: null, smsCountry: null },
              message: renderPhoneCode({ code, validMinutes: PHONE_CODE_TTL_MINUTES }),
            }),
          });
        }
      }
    },
  };
}
