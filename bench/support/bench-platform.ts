// The platform a bench measures: `npm start`'s embedded stack (a Postgres of its own, nothing kept)
// in a fresh data folder, silent, with the settings `env` gives (the rate limits raised so the load
// measured is not refused). `stop()` stops it and removes the folder.
//
//   const bench = await startBenchPlatform('desk', { RATE_LIMIT_AUTH: '1000000' });
//   try { ... bench.platform.knex ... } finally { await bench.stop(); }
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../config';
import { startPlatform, type Platform } from '../../devstack/platform';
import { createLogger } from '../../integrations/logger';
import { RecordingSignaller } from '../../test/support/recording-signaller';

export interface BenchPlatform {
  platform: Platform;
  stop(): Promise<void>;
}

export async function startBenchPlatform(name: string, env: Record<string, string>): Promise<BenchPlatform> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `salon-bench-${name}-`));
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const platform = await startPlatform(
    { ...config, databaseUrl: undefined },
    { persistentData: false, logger: createLogger('silent'), signaller: new RecordingSignaller() },
  );
  return {
    platform,
    stop: async () => {
      await platform.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
