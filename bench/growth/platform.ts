// The platform bench:growth measures: `npm start` (node dist/bin/dev.js: the api, the worker and the
// official Temporal dev server) against a database of the bench's Postgres, as a separate process,
// measured from outside over HTTP like a client.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../devstack/postgres';

export interface RunningPlatform {
  base: string;
  pid: number;
  /** the end of its output, for an error */
  output(): string;
  stop(): Promise<void>;
}

export const BENCH_SECRETS = {
  JWT_SECRET: 'bench-growth-jwt-secret-0123456789abcdef',
  ADMIN_EMAIL: 'admin@growth.example',
  ADMIN_PASSWORD: 'growth-admin-password',
  CREDENTIAL_KEYS: `1:${Buffer.alloc(32, 7).toString('base64')}`,
  IMAGE_PROXY_SECRET: 'bench-growth-image-proxy-secret-0123',
  PASSWORD_HASH_ROUNDS: '10',
};
// every request still passes every limiter; the budgets are only big enough for one client address
const BUDGETS = { RATE_LIMIT_GLOBAL: '10000000', RATE_LIMIT_BOOKING_CREATE: '10000000', RATE_LIMIT_AUTH: '10000000' };

export async function startPlatform(databaseUrl: string, dataDir: string): Promise<RunningPlatform> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.resolve(__dirname, '../../dist/bin/dev.js')], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...BENCH_SECRETS,
      ...BUDGETS,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: '0',
      OIDC_DEV_PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (d: Buffer) => (tail = (tail + d.toString()).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}/api`;
  const until = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}: ${tail}`);
    try {
      if ((await fetch(`${base}/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`npm start did not answer: ${tail}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    pid: child.pid!,
    output: () => tail,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
