// `npm start` (dist/bin/dev.js) stopped and started again on the same DATA_DIR: the official CLI's
// dev server keeps every run in DATA_DIR/temporal/temporal.db, so a booking's workflow is the same
// run after the restart, and a reminder whose time passed while npm start was stopped goes out once
// on the next start (and nothing sent before is sent again). On the way, what an operator opens: the
// Web UI (its own HTTP API) and `temporal workflow list --query` find the salon's bookings by the
// platform's search attributes.
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Client, Connection } from '@temporalio/client';
import { installedCliPath } from '../../devstack/official-temporal/paths';
import { FolderSmsSender } from '../../integrations/sms/sms-sender';
import { run, type Proc } from '../support/processes';
import { npmStartEnv } from '../support/npm-start';
import { answers200, eventually } from '../support/eventually';
import { workflowIdle } from '../support/workflow-history';
import { officialCli } from '../support/temporal';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const WEEK = [0, 1, 2, 3, 4, 5, 6];
/** how long after its booking the reminder falls due: npm start is stopped before then */
const REMINDER_AFTER_MS = 30_000;

describe('npm start (dist/bin/dev.js) stopped and started again on the same DATA_DIR', function () {
  this.timeout(300_000);
  let dataDir: string;
  let proc: Proc | undefined;

  before(() => {
    officialCli();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-npm-start-restart-'));
  });

  after(() => {
    if (proc && proc.child.exitCode === null) proc.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('when npm start is stopped and started again then every run is kept, the Web UI and the CLI find the salon’s bookings by search attributes, and a reminder due meanwhile is sent once', async () => {
    const {
      ports: { port, temporalPort, uiPort, oidcPort },
      env,
    } = await npmStartEnv(dataDir, { LOG_LEVEL: 'warn', PASSWORD_HASH_ROUNDS: '4' });
    const api = `http://127.0.0.1:${port}/api`;
    const ui = `http://127.0.0.1:${uiPort}`;
    const sms = new FolderSmsSender(path.join(dataDir, 'sms'));
    const start = async () => {
      proc = run('bin/dev.js', env);
      await eventually(
        () => answers200(`${api}/health`),
        () => `npm start to answer /api/health (${proc!.output})`,
        180_000,
      );
    };
    const stop = async () => {
      proc!.child.kill('SIGTERM');
      expect(await proc!.exited, proc!.output).to.equal(0);
    };
    const send = async (method: string, p: string, token: string | undefined, body?: unknown) => {
      const res = await fetch(api + p, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => ({}))) as Json };
    };
    const withTemporal = async <T>(fn: (client: Client) => Promise<T>): Promise<T> => {
      const connection = await Connection.connect({ address: `127.0.0.1:${temporalPort}` });
      try {
        return await fn(new Client({ connection }));
      } finally {
        await connection.close();
      }
    };
    const kindsSentTo = async (phone: string) => (await sms.sentTo(phone)).map((m) => m.meta?.kind);

    await start();
    const login = await send('POST', '/auth/login', undefined, { email: 'eier@salong-nordlys.no', password: 'nordlys-demo' });
    const owner = login.body.data.accessToken as string;
    const tenantId = (await send('GET', '/tenants/me', owner)).body.data.id as string;

    // a customer books on the demo salon's page
    const services = (await send('GET', '/public/tenants/salong-nordlys/services', undefined)).body;
    const serviceId: string = services.data[0].services[0].id;
    const next = await send('POST', '/public/tenants/salong-nordlys/availability/next-available-date', undefined, {
      items: [{ serviceId }],
      fromDate: new Date().toISOString().slice(0, 10),
    });
    const slots = (await send('GET', `/public/tenants/salong-nordlys/availability?serviceId=${serviceId}&date=${next.body.data.date}`, undefined)).body;
    const slot = slots.data.slots[0];
    const booked = await send('POST', '/public/tenants/salong-nordlys/bookings', undefined, {
      startTime: slot.start,
      items: [{ serviceId }],
      customer: { name: 'Ny Kunde', phone: '+4790000002' },
    });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    const online = `booking:${booked.body.data.id}`;

    // the salon's booking in the official Web UI, filtered by the salon (the UI's own HTTP API), and by the CLI
    const listedInUi = async (query: string) => {
      const res = await fetch(`${ui}/api/v1/namespaces/default/workflows?query=${encodeURIComponent(query)}`);
      return ((await res.json()) as Json).executions?.map((e: Json) => e.execution.workflowId) as string[] | undefined;
    };
    const bySalon = `TenantId = "${tenantId}" AND BookingStatus IN ("PENDING", "CONFIRMED")`;
    // npm start seeds the demo salon's next open day too: the salon's open bookings are those and this one
    const listed = await eventually(
      async () => ((await listedInUi(bySalon))?.includes(online) ? listedInUi(bySalon) : undefined),
      "the salon's booking in the Web UI",
    );
    expect(
      listed!.every((id) => id.startsWith('booking:')),
      JSON.stringify(listed),
    ).to.equal(true);
    expect((await listedInUi(`TenantId = "${crypto.randomUUID()}"`)) ?? [], 'another salon has none').to.deep.equal([]);
    const shown = (await (await fetch(`${ui}/api/v1/namespaces/default/workflows/${encodeURIComponent(online)}`)).json()) as Json;
    expect(shown.workflowExecutionInfo.type.name).to.equal('bookingWorkflow');
    expect((await fetch(`${ui}/namespaces/default/workflows/${encodeURIComponent(online)}`)).status).to.equal(200);
    const listedByCli = () =>
      (
        JSON.parse(
          execFileSync(installedCliPath(), ['workflow', 'list', '--address', `127.0.0.1:${temporalPort}`, '--query', bySalon, '--output', 'json'], {
            encoding: 'utf8',
          }),
        ) as Json[]
      )
        .map((w) => w.execution.workflowId as string)
        .sort();
    // visibility is indexed after each change: the demo's own bookings may still be settling, so the two
    // are compared once a read of each gives the same list (with the new booking in it)
    const agreed = await eventually(async () => {
      const [byUi, byCli] = [((await listedInUi(bySalon)) ?? []).sort(), listedByCli()];
      return byUi.includes(online) && JSON.stringify(byUi) === JSON.stringify(byCli) ? byCli : undefined;
    }, 'the same bookings in the Web UI and the CLI');
    expect(agreed).to.include(online);
    const runBefore = await withTemporal(async (c) => (await c.workflow.getHandle(online).describe()).runId);

    // a booking whose reminder falls due while npm start is stopped: the salon open all day and night,
    // its reminder lead chosen so the visit (an hour at most) starts and ends on one local day, and
    // clear of the salon's other bookings (the online one above, the demo's own): the first lead that books
    const leads = Array.from({ length: 14 }, (_, i) => i + 1).filter((h) => {
      const local = new Date(Date.now() + h * 3_600_000 + REMINDER_AFTER_MS).toLocaleTimeString('en-GB', { timeZone: 'Europe/Oslo', hour12: false });
      return local >= '00:30' && local < '22:00';
    });
    const allDay = { startTime: '00:00', endTime: '23:59' };
    const resourceId: string = slot.items[0].resourceId;
    const week = await send('POST', `/resources/${resourceId}/schedules/bulk`, owner, {
      replace: true,
      schedules: WEEK.map((dayOfWeek) => ({ dayOfWeek, ...allDay })),
    });
    expect(week.status, JSON.stringify(week.body)).to.equal(201);
    const reminderDue = Date.now() + REMINDER_AFTER_MS;
    const phone = '+4790000003';
    let staffBooking: { status: number; body: Json } | undefined;
    for (const lead of leads) {
      const settings = await send('PATCH', `/tenants/${tenantId}`, owner, {
        settings: { reminderHoursBefore: lead, businessHours: WEEK.map((dayOfWeek) => ({ dayOfWeek, isOpen: true, slots: [allDay] })) },
      });
      expect(settings.status, JSON.stringify(settings.body)).to.equal(200);
      staffBooking = await send('POST', '/bookings', owner, {
        startTime: new Date(reminderDue + lead * 3_600_000).toISOString(),
        items: [{ serviceId, resourceId }],
        customer: { name: 'Påminnet Kunde', phone },
      });
      if (staffBooking.status !== 409) break;
      expect(staffBooking.body.error.code, JSON.stringify(staffBooking.body)).to.equal('BOOKING_CONFLICT');
    }
    expect(staffBooking!.status, JSON.stringify(staffBooking!.body)).to.equal(201);
    const bookedStaff = staffBooking!;
    const reminded = `booking:${bookedStaff.body.data.id}`;
    // its workflow has told the customer and waits on the reminder's timer
    await eventually(async () => ((await kindsSentTo(phone)).includes('CONFIRMED') ? true : undefined), 'the confirmation SMS');
    await eventually(() => withTemporal((c) => workflowIdle(c, reminded)), 'the booking workflow waiting for its reminder');

    await stop();
    expect(Date.now(), 'npm start stopped before the reminder was due').to.be.below(reminderDue);
    expect(await kindsSentTo(phone), 'nothing reminded before the stop').to.deep.equal(['CONFIRMED']);
    await new Promise((resolve) => setTimeout(resolve, reminderDue - Date.now() + 1000));

    await start();
    const reminder = await eventually(async () => (await sms.sentTo(phone)).find((m) => m.meta?.kind === 'REMINDER'), 'the reminder after the restart', 60_000);
    expect(Date.parse(reminder.sentAt)).to.be.above(reminderDue);
    // once its workflow has nothing left to do, the reminder went out once and nothing was sent again
    await eventually(() => withTemporal((c) => workflowIdle(c, reminded)), 'the reminded booking workflow to settle');
    expect((await kindsSentTo(phone)).sort()).to.deep.equal(['CONFIRMED', 'REMINDER']);
    // the online booking's workflow is the same run, still running
    const after = await withTemporal(async (c) => c.workflow.getHandle(online).describe());
    expect([after.runId, after.status.name]).to.deep.equal([runBefore, 'RUNNING']);
    expect(await listedInUi(bySalon)).to.have.members([...listed!, reminded]);
    await stop();
  });
});
