// Every environment variable the platform reads, validated once at start-up with joi.
// docs/environment.md lists them with the same defaults; keep the two in step.
import crypto from 'node:crypto';
import os from 'node:os';
import Joi from 'joi';
import { DEV_CREDENTIAL_KEYS, parseKeyring, type CredentialKeyring } from './credential-keys';

export interface RateLimitConfig {
  windowMs: number;
  global: number;
  auth: number;
  bookingCreate: number;
  /** a customer's moves of bookings, per client address; and per booking, whoever asks (docs/rules/limits.md#rate-limits) */
  bookingMove: number;
  bookingMovePerBooking: number;
  /** per user (docs/rules/limits.md#rate-limits): POST /upload, presigned PUT, presigned GET, DELETE /upload/:id, image URL signing */
  upload: number;
  presignedPut: number;
  presignedGet: number;
  uploadDelete: number;
  imageSign: number;
  /** POST /webhooks/subscription/:provider per IP (60 per minute) */
  subscriptionWebhook: number;
  /** per user (docs/rules/personal-data.md#access-and-portability): personal-data exports and erasure requests together */
  personalData: number;
}

/** S3-compatible object storage for uploads (docs/rules/uploads.md). No endpoint: `npm start` and the tests start s3rver. */
export interface StorageConfig {
  endpoint?: string;
  /** where browsers reach the storage for presigned URLs, when it differs from `endpoint` (compose: minio:9000 vs localhost:9000) */
  publicEndpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** attempts per storage call before 502 UPLOAD_PROVIDER_ERROR */
  maxAttempts: number;
  /** HMAC key of image proxy URLs */
  imageProxySecret: string;
  /** ceilings above the per-purpose limits (docs/rules/uploads.md#purposes) */
  maxImageBytes: number;
  maxDocumentBytes: number;
}

/**
 * A link's key, and the key such links were signed with before each purpose got its own: JWT_SECRET
 * itself, still accepted when verifying, never used to sign (docs/rules/security.md#keys).
 */
export interface LinkKeyPair {
  key: string;
  legacyKey: string;
}

/**
 * One key per purpose, derived from JWT_SECRET with HKDF-SHA256 (docs/rules/security.md#keys): a key
 * that signs one kind of token never signs another. Each is a base64url string of 32 bytes.
 */
export interface PurposeKeys {
  /** staff and customer access tokens (HS256 JWTs) */
  accessToken: string;
  /** a booking's manage link (its manage token) */
  manageLink: LinkKeyPair;
  /** a waitlist offer's accept and decline links */
  waitlistOffer: LinkKeyPair;
  /** a waitlist entry's link (to see or leave the entry) */
  waitlistEntry: LinkKeyPair;
  /** password-reset tokens (derived from the reset row, docs/rules/auth.md#forgotten-passwords) */
  passwordReset: string;
  /** one-time phone codes (docs/rules/customers.md#verifying-a-phone) */
  phoneCode: string;
  /** the unsubscribe links of rebooking nudges (docs/rules/series.md#rebooking-nudges) */
  rebookingUnsubscribe: string;
}

/** The purpose keys of a JWT_SECRET: HKDF-SHA256, salt `salon-platform`, the purpose as info. */
export function derivePurposeKeys(jwtSecret: string): PurposeKeys {
  const derive = (purpose: string) => Buffer.from(crypto.hkdfSync('sha256', jwtSecret, 'salon-platform', purpose, 32)).toString('base64url');
  return {
    accessToken: derive('access-token'),
    manageLink: { key: derive('manage-link'), legacyKey: jwtSecret },
    waitlistOffer: { key: derive('waitlist-offer'), legacyKey: jwtSecret },
    waitlistEntry: { key: derive('waitlist-entry'), legacyKey: jwtSecret },
    passwordReset: derive('password-reset'),
    phoneCode: derive('phone-code'),
    rebookingUnsubscribe: derive('rebooking-unsubscribe'),
  };
}

