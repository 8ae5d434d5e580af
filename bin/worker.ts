#!/usr/bin/env node
// The Temporal worker process (task queue `salon`): every workflow and activity of the platform.
import path from 'node:path';
import { NativeConnection, Worker, Runtime, DefaultLogger } from '@temporalio/worker';
import { loadConfig } from '../config';
import { createKnex } from '../db/knex';
import { createActivities, type ActivityDeps } from '../activities';
import { FolderMailer } from '../integrations/mail/mailer';
import { FolderSmsSender } from '../integrations/sms/sms-sender';

export interface RunningWorker {
  worker: Worker;
  /** resolves when the worker has stopped */
  finished: Promise<void>;
  shutdown(): Promise<void>;
}

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  activityDeps: ActivityDeps;
  /** warn (default) keeps the SDK quiet in tests and dev */
  logLevel?: 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
}

let runtimeInstalled = false;

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  if (!runtimeInstalled) {
    runtimeInstalled = true;
    try {
      Runtime.install({ logger: new DefaultLogger(options.logLevel ?? 'WARN') });
    } catch {
      // already installed by someone else in this process (tests)
    }
  }
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    // compiled: dist/workflows/index.js; from source (tests): workflows/index.ts
    workflowsPath: require.resolve(path.join(__dirname, '..', 'workflows')),
    activities: createActivities(options.activityDeps),
  });
  const finished = worker.run().finally(() => connection.close());
  return {
    worker,
    finished,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await finished;
    },
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl || !config.temporalAddress) {
    throw new Error('bin/worker needs DATABASE_URL and TEMPORAL_ADDRESS (use `npm start` for the embedded stack)');
  }
  const knex = createKnex(config.databaseUrl);
  const running = await startWorker({
    address: config.temporalAddress,
    namespace: config.temporalNamespace,
    taskQueue: config.temporalTaskQueue,
    activityDeps: { knex, mailer: new FolderMailer(config.mailOutboxDir), sms: new FolderSmsSender(config.smsOutboxDir) },
    logLevel: 'INFO',
  });
  await running.finished;
  await knex.destroy();
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
