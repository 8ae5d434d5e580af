// Point 7: the launcher executable (both SDK command-line shapes), createLocal, and dying with
// its parent.
import { expect } from 'chai';
import { spawn, execFileSync } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { parseLauncherArgs } from '../src/launcher-args';
import { createLocalEnv, ensureLauncherBuilt } from './support/launcher';
import { bundle, freePort, uid, waitFor } from './harness';
import * as activities from './activities';

async function canConnect(port: number): Promise<boolean> {
  try {
    const c = await Connection.connect({ address: `127.0.0.1:${port}`, connectTimeout: 500 });
    await c.close();
    return true;
  } catch {
    return false;
  }
}

describe('devserver launcher', function () {
  before(function () {
    this.timeout(60_000);
    ensureLauncherBuilt();
  });

  describe('argument parsing', () => {
    it('parses the dev-server shape (temporal server start-dev ...)', () => {
      const c = parseLauncherArgs([
        'server',
        'start-dev',
        '--port',
        '7999',
        '--namespace',
        'salon',
        '--ip',
        '127.0.0.1',
        '--log-format',
        'pretty',
        '--log-level',
        'warn',
        '--dynamic-config-value',
        'frontend.enableServerVersionCheck=false',
        '--headless',
        '--search-attribute',
        'Tenant=Keyword',
      ]);
      expect(c).to.deep.include({ mode: 'dev', port: 7999, host: '127.0.0.1', namespaces: ['salon'], timeSkipping: false });
      expect(c.searchAttributes).to.deep.equal({ Tenant: 'Keyword' });
    });
    it('parses the test-server shape (<port> [extra args])', () => {
      expect(parseLauncherArgs(['7998'])).to.deep.include({ mode: 'test', port: 7998, host: '0.0.0.0', timeSkipping: true, startUnlocked: false });
      expect(parseLauncherArgs(['7998', '--enable-time-skipping'])).to.deep.include({ startUnlocked: true });
    });
    it('rejects a missing port', () => {
      expect(() => parseLauncherArgs([])).to.throw(/usage/);
    });
  });

  it('is an executable that answers GetSystemInfo in both shapes', async function () {
    this.timeout(40_000);
    const launcher = ensureLauncherBuilt();
    for (const shape of [(p: number) => [String(p)], (p: number) => ['server', 'start-dev', '--port', String(p), '--headless']]) {
      const port = await freePort();
      const child = spawn(launcher, shape(port), { stdio: ['ignore', 'ignore', 'ignore'] });
      try {
        await waitFor(() => canConnect(port), 15_000, 50);
      } finally {
        child.kill('SIGKILL');
      }
    }
  });

  it('dies with its parent', async function () {
    this.timeout(20_000);
    const launcher = ensureLauncherBuilt();
    const port = await freePort();
    // An intermediate node process spawns the launcher and is then SIGKILLed (as sdk-core's
    // process would be), leaving the launcher orphaned.
    const parent = spawn(
      process.execPath,
      ['-e', `require('child_process').spawn(${JSON.stringify(launcher)}, ['${port}'], { stdio: 'ignore' }); setInterval(() => {}, 1000);`],
      { stdio: 'ignore' },
    );
    await waitFor(() => canConnect(port), 5000, 50);
    parent.kill('SIGKILL');
    await waitFor(async () => !(await canConnect(port)), 5000, 100);
    expect(
      execFileSync('sh', ['-c', `ps -eo args | grep -c "[l]auncher.js ${port}" || true`])
        .toString()
        .trim(),
    ).to.equal('0');
  });

  it('serves TestWorkflowEnvironment.createLocal (dev-server shape) with a custom namespace', async function () {
    this.timeout(30_000);
    const env = await createLocalEnv({ server: { namespace: 'salon-test' } });
    try {
      const tq = uid('tq');
      const worker = await Worker.create({
        connection: env.nativeConnection,
        namespace: 'salon-test',
        taskQueue: tq,
        workflowBundle: await bundle(),
        activities,
      });
      expect(await worker.runUntil(env.client.workflow.execute('greet', { taskQueue: tq, workflowId: uid('wf'), args: ['local'] }))).to.equal('hello local');
    } finally {
      await env.teardown();
    }
  });
});
