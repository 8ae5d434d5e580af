// Point 5: the dev server's read-only web UI, driven in a real headless browser (Debian's chromium
// through playwright-core): the workflow list with status and type, filtered by a visibility
// query, one run's history with decoded payloads, its pending activity and timer, and a hostile
// workflow id shown as text. Also the launcher's --ui-port / --headless.
import { spawn } from 'node:child_process';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { DEFAULT_UI_PORT, parseLauncherArgs } from '../src/launcher-args';
import { ensureLauncherBuilt } from './support/launcher';
import { launchChromium, type ChromiumSession } from './support/chromium';
import { freePort, uid, useEnv, waitFor } from './harness';

const HOSTILE_ID = `<img src=x onerror="window.__pwned=1">"><script>window.__pwned=2</script>&amp;`;

describe('devserver web UI', function () {
  this.timeout(120_000);
  const env = useEnv({}, { uiPort: 0 });
  let browser: ChromiumSession;
  let page: Page;

  before(async function () {
    this.timeout(180_000);
    browser = await launchChromium();
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
  });

  const rowsOf = async (p: Page) => p.locator('#workflows tbody tr').count();

  it('lists workflows with status and type, filters by a visibility query, and shows a run with decoded payloads, pending activity and timer', async () => {
    const taskQueue = uid('ui');
    const pendingId = uid('ui-pending');
    const greetId = uid('ui-greet');
    await env.withWorker(taskQueue, async () => {
      expect(await env.client.workflow.execute('greet', { taskQueue, workflowId: greetId, args: ['browser'] })).to.equal('hello browser');
      await env.client.workflow.start('timerAndActivityElsewhere', {
        taskQueue,
        workflowId: pendingId,
        args: [uid('nobody'), { note: '<b>bold</b> & "quoted"', n: 42 }, new Uint8Array([0, 1, 2, 255])],
      });
      await env.client.workflow.start('waitsForever', { taskQueue, workflowId: HOSTILE_ID });
      // The pending run has scheduled its activity and started its timer.
      await waitFor(async () => {
        const run = env.server.engine.registry.currentRun('default', pendingId);
        return !!run && run.timers.size === 1 && run.activities.size === 1;
      });

      // The list: every workflow with its status and type.
      const root = await page.goto(env.server.uiUrl!);
      expect(root!.status()).to.equal(200);
      expect(page.url()).to.equal(`${env.server.uiUrl}/namespaces/default/workflows`);
      expect(await rowsOf(page)).to.equal(3);
      const greetRow = page.locator('#workflows tbody tr', { hasText: greetId });
      expect(await greetRow.locator('.status').innerText()).to.equal('Completed');
      expect(await greetRow.innerText()).to.contain('greet');
      const pendingRow = page.locator('#workflows tbody tr', { hasText: pendingId });
      expect(await pendingRow.locator('.status').innerText()).to.equal('Running');
      expect(await pendingRow.innerText()).to.contain('timerAndActivityElsewhere');

      // Filtered by the engine's own visibility query.
      await page.fill('input[name=query]', 'WorkflowType = "timerAndActivityElsewhere" AND ExecutionStatus = "Running"');
      await page.click('form.filter button[type=submit]');
      await page.waitForURL(/\?query=/);
      expect(await rowsOf(page)).to.equal(1);
      expect(await page.locator('#count').innerText()).to.equal('1 workflow');
      expect(await page.inputValue('input[name=query]')).to.equal('WorkflowType = "timerAndActivityElsewhere" AND ExecutionStatus = "Running"');
      await page.fill('input[name=query]', 'ExecutionStatus = "Completed"');
      await page.click('form.filter button[type=submit]');
      await page.waitForURL(/Completed/);
      expect(await page.locator('#workflows tbody tr').innerText()).to.contain(greetId);
      // A query the engine cannot parse is named, not a crash.
      const bad = await page.goto(`${env.server.uiUrl}/namespaces/default/workflows?query=${encodeURIComponent('WorkflowType = ')}`);
      expect(bad!.status()).to.equal(400);
      expect(await page.locator('#query-error').innerText()).to.match(/invalid query/);

      // Into the run.
      await page.goto(`${env.server.uiUrl}/namespaces/default/workflows?query=${encodeURIComponent(`WorkflowId = "${pendingId}"`)}`);
      await page.click(`#workflows a:text-is("${pendingId}")`);
      await page.waitForSelector('#history');
      expect(await page.locator('#workflow-id').innerText()).to.equal(pendingId);
      expect(await page.locator('#workflow-type').innerText()).to.equal('timerAndActivityElsewhere');
      expect(await page.locator('#status').innerText()).to.equal('Running');
      const activity = await page.locator('#pending-activities tbody tr').innerText();
      expect(activity).to.contain('echo').and.to.contain('Scheduled');
      expect(await page.locator('#pending-timers tbody tr').count()).to.equal(1);
      const run = env.server.engine.registry.currentRun('default', pendingId)!;
      const [timerId, timer] = [...run.timers][0];
      const timerRow = await page.locator('#pending-timers tbody tr').innerText();
      expect(timerRow).to.contain(timerId).and.to.contain(new Date(timer.due).toISOString().slice(0, 19).replace('T', ' '));
      expect(await page.locator('#search-attributes').innerText()).to.contain('BuildIds');
      const types = await page.locator('#history tr.event').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-type')));
      expect(types).to.include.members(['WorkflowExecutionStarted', 'WorkflowTaskCompleted', 'ActivityTaskScheduled', 'TimerStarted']);
      // The start event's input: JSON decoded (and shown as text), binary as bytes.
      const started = page.locator('#history tr.event[data-event-type="WorkflowExecutionStarted"]');
      const json = await started.locator('pre.json').allInnerTexts();
      expect(json.some((t) => t.includes('"note": "<b>bold</b> & \\"quoted\\""') && t.includes('"n": 42'))).to.equal(true);
      expect(await started.locator('b').count()).to.equal(0);
      const binary = await started.locator('.binary').innerText();
      expect(binary).to.contain('binary/plain').and.to.contain('4 bytes').and.to.contain('00 01 02 ff');
      const scheduled = await page.locator('#history tr.event[data-event-type="ActivityTaskScheduled"]').innerText();
      expect(scheduled).to.contain('echo').and.to.contain('nobody polls this queue');

      // The hostile workflow id is text everywhere: in the list, the link and the run's page.
      await page.goto(env.server.uiUrl!);
      await page.getByRole('link', { name: HOSTILE_ID, exact: true }).click();
      await page.waitForSelector('#history');
      expect(await page.locator('#workflow-id').innerText()).to.equal(HOSTILE_ID);
      expect(await page.locator('main img').count()).to.equal(0);
      expect(await page.locator('script').count()).to.equal(0);
      expect(await page.evaluate('typeof window.__pwned')).to.equal('undefined');

      await env.client.workflow.getHandle(HOSTILE_ID).terminate('done');
      await env.client.workflow.getHandle(pendingId).terminate('done');
    });
  });

  it('lists standalone activities with their status, filters them, and shows one with its decoded input and outcome', async () => {
    const taskQueue = uid('ui-acts');
    const doneId = uid('ui-done');
    const pausedId = uid('ui-paused');
    await env.withWorker(taskQueue, async () => {
      expect(
        await env.client.activity.execute('echo', { id: doneId, taskQueue, startToCloseTimeout: '10s', args: [{ note: '<i>decoded</i>' }] }),
      ).to.deep.equal({ note: '<i>decoded</i>' });
    });
    const paused = await env.client.activity.start('echo', { id: pausedId, taskQueue: uid('nobody'), scheduleToCloseTimeout: '1 minute', args: ['waits'] });
    await paused.pause({ reason: 'looked at in the UI' });

    await page.goto(`${env.server.uiUrl}/namespaces/default/workflows`);
    await page.click('p.tabs a:text-is("Standalone activities")');
    await page.waitForSelector('#activities');
    const doneRow = page.locator('#activities tbody tr', { hasText: doneId });
    expect(await doneRow.locator('.status').innerText()).to.equal('Completed');
    expect(await page.locator('#activities tbody tr', { hasText: pausedId }).locator('.status').innerText()).to.equal('Paused');

    await page.fill('input[name=query]', `ActivityId = "${pausedId}"`);
    await page.click('form.filter button[type=submit]');
    await page.waitForURL(/\?query=/);
    expect(await page.locator('#activities tbody tr').count()).to.equal(1);
    expect(await page.locator('#count').innerText()).to.equal('1 activity');
    const bad = await page.goto(`${env.server.uiUrl}/namespaces/default/activities?query=${encodeURIComponent('ActivityId = ')}`);
    expect(bad!.status()).to.equal(400);
    expect(await page.locator('#query-error').innerText()).to.match(/invalid query/);

    await page.goto(`${env.server.uiUrl}/namespaces/default/activities/${encodeURIComponent(doneId)}`);
    await page.waitForSelector('#outcome');
    expect(page.url()).to.match(new RegExp(`/activities/${doneId}/[0-9a-f-]{36}$`));
    expect(await page.locator('#activity-id').innerText()).to.equal(doneId);
    expect(await page.locator('#status').innerText()).to.equal('Completed');
    expect(await page.locator('#outcome pre.json').innerText()).to.contain('"note": "<i>decoded</i>"');
    expect(await page.locator('#input pre.json').innerText()).to.contain('<i>decoded</i>');
    expect(await page.locator('main i').count()).to.equal(0);

    await page.goto(`${env.server.uiUrl}/namespaces/default/activities/${encodeURIComponent(pausedId)}/${paused.runId}`);
    expect(await page.locator('#status').innerText()).to.equal('Paused');
    expect(await page.locator('#run-state').innerText()).to.equal('Paused');
    expect(await page.locator('#paused').innerText()).to.contain('looked at in the UI');
    await paused.terminate('done');
    expect((await fetch(`${env.server.uiUrl}/namespaces/default/activities/no-such-activity`)).status).to.equal(404);
  });

  it('is read-only and answers unknown runs with 404', async () => {
    const base = env.server.uiUrl!;
    const post = await fetch(`${base}/namespaces/default/workflows`, { method: 'POST' });
    expect(post.status).to.equal(405);
    expect(post.headers.get('allow')).to.equal('GET, HEAD');
    const missing = await fetch(`${base}/namespaces/default/workflows/no-such-workflow/no-such-run`);
    expect(missing.status).to.equal(404);
    expect(await missing.text()).to.contain('no-such-workflow');
    expect((await fetch(`${base}/namespaces/nope/workflows`)).status).to.equal(404);
    const ok = await fetch(base);
    expect(ok.headers.get('content-security-policy')).to.contain("default-src 'none'");
  });

  describe('launcher', () => {
    it('serves the UI on --ui-port (8233 by default) in the dev-server shape, and none with --headless or as the test server', () => {
      expect(parseLauncherArgs(['server', 'start-dev', '--port', '7999']).uiPort)
        .to.equal(DEFAULT_UI_PORT)
        .and.to.equal(8233);
      expect(parseLauncherArgs(['server', 'start-dev', '--port', '7999', '--ui-port', '9001']).uiPort).to.equal(9001);
      expect(parseLauncherArgs(['server', 'start-dev', '--port', '7999', '--headless']).uiPort).to.equal(undefined);
      expect(parseLauncherArgs(['7998']).uiPort).to.equal(undefined);
      expect(() => parseLauncherArgs(['server', 'start-dev', '--ui-port', 'x'])).to.throw(/--ui-port/);
    });

    it('prints the UI address and serves it', async function () {
      this.timeout(40_000);
      const launcher = ensureLauncherBuilt();
      const [port, uiPort] = [await freePort(), await freePort()];
      const child = spawn(launcher, ['server', 'start-dev', '--port', String(port), '--ui-port', String(uiPort)], { stdio: ['ignore', 'ignore', 'pipe'] });
      let output = '';
      child.stderr!.on('data', (d: Buffer) => {
        output += d.toString();
      });
      try {
        await waitFor(async () => output.includes(`web UI on http://127.0.0.1:${uiPort}`), 15_000, 50);
        const res = await fetch(`http://127.0.0.1:${uiPort}/namespaces/default/workflows`);
        expect(res.status).to.equal(200);
        expect(await res.text()).to.contain('Workflows');
      } finally {
        child.kill('SIGKILL');
      }
    });
  });
});
