// Brings up the platform's dependencies for `npm start` and the tests: the database (embedded or
// DATABASE_URL), migrations, the platform admin, and the app's dependency bundle.
import path from 'node:path';
import type { Knex } from 'knex';
import type { AppConfig } from '../config';
import { createKnex, migrateLatest } from '../db/knex';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './postgres';
import { createLogger, type Logger } from '../integrations/logger';
import { FolderMailer } from '../integrations/mail/mailer';
import { ensurePlatformAdmin } from '../domain/auth/platform-admin.service';
import type { AppDeps } from '../api/deps';
import type { EntitySignaller } from '../domain/workflow-signals/entity-signaller';
import { RecordingSignaller } from '../integrations/temporal/recording-signaller';

export interface Platform {
  deps: AppDeps;
  knex: Knex;
  mailer: FolderMailer;
  embeddedPostgres?: EmbeddedPostgresHandle;
  /** runs before the database goes away (workers, servers started beside the platform) */
  onStop(hook: () => Promise<void>): void;
  stop(): Promise<void>;
}

export interface PlatformOptions {
  persistentData?: boolean;
  logger?: Logger;
  /** how the API reaches entity workflows; the Temporal-backed one is wired by bin/dev and the tests */
  signaller?: EntitySignaller;
}

export async function startPlatform(config: AppConfig, options: PlatformOptions = {}): Promise<Platform> {
  const logger = options.logger ?? createLogger(config.logLevel);
  let embeddedPostgres: EmbeddedPostgresHandle | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embeddedPostgres = await startEmbeddedPostgres({
      dataDir: path.join(config.dataDir, 'postgres'),
      persistent: options.persistentData ?? true,
      log: (line) => logger.debug({ component: 'postgres' }, line),
    });
    databaseUrl = embeddedPostgres.url;
  }
  const knex = createKnex(databaseUrl);
  await migrateLatest(knex);
  await ensurePlatformAdmin(knex, config.adminEmail, config.adminPassword, config.passwordHashRounds);
  const mailer = new FolderMailer(config.mailOutboxDir);
  const signaller = options.signaller ?? new RecordingSignaller();
  const deps: AppDeps = {
    config: { ...config, databaseUrl },
    logger,
    knex,
    mailer,
    signaller,
    health: {
      database: async () => {
        await knex.raw('SELECT 1');
      },
      ...(signaller.ping ? { temporal: () => signaller.ping!() } : {}),
    },
  };
  const stopHooks: (() => Promise<void>)[] = [];
  return {
    deps,
    knex,
    mailer,
    embeddedPostgres,
    onStop(hook) {
      stopHooks.unshift(hook);
    },
    async stop() {
      for (const hook of stopHooks) await hook();
      await knex.destroy();
      await embeddedPostgres?.stop();
    },
  };
}
