import { expect } from 'chai';
import crypto from 'node:crypto';
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTimeSkippingEnv } from '../support/temporal';
import { stack } from '../support/stack';
import { createSalon, unique } from '../support/factories';
import { createActivities } from '../../activities';
import { FolderMailer } from '../../integrations/mail/mailer';
import { FolderSmsSender } from '../../integrations/sms/sms-sender';
import { bookingWorkflow, bookingEventSignal } from '../../workflows/booking/booking.workflow';
import { bookingWorkflowId, type BookingEvent } from '../../domain/booking/booking-events.rules';

const DAY = 24 * 60 * 60 * 1000;

describe('booking workflow (time skipping, real database)', function () {
  this.timeout(120_000);
  let env: TestWorkflowEnvironment;
  let sms: FolderSmsSender;
  let taskQueue: string;
  let worker: Worker;
  let running: Promise<void>;

  before(async () => {
    const { platform } = await stack();
    env = await createTimeSkippingEnv();
    sms = new FolderSmsSender(`${platform.deps.config.dataDir}/sms-workflow-test`);
    taskQueue = unique('booking-wf');
    worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowsPath: require.resolve('../../workflows'),
      activities: createActivities({ knex: platform.knex, mailer: new FolderMailer(`${platform.deps.config.dataDir}/mail-workflow-test`), sms }),
    });
    running = worker.run();
  });

  after(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
  });

  /** A salon with one staff member and one service, and a booking starting `startsInMs` from now. */
  async function seedBooking(startsInMs: number, status = 'CONFIRMED') {
    const { platform } = await stack();
    const knex = platform.knex;
    const { tenant } = await createSalon({ name: 'Klipp & Stell' });
    const [service] = await knex('services').insert({ tenantId: tenant.id, name: 'Dameklipp', duration: 60, price: 65000, currency: 'NOK' }).returning('*');
    const [resource] = await knex('resources').insert({ tenantId: tenant.id, name: 'Ola' }).returning('*');
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const [customer] = await knex('customers').insert({ tenantId: tenant.id, name: 'Kari', phone }).returning('*');
    const now = await env.currentTimeMs();
    const start = new Date(now + startsInMs);
    const end = new Date(start.getTime() + 60 * 60 * 1000);
    const [booking] = await knex('bookings')
      .insert({
        tenantId: tenant.id,
        customerId: customer.id,
        resourceId: resource.id,
        startTime: start,
        endTime: end,
        status,
        source: 'ONLINE',
        totalAmount: 65000,
        metadata: { displaySnapshot: { timezone: 'Europe/Oslo', currency: 'NOK', locale: 'nb-NO' } },
      })
      .returning('*');
    await knex('bookingItems').insert({ bookingId: booking.id, tenantId: tenant.id, serviceId: service.id, resourceId: resource.id, startTime: start, endTime: end, duration: 60, price: 65000 });
    return { booking, customer, phone, tenantId: tenant.id, knex };
  }

  async function signal(bookingId: string, tenantId: string, event: BookingEvent) {
    return env.client.workflow.signalWithStart(bookingWorkflow, {
      workflowId: bookingWorkflowId(bookingId),
      taskQueue,
      args: [{ bookingId, tenantId }],
      signal: bookingEventSignal,
      signalArgs: [event],
    });
  }

  async function smsKinds(phone: string): Promise<string[]> {
    return (await sms.sentTo(phone)).map((m) => String(m.meta?.kind));
  }

  it('when a confirmed booking three days ahead is created then it confirms at once, reminds 24 h before, and records the visit once on completion', async () => {
    const { booking, customer, phone, tenantId, knex } = await seedBooking(3 * DAY);
    const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });

    await env.sleep(DAY); // nothing due yet but the confirmation
    expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);
    const confirmation = (await sms.sentTo(phone))[0];
    expect(confirmation.text).to.contain('Hei Kari!').and.contain('Dameklipp hos Ola');

    await env.sleep(1.5 * DAY); // past start - 24 h
    expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'REMINDER']);

    await knex('bookings').where({ id: booking.id }).update({ status: 'COMPLETED', version: 2 });
    await signal(booking.id, tenantId, { type: 'BookingCompleted', entityVersion: 2 });
    await signal(booking.id, tenantId, { type: 'BookingCompleted', entityVersion: 2 }).catch(() => undefined);
    await handle.result();

    const tc = await knex('tenantCustomers').where({ customerId: customer.id }).first();
    expect(tc.visitCount).to.equal(1);
    expect(Number(tc.totalSpent)).to.equal(65000);
  });

  it('when the signal arrives before the change commits then the workflow acts on the committed state', async () => {
    const { booking, phone, tenantId, knex } = await seedBooking(5 * DAY, 'PENDING');
    await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
    // the api signals "confirmed, version 2" before its transaction commits...
    const handle = await signal(booking.id, tenantId, { type: 'BookingConfirmed', entityVersion: 2 });
    await new Promise((r) => setTimeout(r, 300));
    // ...and the commit lands a moment later
    await knex('bookings').where({ id: booking.id }).update({ status: 'CONFIRMED', version: 2 });
    await env.sleep(DAY);
    expect(await smsKinds(phone)).to.deep.equal(['RECEIVED', 'CONFIRMED']);

    await knex('bookings').where({ id: booking.id }).update({ status: 'CANCELLED', version: 3 });
    await signal(booking.id, tenantId, { type: 'BookingCancelled', entityVersion: 3 });
    await handle.result();
    expect(await smsKinds(phone)).to.deep.equal(['RECEIVED', 'CONFIRMED', 'CANCELLED']);
  });

  it('when the change behind a signal never commits then the event is dropped and nothing is sent', async () => {
    const { booking, phone, tenantId } = await seedBooking(5 * DAY, 'PENDING');
    const handle = await signal(booking.id, tenantId, { type: 'BookingConfirmed', entityVersion: 9 });
    await handle.result();
    expect(await smsKinds(phone)).to.deep.equal([]);
  });

  it('when a booking starts within 24 hours then no reminder is scheduled', async () => {
    const { booking, phone, tenantId, knex } = await seedBooking(3 * 60 * 60 * 1000);
    const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
    await env.sleep(2 * 60 * 60 * 1000);
    await knex('bookings').where({ id: booking.id }).update({ status: 'NO_SHOW', version: 2 });
    await signal(booking.id, tenantId, { type: 'BookingMarkedNoShow', entityVersion: 2 });
    await handle.result();
    expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);
  });
});
