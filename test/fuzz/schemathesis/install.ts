// `npm run schemathesis:install`: the pinned Schemathesis (PyPI `schemathesis`, and each package it
// needs at the version requirements.txt beside this file names) into a virtual
// environment of the checkout, `.schemathesis/venv` (git-ignored; never the system Python), for the
// contract run of `npm test` (test/fuzz/schemathesis.test.ts). `npm test` runs it first
// (`--if-missing`), as it installs the official Temporal engine. Where it cannot install, it says in
// one line what to do, and exits 1.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The one version the suite runs (requirements.txt pins it with the rest); a different stamp installs it again. */
export const SCHEMATHESIS_VERSION = '4.32.5';
const REQUIREMENTS = path.join(__dirname, 'requirements.txt');

const ROOT = path.resolve(__dirname, '..', '..', '..');
export const SCHEMATHESIS_DIR = path.join(ROOT, '.schemathesis');
const VENV = path.join(SCHEMATHESIS_DIR, 'venv');
const STAMP = path.join(VENV, 'salon-installed.json');

/** The `st` command of the pinned install. */
export const SCHEMATHESIS_CLI = path.join(VENV, 'bin', 'st');

/** What the stamp records: the version and the pinned set it came with. */
function wanted(): { version: string; requirements: string } {
  return { version: SCHEMATHESIS_VERSION, requirements: createHash('sha256').update(fs.readFileSync(REQUIREMENTS)).digest('hex') };
}

export function schemathesisInstalled(): boolean {
  try {
    const stamp = JSON.parse(fs.readFileSync(STAMP, 'utf8')) as ReturnType<typeof wanted>;
    const want = wanted();
    return stamp.version === want.version && stamp.requirements === want.requirements && fs.existsSync(SCHEMATHESIS_CLI);
  } catch {
    return false;
  }
}

function lastLine(text: string | undefined): string {
  return (text ?? '').trim().split('\n').filter(Boolean).pop()?.trim() ?? '';
}

/** Installs the pinned Schemathesis unless it is there. Throws with one line saying what to do where it cannot. */
export function ensureSchemathesis(log: (line: string) => void = (l) => console.error(l)): 'present' | 'installed' {
  if (schemathesisInstalled()) return 'present';
  const started = Date.now();
  const python = process.env.SCHEMATHESIS_INSTALL_PYTHON ?? 'python3';
  log(`installing schemathesis==${SCHEMATHESIS_VERSION} from PyPI into ${path.relative(process.cwd(), VENV) || VENV}`);
  const venv = spawnSync(python, ['-m', 'venv', '--clear', VENV], { encoding: 'utf8' });
  if (venv.status !== 0)
    throw new Error(
      `The contract run needs ${python} with venv (${lastLine(venv.stderr) || venv.error?.message}): run sudo apt-get install -y python3 python3-venv, then npm run schemathesis:install`,
    );
  const pip = spawnSync(
    path.join(VENV, 'bin', 'python'),
    ['-m', 'pip', 'install', '--no-input', '--disable-pip-version-check', '--quiet', '--requirement', REQUIREMENTS],
    { encoding: 'utf8' },
  );
  if (pip.status !== 0 || !fs.existsSync(SCHEMATHESIS_CLI))
    throw new Error(
      `Could not install schemathesis==${SCHEMATHESIS_VERSION} from PyPI (pip: ${lastLine(pip.stderr) || `exit ${pip.status}`}): check the network or your pip index (PIP_INDEX_URL), then npm run schemathesis:install`,
    );
  fs.writeFileSync(STAMP, `${JSON.stringify(wanted(), null, 2)}\n`);
  log(`schemathesis ${SCHEMATHESIS_VERSION} installed in ${((Date.now() - started) / 1000).toFixed(0)} s: ${SCHEMATHESIS_CLI}`);
  return 'installed';
}

if (require.main === module) {
  try {
    if (ensureSchemathesis() === 'present' && !process.argv.includes('--if-missing'))
      console.log(`schemathesis ${SCHEMATHESIS_VERSION} is installed: ${SCHEMATHESIS_CLI}`);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}
