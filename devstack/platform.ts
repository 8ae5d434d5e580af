// Brings up the platform's dependencies for `npm start` and the tests: the database (embedded
// Postgres unless DATABASE_URL), migrations, the platform admin, then the api's dependency bundle
// from the composition root, composition/ (the same one production uses).
import path from 'node:path';
import type { DbPool } from '../db/db-handle';
import type { AppConfig } from '../config';
import { createKnex } from '../db/knex';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './postgres';
import { createLogger, type Logger } from '../integrations/logger';
import { FolderMailer } from '../integrations/mail/mailer';
import type { EntitySignaller } from '../domain/workflow-signals/entity-signaller';
import { composeApi, type ComposedApi } from '../composition/compose';
import { runMigrations } from '../composition/migrations';
import { startEmbeddedS3, type EmbeddedS3 } from './s3-for-dev';

export interface Platform {
  deps: ComposedApi['deps'];
  knex: DbPool;
  /** the folder outbox of MAIL_OUTBOX_DIR (what the mailer wrote when SMTP_URL is unset) */
  mailer: FolderMailer;
  embeddedPostgres?: EmbeddedPostgresHandle;
  /** s3rver on loopback (data in DATA_DIR/s3) when S3_ENDPOINT is unset */
  embeddedS3?: EmbeddedS3;
  /** runs before the database goes away (workers, servers started beside the platform) */
  onStop(hook: () => Promise<void>): void;
  stop(): Promise<void>;
}

export interface PlatformOptions {
  persistentData?: boolean;
  /** npm start: the caller stops everything on SIGINT/SIGTERM (see startEmbeddedPostgres) */
  callerHandlesSignals?: boolean;
  logger?: Logger;
  /** how the API reaches entity workflows: a TemporalSignaller (bin/dev), or a test's recorder */
  signaller: EntitySignaller;
  /** keeps this platform's rate-limit counters apart from others on the same database (tests) */
  rateLimitPrefix?: string;
}

/** Embedded Postgres in DATA_DIR/postgres unless DATABASE_URL is set. */
export async function startDatabase(
  config: AppConfig,
  options: { persistentData?: boolean; logger: Logger; callerHandlesSignals?: boolean },
): Promise<{ databaseUrl: string; embeddedPostgres?: EmbeddedPostgresHandle }> {
  if (config.databaseUrl) return { databaseUrl: config.databaseUrl };
  const embeddedPostgres = await startEmbeddedPostgres({
    dataDir: path.join(config.dataDir, 'postgres'),
    persistent: options.persistentData ?? true,
    callerHandlesSignals: options.callerHandlesSignals,
    log: (line) => options.logger.debug({ component: 'postgres' }, line),
  });
  return { databaseUrl: embeddedPostgres.url, embeddedPostgres };
}

export async function startPlatform(config: AppConfig, options: PlatformOptions): Promise<Platform> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const { databaseUrl, embeddedPostgres } = await startDatabase(config, {
    persistentData: options.persistentData,
    logger,
    callerHandlesSignals: options.callerHandlesSignals,
  });
  const knex = createKnex(databaseUrl, { max: config.dbPoolMax });
  await runMigrations(knex, { ...config, databaseUrl });
  const embeddedS3 = config.storage.endpoint ? undefined : await startEmbeddedS3({ dataDir: config.dataDir, bucket: config.storage.bucket });
  const storage = embeddedS3 ? { ...config.storage, endpoint: embeddedS3.endpoint } : config.storage;
  const composed = await composeApi({
    config: { ...config, databaseUrl, storage },
    logger,
    knex,
    signaller: options.signaller,
    rateLimitPrefix: options.rateLimitPrefix,
  });
  const stopHooks: (() => Promise<void>)[] = [];
  return {
    deps: composed.deps,
    knex,
    mailer: new FolderMailer(config.mailOutboxDir),
    embeddedPostgres,
    embeddedS3,
    onStop(hook) {
      stopHooks.unshift(hook);
    },
    async stop() {
      for (const hook of stopHooks) await hook();
      await composed.close();
      await embeddedS3?.stop();
      await knex.destroy();
      await embeddedPostgres?.stop();
    },
  };
}
