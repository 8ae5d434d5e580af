// The front desk on `npm start` (dist/bin/dev.js), as a newcomer meets it: the address and the demo
// logins printed, the demo salon's seeded day on the desk for the owner and for a stylist (their
// own column), and a booking made on the booking page's API showing on the open day within 5 seconds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../../devstack/postgres';
import { run, type Proc } from '../../support/processes';
import { answers200, eventually } from '../../support/eventually';
import { closeDesks, dayDrawn, openDesk, signIn } from './support';
import { sharedBrowser } from '../../support/chromium';
import { DEMO_OWNER_EMAIL, DEMO_PASSWORD, DEMO_SLUG } from '../../../domain/demo/demo-salon';
import { addDays } from '../../../domain/time/salon-time.rules';

describe('the front desk on npm start (dist/bin/dev.js, Chromium)', function () {
  this.timeout(240_000);
  let dataDir: string;
  let started: Proc | undefined;
  let port: number;

  before(async function () {
    this.timeout(240_000);
    await sharedBrowser();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-desk-npm-start-'));
    port = await freePort();
    started = run('bin/dev.js', {
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      OIDC_DEV_PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_ROUNDS: '4',
    });
    await eventually(
      () => answers200(`http://127.0.0.1:${port}/api/health`),
      () => `npm start to answer /api/health (${started!.output})`,
      200_000,
    );
    await eventually(
      async () => started!.output.includes('Front desk'),
      () => `npm start to print the front desk (${started!.output})`,
      30_000,
    );
  });

  after(async function () {
    this.timeout(60_000);
    await closeDesks();
    if (started && started.child.exitCode === null) {
      started.child.kill('SIGTERM');
      await started.exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("when npm start has run then it prints the front desk's address and logins, the owner sees the demo salon's seeded day, a stylist sees their own column, and a booking made on the booking page shows within 5 seconds", async function () {
    const output = started!.output;
    const printed = output.match(new RegExp(`Front desk +http://localhost:${port}/desk .*; (\\d+) bookings seeded on (\\d{4}-\\d{2}-\\d{2})\\)`));
    expect(printed, output).to.not.equal(null);
    const [, count, date] = printed!;
    expect(Number(count)).to.be.at.least(10);
    expect(output).to.contain(`owner      ${DEMO_OWNER_EMAIL} / ${DEMO_PASSWORD}`);
    expect(output).to.match(/staff +ingrid@salong-nordlys\.no \/ nordlys-demo/);
    const baseUrl = `http://127.0.0.1:${port}`;

    const owner = await openDesk(this, { baseUrl, name: 'owner' });
    await signIn(owner, { email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD }, `/desk?date=${date}`);
    await dayDrawn(owner.page, date);
    for (const name of ['Ingrid Hansen', 'Lars Johansen', 'Sofie Berg', 'Fargestasjon']) await owner.page.getByRole('heading', { level: 3, name }).waitFor();
    const drawn = await owner.page
      .locator('[data-booking]')
      .evaluateAll((buttons) => new Set(buttons.map((b) => (b as unknown as { dataset: { booking: string } }).dataset.booking)).size);
    expect(drawn).to.equal(Number(count));
    await owner.shot('demo-day');

    const stylist = await openDesk(this, { baseUrl, name: 'stylist' });
    await signIn(stylist, { email: 'ingrid@salong-nordlys.no', password: DEMO_PASSWORD }, `/desk?date=${date}`);
    await dayDrawn(stylist.page, date);
    await stylist.page.getByRole('heading', { level: 3, name: 'Ingrid Hansen' }).waitFor();
    expect(await stylist.page.getByRole('heading', { level: 3, name: 'Lars Johansen' }).count()).to.equal(0);
    await stylist.shot('stylist-day');

    const services = (await (await fetch(`${baseUrl}/api/public/tenants/${DEMO_SLUG}/services`)).json()) as {
      data: { services: { id: string; name: string }[] }[];
    };
    const cut = services.data.flatMap((g) => g.services).find((s) => s.name === 'Herreklipp')!;
    // the seeded day is today: late in the afternoon it has no time left, and the customer books the next day that has
    let day = date;
    let slot: { start: string; items: { resourceId: string }[] } | undefined;
    for (let ahead = 0; ahead < 7 && !slot; ahead++) {
      day = addDays(date, ahead);
      const slots = (await (await fetch(`${baseUrl}/api/public/tenants/${DEMO_SLUG}/availability?serviceId=${cut.id}&date=${day}`)).json()) as {
        data: { slots: { start: string; items: { resourceId: string }[] }[] };
      };
      slot = slots.data.slots.at(-1);
    }
    expect(slot, 'a free time for Herreklipp within a week').to.not.equal(undefined);
    if (day !== date) {
      await owner.page.goto(`${baseUrl}/desk?date=${day}`);
      await dayDrawn(owner.page, day);
    }
    const booked = await fetch(`${baseUrl}/api/public/tenants/${DEMO_SLUG}/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        startTime: slot!.start,
        items: [{ serviceId: cut.id, resourceId: slot!.items[0].resourceId }],
        customer: { name: 'Demo Gjest', phone: '+4790000999' },
      }),
    });
    expect(booked.status, await booked.clone().text()).to.equal(201);
    await owner.page.getByRole('button', { name: /Demo Gjest .*venter på godkjenning/ }).waitFor({ timeout: 5000 });
    await owner.shot('demo-booked');
  });
});
