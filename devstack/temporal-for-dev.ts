// Which Temporal `npm start` talks to: TEMPORAL_ADDRESS when set; else the official Temporal CLI's dev
// server when one is installed (TEMPORAL_CLI_PATH, the checkout's `npm run temporal:install`, or a
// `temporal` on the PATH), its runs kept in DATA_DIR/temporal/temporal.db and the official Web UI
// on TEMPORAL_UI_PORT; else our built-in dev server, keeping its runs in the platform's Postgres.
// TEMPORAL_ENGINE=official or builtin picks one instead of the first found.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { findTemporalCli } from './official-temporal/paths';
import { startOfficialDevServer } from './official-temporal/dev-server';

export interface DevTemporal {
  address: string;
  kind: 'external' | 'temporal-cli' | 'built-in';
  /** which server, for the banner: "official temporal CLI 1.9.1 (Server 1.32.0, UI 2.54.1)" */
  description: string;
  /** The dev server's web UI, when one was started. */
  uiUrl?: string;
  /** where it keeps its runs */
  storage?: string;
  stop(): Promise<void>;
}

/** The address the platform will use, known before anything starts (the signaller connects lazily). */
export function devTemporalAddress(options: { address?: string; port: number }): string {
  return options.address ?? `127.0.0.1:${options.port}`;
}

/** TEMPORAL_ENGINE for npm start: unset = the official CLI when one is found, else the built-in server. */
function chosenEngine(): 'official' | 'builtin' | undefined {
  const value = process.env.TEMPORAL_ENGINE;
  if (!value) return undefined;
  if (value !== 'official' && value !== 'builtin') throw new Error(`TEMPORAL_ENGINE is "${value}": set it to official or builtin, or unset it`);
  return value;
}

/** `uiPort`: the dev server's web UI port; 0 = headless. */
export async function startTemporalForDev(options: {
  address?: string;
  port: number;
  uiPort: number;
  dataDir: string;
  databaseUrl: string;
  namespace?: string;
}): Promise<DevTemporal> {
  if (options.address) return { address: options.address, kind: 'external', description: 'TEMPORAL_ADDRESS', stop: async () => undefined };
  const engine = chosenEngine();
  const cli = engine === 'builtin' ? undefined : findTemporalCli();
  if (engine === 'official' && !cli)
    throw new Error('TEMPORAL_ENGINE=official but no temporal CLI is installed: run npm run temporal:install (or set TEMPORAL_CLI_PATH)');
  if (cli) {
    // Runs are kept in a SQLite file under DATA_DIR, so a restart keeps them (timers included).
    const dbFile = path.join(options.dataDir, 'temporal.db');
    const server = await startOfficialDevServer({
      cli,
      port: options.port,
      uiPort: options.uiPort,
      dbFile,
      namespaces: options.namespace && options.namespace !== 'default' ? [options.namespace] : [],
    });
    return {
      address: server.address,
      kind: 'temporal-cli',
      description: `official ${cliVersion(cli)}`,
      uiUrl: server.uiUrl,
      storage: dbFile,
      stop: () => server.stop(),
    };
  }
  // Runs are stored in the platform's database, so timers (reminders, expiries) survive a restart.
  // The server runs in a process of its own (devstack/temporal-process.ts), beside the api's.
  const child = fork(require.resolve('./temporal-process'), [], {
    env: {
      ...process.env,
      DEVSERVER_PORT: String(options.port),
      DEVSERVER_UI_PORT: String(options.uiPort || ''),
      DEVSERVER_DATABASE_URL: options.databaseUrl,
      DEVSERVER_STORE_ID: 'npm-start',
    },
    execArgv: runningFromSource ? ['--require', 'tsx/cjs'] : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ address: string; uiUrl?: string }>((resolve, reject) => {
    child.once('message', (msg) => resolve(msg as { address: string; uiUrl?: string }));
    child.once('exit', (code) => reject(new Error(`the Temporal dev server exited (${code}) before it listened`)));
  });
  return {
    address: ready.address,
    kind: 'built-in',
    description: 'built-in dev server (@salon/temporal-server)',
    uiUrl: ready.uiUrl,
    storage: "the platform's Postgres",
    stop: () => stopChild(child),
  };
}

/** "temporal CLI 1.9.1 (Server 1.32.0, UI 2.54.1)" from `temporal --version`. */
function cliVersion(cli: string): string {
  try {
    return execFileSync(cli, ['--version'], { encoding: 'utf8' })
      .trim()
      .replace(/^temporal version/, 'temporal CLI');
  } catch {
    return `temporal CLI at ${cli}`;
  }
}

const runningFromSource = __filename.endsWith('.ts');

/** SIGTERM, then waits for the exit (SIGKILL after 10 s). */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
