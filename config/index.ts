// Every environment variable the platform reads, validated once at start-up with joi.
// README.md lists them with the same defaults; keep the two in step.
import Joi from 'joi';

export interface RateLimitConfig {
  windowMs: number;
  global: number;
  auth: number;
  bookingCreate: number;
}

export interface AppConfig {
  nodeEnv: string;
  port: number;
  databaseUrl?: string;
  dataDir: string;
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  passwordHashRounds: number;
  refreshTokenTtlSeconds: number;
  passwordResetTtlSeconds: number;
  adminEmail: string;
  adminPassword: string;
  bodyLimit: string;
  rateLimit: RateLimitConfig;
  platformDomain: string;
  publicBaseUrl: string;
  temporalAddress?: string;
  temporalPort: number;
  temporalNamespace: string;
  temporalTaskQueue: string;
  mailOutboxDir: string;
  smsOutboxDir: string;
  logLevel: string;
}

const schema = Joi.object({
  NODE_ENV: Joi.string().default('development'),
  PORT: Joi.number().integer().min(0).max(65535).default(3000),
  DATABASE_URL: Joi.string().uri({ scheme: ['postgres', 'postgresql'] }).optional(),
  DATA_DIR: Joi.string().default('.data'),
  JWT_SECRET: Joi.string().min(16).default('dev-only-insecure-jwt-secret-change-me'),
  PASSWORD_HASH_ROUNDS: Joi.number().integer().min(4).max(15).default(10),
  ACCESS_TOKEN_TTL_SECONDS: Joi.number().integer().min(30).default(900),
  REFRESH_TOKEN_TTL_SECONDS: Joi.number().integer().min(60).default(30 * 24 * 3600),
  PASSWORD_RESET_TTL_SECONDS: Joi.number().integer().min(60).default(3600),
  ADMIN_EMAIL: Joi.string().email({ tlds: { allow: false } }).default('admin@salon.local'),
  ADMIN_PASSWORD: Joi.string().min(8).default('admin-dev-password'),
  BODY_LIMIT: Joi.string().default('1mb'),
  RATE_LIMIT_WINDOW_MS: Joi.number().integer().min(1000).default(60_000),
  RATE_LIMIT_GLOBAL: Joi.number().integer().min(1).default(100),
  RATE_LIMIT_AUTH: Joi.number().integer().min(1).default(10),
  RATE_LIMIT_BOOKING_CREATE: Joi.number().integer().min(1).default(20),
  PLATFORM_DOMAIN: Joi.string().default('salon.local'),
  PUBLIC_BASE_URL: Joi.string().uri().default('http://localhost:3000'),
  TEMPORAL_ADDRESS: Joi.string().optional(),
  TEMPORAL_PORT: Joi.number().integer().min(1).max(65535).default(7233),
  TEMPORAL_NAMESPACE: Joi.string().default('default'),
  TEMPORAL_TASK_QUEUE: Joi.string().default('salon'),
  MAIL_OUTBOX_DIR: Joi.string().optional(),
  SMS_OUTBOX_DIR: Joi.string().optional(),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
}).unknown(true);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const { value, error } = schema.validate(env, { abortEarly: false, convert: true });
  if (error) throw new Error(`Invalid configuration: ${error.message}`);
  const dataDir: string = value.DATA_DIR;
  return {
    nodeEnv: value.NODE_ENV,
    port: value.PORT,
    databaseUrl: value.DATABASE_URL,
    dataDir,
    jwtSecret: value.JWT_SECRET,
    accessTokenTtlSeconds: value.ACCESS_TOKEN_TTL_SECONDS,
    passwordHashRounds: value.PASSWORD_HASH_ROUNDS,
    refreshTokenTtlSeconds: value.REFRESH_TOKEN_TTL_SECONDS,
    passwordResetTtlSeconds: value.PASSWORD_RESET_TTL_SECONDS,
    adminEmail: value.ADMIN_EMAIL,
    adminPassword: value.ADMIN_PASSWORD,
    bodyLimit: value.BODY_LIMIT,
    rateLimit: {
      windowMs: value.RATE_LIMIT_WINDOW_MS,
      global: value.RATE_LIMIT_GLOBAL,
      auth: value.RATE_LIMIT_AUTH,
      bookingCreate: value.RATE_LIMIT_BOOKING_CREATE,
    },
    platformDomain: value.PLATFORM_DOMAIN,
    publicBaseUrl: value.PUBLIC_BASE_URL,
    temporalAddress: value.TEMPORAL_ADDRESS,
    temporalPort: value.TEMPORAL_PORT,
    temporalNamespace: value.TEMPORAL_NAMESPACE,
    temporalTaskQueue: value.TEMPORAL_TASK_QUEUE,
    mailOutboxDir: value.MAIL_OUTBOX_DIR ?? `${dataDir}/mail`,
    smsOutboxDir: value.SMS_OUTBOX_DIR ?? `${dataDir}/sms`,
    logLevel: value.LOG_LEVEL,
  };
}
