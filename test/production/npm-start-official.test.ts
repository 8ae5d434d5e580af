// `npm start` (dist/bin/dev.js) with the official Temporal CLI installed (`npm run temporal:install`,
// which the test runs when it is missing): the CLI's dev server is the platform's Temporal, its runs
// kept in DATA_DIR (a restart keeps a booking's workflow), the official Web UI on TEMPORAL_UI_PORT
// showing the booking's workflow, and the banner naming the server that runs.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../devstack/postgres';
import { ensureOfficialTemporal } from '../../devstack/official-temporal/install';
import { TEMPORAL_PINS } from '../../devstack/official-temporal/paths';
import { run, type Proc } from '../support/processes';
import { answers200, eventually } from '../support/eventually';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

describe('npm start (dist/bin/dev.js) on the official Temporal CLI', function () {
  this.timeout(240_000);
  let dataDir: string;
  let proc: Proc | undefined;

  before(function () {
    this.timeout(300_000);
    ensureOfficialTemporal();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-npm-start-official-'));
  });

  after(() => {
    if (proc && proc.child.exitCode === null) proc.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("when the CLI is installed then npm start runs it with its runs in DATA_DIR and the Web UI showing a booking's workflow, and a restart keeps the workflow", async () => {
    const [port, temporalPort, uiPort, oidcPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    // TEMPORAL_ENGINE unset: npm start takes the checkout's installed CLI by itself
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      OIDC_DEV_PORT: String(oidcPort),
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_ROUNDS: '4',
    };
    const api = `http://127.0.0.1:${port}/api`;
    const ui = `http://127.0.0.1:${uiPort}`;
    proc = run('bin/dev.js', env);
    await eventually(
      () => answers200(`${api}/health`),
      () => `npm start to answer /api/health (${proc!.output})`,
      180_000,
    );
    const dbFile = path.join(dataDir, 'temporal', 'temporal.db');
    await eventually(
      async () => proc!.output.includes('Salon platform is running'),
      () => `the banner (${proc!.output})`,
      10_000,
    );
    expect(proc.output).to.contain(
      `Temporal     127.0.0.1:${temporalPort} (official temporal CLI ${TEMPORAL_PINS.cli} (Server ${TEMPORAL_PINS.server}, UI ${TEMPORAL_PINS.ui}), runs kept in ${dbFile})`,
    );
    expect(proc.output).to.contain(`Temporal UI  ${ui}`);
    expect(fs.existsSync(dbFile), 'the runs are kept in DATA_DIR/temporal').to.equal(true);

    // a customer books on the demo salon's page (its API)
    const services = (await (await fetch(`${api}/public/tenants/salong-nordlys/services`)).json()) as Json;
    const serviceId: string = services.data[0].services[0].id;
    const next = (await (
      await fetch(`${api}/public/tenants/salong-nordlys/availability/next-available-date`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ items: [{ serviceId }], fromDate: new Date().toISOString().slice(0, 10) }),
      })
    ).json()) as Json;
    const slots = (await (await fetch(`${api}/public/tenants/salong-nordlys/availability?serviceId=${serviceId}&date=${next.data.date}`)).json()) as Json;
    const booked = await fetch(`${api}/public/tenants/salong-nordlys/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ startTime: slots.data.slots[0].start, items: [{ serviceId }], customer: { name: 'Ny Kunde', phone: '+4790000002' } }),
    });
    expect(booked.status, await booked.clone().text()).to.equal(201);
    const workflowId = `booking:${((await booked.json()) as Json).data.id}`;

    // the official Web UI: its page for the workflow, and the list it shows (its own HTTP API)
    const listed = async () => {
      const res = await fetch(`${ui}/api/v1/namespaces/default/workflows?query=${encodeURIComponent(`WorkflowId = "${workflowId}"`)}`);
      const body = (await res.json()) as Json;
      return body.executions?.length ? body.executions[0] : undefined;
    };
    const shown = await eventually(listed, "the booking's workflow in the Web UI", 30_000);
    expect([shown.type.name, shown.status, shown.taskQueue]).to.deep.equal(['bookingWorkflow', 'WORKFLOW_EXECUTION_STATUS_RUNNING', 'salon']);
    const page = await fetch(`${ui}/namespaces/default/workflows/${encodeURIComponent(workflowId)}`);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.contain('<html');

    proc.child.kill('SIGTERM');
    expect(await proc.exited, proc.output).to.equal(0);
    expect(await accepts(temporalPort), 'the Temporal port is closed').to.equal(false);
    expect(await accepts(uiPort), 'the Web UI port is closed').to.equal(false);

    // started again on the same DATA_DIR: the workflow is still there, running
    proc = run('bin/dev.js', env);
    await eventually(
      () => answers200(`${api}/health`),
      () => `npm start to answer again (${proc!.output})`,
      180_000,
    );
    const again = await eventually(listed, "the booking's workflow after the restart", 30_000);
    expect([again.execution.runId, again.status]).to.deep.equal([shown.execution.runId, 'WORKFLOW_EXECUTION_STATUS_RUNNING']);
    proc.child.kill('SIGTERM');
    expect(await proc.exited, proc.output).to.equal(0);
  });
});
