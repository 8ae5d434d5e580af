// The composition root, shared by bin/api, bin/worker, bin/dev, devstack/ and the tests: which
// adapter each environment variable selects, and the api's dependency bundle. Nothing here starts
// embedded services (that is devstack/, used by `npm start` and the tests only), and nothing here
// imports bin/ or devstack/ (CONTRIBUTING.md, "The layers").
import type { DbPool } from '../db/db-handle';
import { pingDatabase } from '../db/knex';
import { postgresChangeNotifications } from '../integrations/postgres/change-notifications';
import type { AppConfig } from '../config';
import type { AppDeps } from '../api/deps';
import { postgresRateLimitStores } from '../api/middleware/rate-limit-store';
import { Metrics } from '../api/ops/metrics';
import type { Logger } from '../integrations/logger';
import type { Mailer } from '../domain/notifications/mailer';
import type { SmsSender } from '../domain/notifications/sms-sender';
import { FolderMailer, SmtpMailer } from '../integrations/mail/mailer';
import { FolderSmsSender } from '../integrations/sms/sms-sender';
import { SveveSmsSender } from '../integrations/sms/sveve-sms-sender';
import type { EntitySignaller } from '../domain/workflow-signals/entity-signaller';
import { TemporalSignaller } from '../integrations/temporal/temporal-signaller';
import { S3Storage } from '../integrations/storage/s3-storage';
import { JoseIdTokenVerifier } from '../integrations/oidc/id-token-verifier';
import { createPaymentProviders } from '../integrations/payments/providers';
import type { PaymentProviders } from '../domain/payments/payment-provider';
import { createBillingProviders } from '../integrations/billing/providers';
import type { BookingLinkConfig } from '../activities/booking-message-links';
import type { AccountMessageConfig } from '../activities/account.activities';
import { domainHooks } from './domain-hooks';

/** E-mail: SMTP when SMTP_URL is set, else the folder outbox in MAIL_OUTBOX_DIR. */
export function createMailer(config: AppConfig): Mailer & { close?(): void } {
  return config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom) : new FolderMailer(config.mailOutboxDir);
}

/** SMS: the Sveve gateway when SVEVE_USER and SVEVE_PASSWORD are set, else the folder outbox. */
export function createSmsSender(config: AppConfig): SmsSender {
  return config.sveve ? new SveveSmsSender(config.sveve) : new FolderSmsSender(config.smsOutboxDir);
}

/** The real signaller; failed signals are counted in `metrics` (workflow_signal_failures_total). */
export function createTemporalSignaller(config: AppConfig & { temporalAddress: string }, metrics?: Metrics): TemporalSignaller {
  return new TemporalSignaller({
    address: config.temporalAddress,
    namespace: config.temporalNamespace,
    taskQueue: config.temporalTaskQueue,
    onFailure: (ref) => metrics?.signalFailures.inc({ workflow_type: ref.workflowType }),
  });
}

/** Upload storage: the S3-compatible endpoint of S3_ENDPOINT (bin/dev and the tests start s3rver first and set it). */
export function createStorage(config: AppConfig): S3Storage {
  return new S3Storage({ ...config.storage });
}

/** Manage links and calendar invitations in booking messages (docs/rules/booking-page.md#manage-links). */
export function bookingLinkConfig(config: AppConfig): BookingLinkConfig {
  return {
    publicBaseUrl: config.publicBaseUrl,
    manageLinkKey: config.keys.manageLink,
    offerKey: config.keys.waitlistOffer,
    entryKey: config.keys.waitlistEntry,
    unsubscribeKey: config.keys.rebookingUnsubscribe,
    platformDomain: config.platformDomain,
    mailFrom: config.mailFrom,
  };
}

/** Password-reset links, contact-change notices and phone codes (docs/rules/auth.md#account-messages): PUBLIC_BASE_URL and the keys from JWT_SECRET. */
export function accountMessageConfig(config: AppConfig): AccountMessageConfig {
  return {
    publicBaseUrl: config.publicBaseUrl,
    passwordResetTtlSeconds: config.passwordResetTtlSeconds,
    keys: { passwordReset: config.keys.passwordReset, phoneCode: config.keys.phoneCode },
  };
}

/** Payment provider adapters from PAYMENT_SANDBOX_URL, PAYMENT_WEBHOOK_BASE_URL and PAYMENT_RETURN_BASE_URL. */
export function createPaymentProvidersFor(config: AppConfig): PaymentProviders {
  return createPaymentProviders(config.payments);
}

export interface ComposedApi {
  deps: AppDeps;
  /** closes what composeApi opened (storage connections, the change notifications' connection); not the knex or signaller */
  close(): Promise<void>;
}

/** The api's dependency bundle for a database that is already migrated. */
export async function composeApi(options: {
  config: AppConfig & { databaseUrl: string };
  logger: Logger;
  knex: DbPool;
  signaller: EntitySignaller;
  rateLimitPrefix?: string;
  /** the registry the signaller already counts failures into (createTemporalSignaller) */
  metrics?: Metrics;
  storage?: S3Storage;
}): Promise<ComposedApi> {
  const { config, knex } = options;
  const metrics = options.metrics ?? new Metrics(knex);
  const signaller = options.signaller;
  const storage = options.storage ?? createStorage(config);
  const changes = postgresChangeNotifications(knex, options.logger);
  const deps: AppDeps = {
    config,
    logger: options.logger,
    knex,
    sms: createSmsSender(config),
    signaller,
    billingProviders: createBillingProviders(),
    rateLimitStore: postgresRateLimitStores(knex, options.rateLimitPrefix),
    metrics,
    storage,
    idTokenVerifier: config.oidc ? new JoseIdTokenVerifier(config.oidc) : undefined,
    paymentProviders: createPaymentProvidersFor(config),
    hooks: domainHooks,
    changes,
    health: {
      database: async () => {
        await pingDatabase(knex);
      },
      ...(signaller.ping ? { temporal: () => signaller.ping!() } : {}),
    },
  };
  return {
    deps,
    async close() {
      await changes.close();
      if (!options.storage) storage.close();
    },
  };
}