export interface AppConfig {
  nodeEnv: string;
  port: number;
  databaseUrl?: string;
  dataDir: string;
  /** the master secret; nothing signs with it directly: `keys` are derived from it */
  jwtSecret: string;
  keys: PurposeKeys;
  accessTokenTtlSeconds: number;
  passwordHashRounds: number;
  refreshTokenTtlSeconds: number;
  /** how long a sign-in lasts at most, however often it is refreshed (docs/rules/auth.md#sessions) */
  sessionMaxSeconds: { staff: number; customer: number; impersonation: number };
  passwordResetTtlSeconds: number;
  adminEmail: string;
  adminPassword: string;
  bodyLimit: string;
  rateLimit: RateLimitConfig;
  platformDomain: string;
  publicBaseUrl: string;
  temporalAddress?: string;
  temporalPort: number;
  /** Web UI port of the dev server npm start runs (0 = no UI). */
  temporalUiPort: number;
  temporalNamespace: string;
  temporalTaskQueue: string;
  mailOutboxDir: string;
  smsOutboxDir: string;
  logLevel: string;
  /** SMTP delivery (nodemailer) when set; else the folder outbox */
  smtpUrl?: string;
  mailFrom: string;
  /** Sveve SMS gateway when user and password are set; else the folder outbox */
  sveve?: { url: string; user: string; password: string; sender: string };
  /** how many reverse proxies in front of the api may set X-Forwarded-For (0: none) */
  trustProxy: number;
  corsOrigins: string[];
  corsMaxAgeSeconds: number;
  /** the shared secret of the inbound-SMS webhook (`key`, docs/rules/reminders.md#answering-by-sms); unset: the webhook answers 404 */
  smsReplySecret?: string;
  /** bearer token for GET /metrics; unset: /metrics answers 404 */
  metricsToken?: string;
  /** how long api and worker wait for in-flight work on SIGTERM before they exit anyway */
  shutdownTimeoutMs: number;
  /** bin/worker answers GET / on this port while it runs (0: no health port) */
  workerHealthPort: number;
  /** task slots of one worker process: what it runs at once, so it never crowds out an api beside it */
  workerSlots: { activities: number; workflowTasks: number };
  /** record a stack trace of every workflow promise, for the Temporal UI's stack trace view (costs the worker CPU) */
  workerWorkflowStackTraces: boolean;
  /**
   * workflows one worker process keeps in memory between their tasks (the SDK's default grows with the
   * heap limit: about 2,300 on this machine's 4 GB); a workflow evicted from it is replayed from its
   * history at its next task (docs/performance.md#growth-many-open-workflows-a-mornings-reminders-the-floor-issue-54)
   */
  workerMaxCachedWorkflows: number;
  /** SMS the workers send a second at most, across all of them, for the messages that fall due together (docs/rules/reminders.md#the-send-rate) */
  smsSendRatePerSecond: number;
  /** database connections of one process (api or worker) */
  dbPoolMax: number;
  /** master keys sealing provider credentials at rest (payments, billing) */
  credentialKeys: CredentialKeyring;
  storage: StorageConfig;
  /** customer sign-in: the OpenID Connect provider whose ID tokens are accepted (unset: customer sign-in answers 503) */
  oidc?: OidcConfig;
  /** port of the embedded identity provider that `npm start` runs when OIDC_ISSUER is unset */
  oidcDevPort: number;
  /** payment providers (docs/rules/payments.md): the sandbox's address, and where providers post webhooks and send customers back */
  payments: {
    sandboxUrl?: string;
    webhookBaseUrl: string;
    returnBaseUrl: string;
    epay: { windowUrl: string; apiUrl: string };
    /** Vipps MobilePay's API (VIPPS_API_URL); unset: production (`npm start` and the tests start the Vipps sandbox and set it) */
    vipps: { apiUrl?: string };
  };
}

export interface OidcConfig {
  /** exact `iss` of the ID tokens, e.g. https://accounts.google.com */
  issuer: string;
  /** accepted `aud` values: the client id(s) registered with the provider */
  audiences: string[];
  /** where the signing keys are published; unset: read from the issuer's discovery document */
  jwksUri?: string;
}

/** Development defaults that must never reach production (refused at start-up with NODE_ENV=production). */
export const DEV_JWT_SECRET = 'dev-only-insecure-jwt-secret-change-me';
export const DEV_ADMIN_PASSWORD = 'admin-dev-password';
export const DEV_IMAGE_PROXY_SECRET = 'dev-only-image-proxy-secret-change-me';

