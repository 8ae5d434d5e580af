// What the HTTP edge needs from the outside world; composition/compose.ts builds it (the tests through
// devstack/platform.ts).
import type { DbPool } from '../db/db-handle';
import type { Clock } from '../domain/time/clock';
import type { AppConfig } from '../config';
import type { Logger } from '../integrations/logger';
import type { HealthCheck } from '../domain/health/health-check';
import type { SmsSender } from '../domain/notifications/sms-sender';
import type { EntitySignaller } from '../domain/workflow-signals/entity-signaller';
import type { RateLimitStoreFactory } from './middleware/rate-limit';
import type { Metrics } from './ops/metrics';
import type { ObjectStorage } from '../domain/upload/object-storage';
import type { IdTokenVerifier } from '../domain/customer-account/id-token-verifier';
import type { PaymentProviders } from '../domain/payments/payment-provider';
import type { BillingProviders } from '../domain/billing/billing-provider';
import type { BookingHooks } from '../domain/booking/booking-hooks';
import type { TenantHooks } from '../domain/tenant/tenant-hooks';
import type { ResourceHooks } from '../domain/resource/resource-hooks';
import type { UploadHooks } from '../domain/upload/upload-hooks';
import type { ChangeNotifications } from '../domain/desk/change-notifications';

export interface AppDeps {
  config: AppConfig;
  logger: Logger;
  knex: DbPool;
  /** the answers to SMS replies (docs/rules/reminders.md#answering-by-sms); unset: SMS_REPLY_SECRET's webhook answers 503 */
  sms?: SmsSender;
  health: Record<string, HealthCheck>;
  /** signals entity workflows before a state change commits (docs/rules/consistency.md#signal-before-commit) */
  signaller: EntitySignaller;
  /** where rate-limit counters live; unset: in this process's memory */
  rateLimitStore?: RateLimitStoreFactory;
  /** the platform billing adapters (integrations/billing/providers.ts) */
  billingProviders: BillingProviders;
  /** the clock every domain service reads (trial start and end, token expiry, booking windows...); unset: the system clock */
  now?: Clock;
  /** Prometheus metrics served at GET /api/metrics; unset: a fresh registry per app */
  metrics?: Metrics;
  /** S3-compatible storage of uploads (S3_ENDPOINT; s3rver in the embedded stack) */
  storage: ObjectStorage;
  /** customer sign-in: checks ID tokens of the OIDC_ISSUER provider; unset: customer sign-in answers 503 */
  idTokenVerifier?: IdTokenVerifier;
  /** payment provider adapters (composition/compose.ts builds them from config.payments) */
  paymentProviders?: PaymentProviders;
  /** the ports lower domain areas declare for the areas above them (composition/domain-hooks.ts fills them) */
  hooks: { booking: BookingHooks; tenant: TenantHooks; resource: ResourceHooks; upload: UploadHooks };
  /** wakes the front desk's waiting change reads when a salon's change commits (docs/rules/front-desk.md#live-updates); unset: they look again every second */
  changes?: ChangeNotifications;
}
