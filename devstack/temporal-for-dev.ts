// Which Temporal `npm start` talks to: TEMPORAL_ADDRESS when set; else the official Temporal CLI's dev
// server (`temporal server start-dev`): the CLI at TEMPORAL_CLI_PATH, or the pinned one `npm ci`
// installed into the checkout (devstack/official-temporal/install.ts), its runs kept in
// DATA_DIR/temporal/temporal.db and the official Web UI on TEMPORAL_UI_PORT. With neither, npm start
// refuses with the installer's line (what to do); it never runs anything else in its place.
import { execFileSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { findTemporalCli, isExecutableFile, missingCliLine } from './official-temporal/paths';
import { startOfficialDevServer } from './official-temporal/dev-server';

export interface DevTemporal {
  address: string;
  kind: 'external' | 'temporal-cli';
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

/**
 * The CLI npm start will run, or the one line saying why there is none (checked before anything
 * starts). Undefined with TEMPORAL_ADDRESS: nothing is started for it.
 */
export function devTemporalCli(options: { address?: string }): { cli: string } | { refusal: string } | undefined {
  if (options.address) return undefined;
  const cli = findTemporalCli();
  if (!cli) return { refusal: missingCliLine() };
  if (!isExecutableFile(cli))
    return { refusal: `TEMPORAL_CLI_PATH is ${cli}, which is not a program this user can run: point it at a temporal CLI, or unset it` };
  return { cli };
}

/** `uiPort`: the dev server's web UI port; 0 = headless. */
export async function startTemporalForDev(options: {
  address?: string;
  port: number;
  uiPort: number;
  dataDir: string;
  namespace?: string;
}): Promise<DevTemporal> {
  if (options.address) return { address: options.address, kind: 'external', description: 'TEMPORAL_ADDRESS', stop: async () => undefined };
  const found = devTemporalCli(options)!;
  if ('refusal' in found) throw new Error(found.refusal);
  // Runs are kept in a SQLite file under DATA_DIR, so a restart keeps them (timers included).
  const dbFile = path.join(options.dataDir, 'temporal.db');
  const server = await startOfficialDevServer({
    cli: found.cli,
    port: options.port,
    uiPort: options.uiPort,
    dbFile,
    namespaces: options.namespace && options.namespace !== 'default' ? [options.namespace] : [],
  });
  return {
    address: server.address,
    kind: 'temporal-cli',
    description: `official ${cliVersion(found.cli)}`,
    uiUrl: server.uiUrl,
    storage: dbFile,
    stop: () => server.stop(),
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

/** SIGTERM, then waits for the exit (SIGKILL after 10 s). */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