/** What production refuses to start below (docs/rules/security.md#passwords, docs/rules/limits.md#sizes-and-counts). */
export const MIN_PRODUCTION_SECRET_BYTES = 32;
export const MIN_PRODUCTION_HASH_ROUNDS = 10;

const schema = Joi.object({
  NODE_ENV: Joi.string().default('development'),
  PORT: Joi.number().integer().min(0).max(65535).default(3000),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ['postgres', 'postgresql'] })
    .optional(),
  DATA_DIR: Joi.string().default('.data'),
  JWT_SECRET: Joi.string().min(16).default(DEV_JWT_SECRET),
  PASSWORD_HASH_ROUNDS: Joi.number().integer().min(4).max(15).default(10),
  ACCESS_TOKEN_TTL_SECONDS: Joi.number().integer().min(30).default(900),
  REFRESH_TOKEN_TTL_SECONDS: Joi.number()
    .integer()
    .min(60)
    .default(30 * 24 * 3600),
  PASSWORD_RESET_TTL_SECONDS: Joi.number().integer().min(60).default(3600),
  SESSION_MAX_SECONDS: Joi.number()
    .integer()
    .min(60)
    .default(12 * 3600),
  CUSTOMER_SESSION_MAX_SECONDS: Joi.number()
    .integer()
    .min(60)
    .default(30 * 24 * 3600),
  IMPERSONATION_MAX_SECONDS: Joi.number()
    .integer()
    .min(60)
    .default(2 * 3600),
  ADMIN_EMAIL: Joi.string()
    .email({ tlds: { allow: false } })
    .default('admin@salon.local'),
  ADMIN_PASSWORD: Joi.string().min(12).default(DEV_ADMIN_PASSWORD),
  BODY_LIMIT: Joi.string().default('1mb'),
  RATE_LIMIT_WINDOW_MS: Joi.number().integer().min(1000).default(60_000),
  RATE_LIMIT_GLOBAL: Joi.number().integer().min(1).default(100),
  RATE_LIMIT_AUTH: Joi.number().integer().min(1).default(10),
  RATE_LIMIT_BOOKING_CREATE: Joi.number().integer().min(1).default(20),
  RATE_LIMIT_BOOKING_MOVE: Joi.number().integer().min(1).default(10),
  RATE_LIMIT_BOOKING_MOVE_PER_BOOKING: Joi.number().integer().min(1).default(3),
  RATE_LIMIT_SUBSCRIPTION_WEBHOOK: Joi.number().integer().min(1).default(60),
  PLATFORM_DOMAIN: Joi.string().default('salon.local'),
  PUBLIC_BASE_URL: Joi.string().uri().optional(),
  TEMPORAL_ADDRESS: Joi.string().optional(),
  TEMPORAL_PORT: Joi.number().integer().min(1).max(65535).default(7233),
  TEMPORAL_UI_PORT: Joi.number().integer().min(0).max(65535).default(8233),
  TEMPORAL_NAMESPACE: Joi.string().default('default'),
  TEMPORAL_TASK_QUEUE: Joi.string().default('salon'),
  MAIL_OUTBOX_DIR: Joi.string().optional(),
  SMS_OUTBOX_DIR: Joi.string().optional(),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  SMTP_URL: Joi.string()
    .uri({ scheme: ['smtp', 'smtps'] })
    .optional(),
  MAIL_FROM: Joi.string().default('Salongplattform <no-reply@salon.local>'),
  SVEVE_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('https://sveve.no/SMS/SendMessage'),
  SVEVE_USER: Joi.string().optional(),
  SVEVE_PASSWORD: Joi.string().optional(),
  SVEVE_SENDER: Joi.string().max(11).default('Salong'),
  TRUST_PROXY: Joi.number().integer().min(0).max(10).default(0),
  CORS_ORIGINS: Joi.string().allow('').default(''),
  CORS_MAX_AGE_SECONDS: Joi.number().integer().min(0).default(600),
  METRICS_TOKEN: Joi.string().min(16).optional(),
  SMS_REPLY_SECRET: Joi.string().min(16).max(200).optional(),
  SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(0).default(10_000),
  WORKER_HEALTH_PORT: Joi.number().integer().min(0).max(65535).default(0),
  WORKER_MAX_CONCURRENT_ACTIVITIES: Joi.number().integer().min(1).default(20),
  WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: Joi.number().integer().min(2).default(20),
  WORKER_WORKFLOW_STACK_TRACES: Joi.boolean().truthy('on').falsy('off').default(false),
  WORKER_MAX_CACHED_WORKFLOWS: Joi.number().integer().min(0).default(1000),
  SMS_SEND_RATE_PER_SECOND: Joi.number().min(0.1).default(10),
  DB_POOL_MAX: Joi.number().integer().min(2).optional(),
  CREDENTIAL_KEYS: Joi.string().default(DEV_CREDENTIAL_KEYS),
  RATE_LIMIT_UPLOAD: Joi.number().integer().min(1).default(30),
  RATE_LIMIT_PRESIGNED_PUT: Joi.number().integer().min(1).default(20),
  RATE_LIMIT_PRESIGNED_GET: Joi.number().integer().min(1).default(60),
  RATE_LIMIT_UPLOAD_DELETE: Joi.number().integer().min(1).default(20),
  RATE_LIMIT_IMAGE_SIGN: Joi.number().integer().min(1).default(600),
  RATE_LIMIT_PERSONAL_DATA: Joi.number().integer().min(1).default(10),
  S3_ENDPOINT: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .optional(),
  S3_PUBLIC_ENDPOINT: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .optional(),
  S3_BUCKET: Joi.string().min(3).max(63).default('salon-uploads'),
  S3_REGION: Joi.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: Joi.string().default('S3RVER'),
  S3_SECRET_ACCESS_KEY: Joi.string().default('S3RVER'),
  S3_FORCE_PATH_STYLE: Joi.boolean().default(true),
  S3_MAX_ATTEMPTS: Joi.number().integer().min(1).max(10).default(3),
  IMAGE_PROXY_SECRET: Joi.string().min(16).default(DEV_IMAGE_PROXY_SECRET),
  UPLOAD_MAX_IMAGE_BYTES: Joi.number()
    .integer()
    .min(100)
    .default(5 * 1024 * 1024),
  UPLOAD_MAX_DOCUMENT_BYTES: Joi.number()
    .integer()
    .min(100)
    .default(10 * 1024 * 1024),
  OIDC_ISSUER: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .optional(),
  OIDC_CLIENT_ID: Joi.string().max(2000).when('OIDC_ISSUER', { is: Joi.exist(), then: Joi.required() }),
  OIDC_JWKS_URI: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .optional(),
  OIDC_DEV_PORT: Joi.number().integer().min(0).max(65535).default(9400),
  PAYMENT_SANDBOX_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .optional(),
  PAYMENT_WEBHOOK_BASE_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .optional(),
  PAYMENT_RETURN_BASE_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .optional(),
  EPAY_WINDOW_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('https://ssl.ditonlinebetalingssystem.dk/integration/ewindow/Default.aspx'),
  EPAY_API_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('https://ssl.ditonlinebetalingssystem.dk/remote/payment.asmx'),
  VIPPS_API_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .optional(),
}).unknown(true);

