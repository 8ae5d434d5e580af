// Production wiring, shared by bin/api, bin/worker, bin/migrate, bin/dev and the tests: which
// adapter each environment variable selects, and the api's dependency bundle. Nothing here starts
// embedded services (that is devserver/, used by `npm start` and the tests only).
import path from 'node:path';
import type { Knex } from 'knex';
import pg from 'pg';
import { PostgresStore } from '@acpr/rate-limit-postgresql';
import { migrate as migrateRateLimitSchema } from 'postgres-migrations';
import { productionProblem, type AppConfig } from '../config';
import type { AppDeps } from '../api/deps';
import type { RateLimitStoreFactory } from '../api/middleware/rate-limit';
import { Metrics } from '../api/ops/metrics';
import type { Logger } from '../integrations/logger';
import { FolderMailer, SmtpMailer, type Mailer } from '../integrations/mail/mailer';
import { FolderSmsSender, type SmsSender } from '../integrations/sms/sms-sender';
import { SveveSmsSender } from '../integrations/sms/sveve-sms-sender';
import type { EntitySignaller } from '../domain/workflow-signals/entity-signaller';
import { TemporalSignaller } from '../integrations/temporal/temporal-signaller';

/** Exits with one line on stderr when NODE_ENV=production and the configuration is not fit for it. */
export function refuseUnfitProduction(config: AppConfig, processName: string, needs?: { database?: boolean; temporal?: boolean }): void {
  const problem = productionProblem(config, needs);
  if (problem) {
    console.error(`${processName}: ${problem}`);
    process.exit(1);
  }
}

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

const RATE_LIMIT_MIGRATIONS = path.join(path.dirname(require.resolve('@acpr/rate-limit-postgresql')), 'migrations');

/**
 * The rate-limit store's own schema (`rate_limit`, plus its bookkeeping table `migrations`). The
 * store also applies it when constructed, without waiting; doing it first means no request can
 * arrive before its tables exist.
 */
export async function migrateRateLimits(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await migrateRateLimitSchema({ client }, RATE_LIMIT_MIGRATIONS)).length;
  } finally {
    await client.end();
  }
}

export interface RateLimitStores {
  factory: RateLimitStoreFactory;
  close(): Promise<void>;
}

/**
 * The store of @acpr/rate-limit-postgresql, with an error listener on its pool: without one, an idle
 * connection that the server closes (a Postgres restart or failover) crashes the process.
 */
class ListenedPostgresStore extends PostgresStore {
  override init(options: Parameters<PostgresStore['init']>[0]): void {
    super.init(options);
    (this.pool as { on(event: 'error', listener: (err: Error) => void): void }).on('error', () => undefined);
  }
}

/**
 * Rate-limit counters in Postgres (@acpr/rate-limit-postgresql), so every api process counts into
 * one budget per client IP and limiter. `prefix` separates independent sets of counters (tests).
 */
export function postgresRateLimitStores(databaseUrl: string, prefix = ''): RateLimitStores {
  const stores: PostgresStore[] = [];
  return {
    factory: (name) => {
      const store = new ListenedPostgresStore({ connectionString: databaseUrl, max: 4 }, `${prefix}${name}`);
      stores.push(store);
      return store;
    },
    async close() {
      await Promise.all(stores.map((s) => (s.pool as { end?: () => Promise<void> } | undefined)?.end?.()));
    },
  };
}

export interface ComposedApi {
  deps: AppDeps;
  /** closes what composeApi opened (rate-limit pools, SMTP connections); not the knex or signaller */
  close(): Promise<void>;
}

/** The api's dependency bundle for a database that is already migrated. */
export async function composeApi(options: {
  config: AppConfig & { databaseUrl: string };
  logger: Logger;
  knex: Knex;
  signaller: EntitySignaller;
  mailer?: Mailer & { close?(): void };
  rateLimitPrefix?: string;
  /** the registry the signaller already counts failures into (createTemporalSignaller) */
  metrics?: Metrics;
}): Promise<ComposedApi> {
  const { config, knex } = options;
  const metrics = options.metrics ?? new Metrics(knex);
  const signaller = options.signaller;
  const mailer = options.mailer ?? createMailer(config);
  await migrateRateLimits(config.databaseUrl);
  const rateLimits = postgresRateLimitStores(config.databaseUrl, options.rateLimitPrefix);
  const deps: AppDeps = {
    config,
    logger: options.logger,
    knex,
    mailer,
    signaller,
    rateLimitStore: rateLimits.factory,
    metrics,
    health: {
      database: async () => {
        await knex.raw('SELECT 1');
      },
      ...(signaller.ping ? { temporal: () => signaller.ping!() } : {}),
    },
  };
  return {
    deps,
    async close() {
      await rateLimits.close();
      mailer.close?.();
    },
  };
}

/**
 * Process-level safety net: an unhandled rejection or exception is logged and the process exits
 * non-zero (the orchestrator restarts it) instead of running on in an unknown state.
 */
export function exitOnUnhandled(logger: Logger, processName: string): void {
  process.on('unhandledRejection', (reason) => {
    logger.fatal({ err: reason }, `${processName}: unhandled promise rejection`);
    process.exit(1);
  });
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, `${processName}: uncaught exception`);
    process.exit(1);
  });
}
