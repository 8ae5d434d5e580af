// Which Temporal `npm start` talks to: TEMPORAL_ADDRESS when set; else a real `temporal` CLI dev
// server when one is installed (TEMPORAL_CLI_PATH or on the PATH); else our built-in dev server,
// keeping its runs in the platform's Postgres.
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { fork, spawn, type ChildProcess } from 'node:child_process';

export interface DevTemporal {
  address: string;
  kind: 'external' | 'temporal-cli' | 'built-in';
  /** The dev server's web UI, when one was started. */
  uiUrl?: string;
  stop(): Promise<void>;
}

function findTemporalCli(): string | undefined {
  const explicit = process.env.TEMPORAL_CLI_PATH;
  if (explicit) return explicit;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'temporal');
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`Temporal did not open port ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The address the platform will use, known before anything starts (the signaller connects lazily). */
export function devTemporalAddress(options: { address?: string; port: number }): string {
  return options.address ?? `127.0.0.1:${options.port}`;
}

/** `uiPort`: the dev server's web UI port; 0 = headless. */
export async function startTemporalForDev(options: { address?: string; port: number; uiPort: number; dataDir: string; databaseUrl: string }): Promise<DevTemporal> {
  if (options.address) return { address: options.address, kind: 'external', stop: async () => undefined };
  const cli = findTemporalCli();
  if (cli) {
    fs.mkdirSync(options.dataDir, { recursive: true });
    const ui = options.uiPort ? ['--ui-port', String(options.uiPort)] : ['--headless'];
    const child = spawn(cli, ['server', 'start-dev', '--port', String(options.port), ...ui, '--db-filename', path.join(options.dataDir, 'temporal.db')], {
      stdio: 'ignore',
    });
    await waitForPort(options.port, 30_000);
    return {
      address: `127.0.0.1:${options.port}`,
      kind: 'temporal-cli',
      uiUrl: options.uiPort ? `http://localhost:${options.uiPort}` : undefined,
      stop: async () => {
        child.kill('SIGTERM');
      },
    };
  }
  // Runs are stored in the platform's database, so timers (reminders, expiries) survive a restart.
  // The server runs in a process of its own (devstack/temporal-process.ts), beside the api's.
  const child = fork(require.resolve('./temporal-process'), [], {
    env: { ...process.env, DEVSERVER_PORT: String(options.port), DEVSERVER_UI_PORT: String(options.uiPort || ''), DEVSERVER_DATABASE_URL: options.databaseUrl, DEVSERVER_STORE_ID: 'npm-start' },
    execArgv: runningFromSource ? ['--require', 'tsx/cjs'] : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ address: string; uiUrl?: string }>((resolve, reject) => {
    child.once('message', (msg) => resolve(msg as { address: string; uiUrl?: string }));
    child.once('exit', (code) => reject(new Error(`the Temporal dev server exited (${code}) before it listened`)));
  });
  return { address: ready.address, kind: 'built-in', uiUrl: ready.uiUrl, stop: () => stopChild(child) };
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