/**
 * One line naming the first problem that makes this configuration unfit for production, or
 * undefined. With NODE_ENV=production the api and the worker refuse to start on it.
 */
export function productionProblem(
  config: AppConfig,
  needs: { database?: boolean; temporal?: boolean } = { database: true, temporal: true },
): string | undefined {
  if (config.nodeEnv !== 'production') return undefined;
  if (needs.database !== false && !config.databaseUrl) return 'DATABASE_URL is not set (required with NODE_ENV=production)';
  if (needs.temporal !== false && !config.temporalAddress) return 'TEMPORAL_ADDRESS is not set (required with NODE_ENV=production)';
  if (config.jwtSecret === DEV_JWT_SECRET) return 'JWT_SECRET is the development default; set a long random secret for production';
  if (Buffer.byteLength(config.jwtSecret) < MIN_PRODUCTION_SECRET_BYTES) {
    return `JWT_SECRET is ${Buffer.byteLength(config.jwtSecret)} bytes; production needs at least ${MIN_PRODUCTION_SECRET_BYTES} random bytes (openssl rand -base64 32)`;
  }
  if (config.passwordHashRounds < MIN_PRODUCTION_HASH_ROUNDS)
    return `PASSWORD_HASH_ROUNDS is ${config.passwordHashRounds}; production needs at least ${MIN_PRODUCTION_HASH_ROUNDS}`;
  if (config.adminPassword === DEV_ADMIN_PASSWORD) return 'ADMIN_PASSWORD is the development default; set your own for production';
  if (config.credentialKeys.keys.get(1)?.equals(parseKeyring(DEV_CREDENTIAL_KEYS).keys.get(1)!))
    return 'CREDENTIAL_KEYS holds the development key; set your own 32-byte keys for production';
  if (needs.temporal !== false && !config.storage.endpoint) return 'S3_ENDPOINT is not set (required with NODE_ENV=production)';
  if (needs.temporal !== false && config.storage.imageProxySecret === DEV_IMAGE_PROXY_SECRET)
    return 'IMAGE_PROXY_SECRET is the development default; set a long random secret for production';
  return undefined;
}

/**
 * An empty variable counts as unset: docker-compose passes `${SVEVE_USER:-}` as an empty string,
 * and `FOO=` in a shell or an .env file means "not configured", not "configured as nothing".
 */
function withoutEmpty(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const { value, error } = schema.validate(withoutEmpty(env), { abortEarly: false, convert: true });
  if (error) throw new Error(`Invalid configuration: ${error.message}`);
  const dataDir: string = value.DATA_DIR;
  let credentialKeys: CredentialKeyring;
  try {
    credentialKeys = parseKeyring(value.CREDENTIAL_KEYS);
  } catch (e) {
    throw new Error(`Invalid configuration: ${(e as Error).message}`);
  }
  return {
    nodeEnv: value.NODE_ENV,
    port: value.PORT,
    databaseUrl: value.DATABASE_URL,
    dataDir,
    jwtSecret: value.JWT_SECRET,
    keys: derivePurposeKeys(value.JWT_SECRET),
    accessTokenTtlSeconds: value.ACCESS_TOKEN_TTL_SECONDS,
    passwordHashRounds: value.PASSWORD_HASH_ROUNDS,
    refreshTokenTtlSeconds: value.REFRESH_TOKEN_TTL_SECONDS,
    sessionMaxSeconds: { staff: value.SESSION_MAX_SECONDS, customer: value.CUSTOMER_SESSION_MAX_SECONDS, impersonation: value.IMPERSONATION_MAX_SECONDS },
    passwordResetTtlSeconds: value.PASSWORD_RESET_TTL_SECONDS,
    adminEmail: value.ADMIN_EMAIL,
    adminPassword: value.ADMIN_PASSWORD,
    bodyLimit: value.BODY_LIMIT,
    rateLimit: {
      windowMs: value.RATE_LIMIT_WINDOW_MS,
      global: value.RATE_LIMIT_GLOBAL,
      auth: value.RATE_LIMIT_AUTH,
      bookingCreate: value.RATE_LIMIT_BOOKING_CREATE,
      bookingMove: value.RATE_LIMIT_BOOKING_MOVE,
      bookingMovePerBooking: value.RATE_LIMIT_BOOKING_MOVE_PER_BOOKING,
      upload: value.RATE_LIMIT_UPLOAD,
      presignedPut: value.RATE_LIMIT_PRESIGNED_PUT,
      presignedGet: value.RATE_LIMIT_PRESIGNED_GET,
      uploadDelete: value.RATE_LIMIT_UPLOAD_DELETE,
      imageSign: value.RATE_LIMIT_IMAGE_SIGN,
      subscriptionWebhook: value.RATE_LIMIT_SUBSCRIPTION_WEBHOOK,
      personalData: value.RATE_LIMIT_PERSONAL_DATA,
    },
    platformDomain: value.PLATFORM_DOMAIN,
    // links in messages follow the port the platform runs on unless a public address is given
    publicBaseUrl: String(value.PUBLIC_BASE_URL ?? `http://localhost:${value.PORT}`).replace(/\/$/, ''),
    temporalAddress: value.TEMPORAL_ADDRESS,
    temporalPort: value.TEMPORAL_PORT,
    temporalUiPort: value.TEMPORAL_UI_PORT,
    temporalNamespace: value.TEMPORAL_NAMESPACE,
    temporalTaskQueue: value.TEMPORAL_TASK_QUEUE,
    mailOutboxDir: value.MAIL_OUTBOX_DIR ?? `${dataDir}/mail`,
    smsOutboxDir: value.SMS_OUTBOX_DIR ?? `${dataDir}/sms`,
    logLevel: value.LOG_LEVEL,
    smtpUrl: value.SMTP_URL,
    mailFrom: value.MAIL_FROM,
    sveve:
      value.SVEVE_USER && value.SVEVE_PASSWORD
        ? { url: value.SVEVE_URL, user: value.SVEVE_USER, password: value.SVEVE_PASSWORD, sender: value.SVEVE_SENDER }
        : undefined,
    trustProxy: value.TRUST_PROXY,
    corsOrigins: String(value.CORS_ORIGINS)
      .split(',')
      .map((o: string) => o.trim().replace(/\/$/, ''))
      .filter(Boolean),
    corsMaxAgeSeconds: value.CORS_MAX_AGE_SECONDS,
    metricsToken: value.METRICS_TOKEN,
    smsReplySecret: value.SMS_REPLY_SECRET,
    shutdownTimeoutMs: value.SHUTDOWN_TIMEOUT_MS,
    workerHealthPort: value.WORKER_HEALTH_PORT,
    workerSlots: { activities: value.WORKER_MAX_CONCURRENT_ACTIVITIES, workflowTasks: value.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS },
    workerWorkflowStackTraces: value.WORKER_WORKFLOW_STACK_TRACES,
    workerMaxCachedWorkflows: value.WORKER_MAX_CACHED_WORKFLOWS,
    smsSendRatePerSecond: value.SMS_SEND_RATE_PER_SECOND,
    dbPoolMax: value.DB_POOL_MAX ?? defaultPoolMax(),
    credentialKeys,
    storage: {
      endpoint: value.S3_ENDPOINT,
      publicEndpoint: value.S3_PUBLIC_ENDPOINT,
      bucket: value.S3_BUCKET,
      region: value.S3_REGION,
      accessKeyId: value.S3_ACCESS_KEY_ID,
      secretAccessKey: value.S3_SECRET_ACCESS_KEY,
      forcePathStyle: value.S3_FORCE_PATH_STYLE,
      maxAttempts: value.S3_MAX_ATTEMPTS,
      imageProxySecret: value.IMAGE_PROXY_SECRET,
      maxImageBytes: value.UPLOAD_MAX_IMAGE_BYTES,
      maxDocumentBytes: value.UPLOAD_MAX_DOCUMENT_BYTES,
    },
    oidc: value.OIDC_ISSUER
      ? {
          issuer: value.OIDC_ISSUER,
          audiences: String(value.OIDC_CLIENT_ID)
            .split(',')
            .map((a: string) => a.trim())
            .filter(Boolean),
          jwksUri: value.OIDC_JWKS_URI,
        }
      : undefined,
    oidcDevPort: value.OIDC_DEV_PORT,
    payments: {
      sandboxUrl: value.PAYMENT_SANDBOX_URL,
      webhookBaseUrl: String(
        value.PAYMENT_WEBHOOK_BASE_URL ?? `${String(value.PUBLIC_BASE_URL ?? `http://localhost:${value.PORT}`).replace(/\/$/, '')}/api`,
      ).replace(/\/$/, ''),
      epay: { windowUrl: value.EPAY_WINDOW_URL, apiUrl: value.EPAY_API_URL },
      vipps: { apiUrl: value.VIPPS_API_URL ? String(value.VIPPS_API_URL).replace(/\/$/, '') : undefined },
      returnBaseUrl: String(value.PAYMENT_RETURN_BASE_URL ?? value.PUBLIC_BASE_URL ?? `http://localhost:${value.PORT}`).replace(/\/$/, ''),
    },
  };
}

/**
 * Connections per process: two per core of this machine, and at least 10. A booking holds its
 * connection across the signal to Temporal (it is sent before the commit: docs/rules/consistency.md),
 * so the pool bounds the bookings in flight; with 4 on two cores a burst of bookings queued for
 * connections while the cores waited on Temporal (docs/performance.md).
 */
function defaultPoolMax(): number {
  return Math.max(10, 2 * os.availableParallelism());
}
