// The booking's timeline (docs/rules/booking.md#statuses) on the time-skipping test server and the real database: each test
// runs its own worker on its own task queue, and its own booking (so its own workflow id).
import { expect } from 'chai';
import crypto from 'node:crypto';
import { DefaultLogger, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { platformWorkflowBundle } from './support/platform-bundle';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandleWithSignaledRunId } from '@temporalio/client';
import { createTimeSkippingEnv } from '../support/temporal';
import { stack } from '../support/stack';
import { createSalon, unique } from '../support/factories';
import { createActivities } from '../../activities';
import { FolderMailer, type MailMessage, type Mailer } from '../../integrations/mail/mailer';
import { FolderSmsSender } from '../../integrations/sms/sms-sender';
import { bookingWorkflow, bookingEventSignal } from '../../workflows/booking/booking.workflow';
import { bookingWorkflowId, type BookingEvent } from '../../domain/booking/booking-events.rules';

type Signal = (bookingId: string, tenantId: string, event: BookingEvent) => Promise<WorkflowHandleWithSignaledRunId<typeof bookingWorkflow>>;

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A mail gateway that refuses the first `failures` messages, then delivers to the folder outbox. */
class FlakyMailer implements Mailer {
  attempts = 0;
  constructor(
    private readonly delivered: FolderMailer,
    private readonly failures: number,
  ) {}

  async send(message: MailMessage): Promise<void> {
    this.attempts += 1;
    if (this.attempts <= this.failures) throw new Error(`smtp: 451 try again later (attempt ${this.attempts})`);
    await this.delivered.send(message);
  }
}

describe('booking workflow (time skipping, real database)', function () {
  this.timeout(120_000);
  let env: TestWorkflowEnvironment;
  let workflowBundle: WorkflowBundleWithSourceMap;
  let sms: FolderSmsSender;
  let mail: FolderMailer;

  before(async () => {
    const { platform } = await stack();
    env = await createTimeSkippingEnv();
    workflowBundle = await platformWorkflowBundle();
    sms = new FolderSmsSender(`${platform.deps.config.dataDir}/sms-workflow-test`);
    mail = new FolderMailer(`${platform.deps.config.dataDir}/mail-workflow-test`);
  });

  after(async () => {
    await env?.teardown();
  });

  /**
   * Runs `scenario` with a worker of its own, on a task queue of its own. `signal` signals-with-start
   * the booking's workflow on that queue.
   */
  async function withWorker(scenario: (signal: Signal) => Promise<void>, options: { mailer?: Mailer } = {}): Promise<void> {
    const { platform } = await stack();
    const taskQueue = unique('booking-wf');
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle,
      activities: createActivities({ knex: platform.knex, mailer: options.mailer ?? mail, sms }),
    });
    const signal: Signal = (bookingId, tenantId, event) =>
      env.client.workflow.signalWithStart(bookingWorkflow, {
        workflowId: bookingWorkflowId(bookingId),
        taskQueue,
        args: [{ bookingId, tenantId }],
        signal: bookingEventSignal,
        signalArgs: [event],
      });
    await worker.runUntil(scenario(signal));
  }

  /** A salon with one staff member and one service, and a booking starting `startsInMs` from now. */
  async function seedBooking(startsInMs: number, status = 'CONFIRMED', contact: { email?: string } = {}) {
    const { platform } = await stack();
    const knex = platform.knex;
    const { tenant } = await createSalon({ name: 'Klipp & Stell' });
    const [service] = await knex('services').insert({ tenantId: tenant.id, name: 'Dameklipp', duration: 60, price: 65000, currency: 'NOK' }).returning('*');
    const [resource] = await knex('resources').insert({ tenantId: tenant.id, name: 'Ola' }).returning('*');
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const [customer] = await knex('customers').insert({ tenantId: tenant.id, name: 'Kari', phone, email: contact.email }).returning('*');
    const now = await env.currentTimeMs();
    const start = new Date(now + startsInMs);
    const end = new Date(start.getTime() + HOUR);
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
    return { booking, customer, phone, tenantId: tenant.id, knex, start };
  }

  async function smsKinds(phone: string): Promise<string[]> {
    return (await sms.sentTo(phone)).map((m) => String(m.meta?.kind));
  }

  describe('created -> confirmed -> reminded -> completed', () => {
    it('when a confirmed booking three days ahead is created then it confirms at once, reminds 24 h before, and records the visit once on completion', () =>
      withWorker(async (signal) => {
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
      }));

    it('when the signal arrives before the change commits then the workflow acts on the committed state', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId, knex } = await seedBooking(5 * DAY, 'PENDING');
        await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        // the api signals "confirmed, version 2" before its transaction commits...
        const handle = await signal(booking.id, tenantId, { type: 'BookingConfirmed', entityVersion: 2 });
        await env.sleep(300);
        // ...and the commit lands a moment later
        await knex('bookings').where({ id: booking.id }).update({ status: 'CONFIRMED', version: 2 });
        await env.sleep(DAY);
        expect(await smsKinds(phone)).to.deep.equal(['RECEIVED', 'CONFIRMED']);

        await knex('bookings').where({ id: booking.id }).update({ status: 'CANCELLED', version: 3 });
        await signal(booking.id, tenantId, { type: 'BookingCancelled', entityVersion: 3 });
        await handle.result();
        expect(await smsKinds(phone)).to.deep.equal(['RECEIVED', 'CONFIRMED', 'CANCELLED']);
      }));

    it('when the change behind a signal never commits then the event is dropped and nothing is sent', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId } = await seedBooking(5 * DAY, 'PENDING');
        const handle = await signal(booking.id, tenantId, { type: 'BookingConfirmed', entityVersion: 9 });
        await handle.result();
        expect(await smsKinds(phone)).to.deep.equal([]);
      }));
  });

  describe('the reminder', () => {
    it('when a booking starts within 24 hours then no reminder is scheduled', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId, knex } = await seedBooking(3 * HOUR);
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await env.sleep(2 * HOUR);
        await knex('bookings').where({ id: booking.id }).update({ status: 'NO_SHOW', version: 2 });
        await signal(booking.id, tenantId, { type: 'BookingMarkedNoShow', entityVersion: 2 });
        await handle.result();
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);
      }));

    it('when a booking is three days ahead then the reminder goes out exactly once, 24 h before the start', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId } = await seedBooking(3 * DAY);
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });

        await env.sleep(2 * DAY - 5 * MINUTE); // five minutes before start - 24 h
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);
        await env.sleep(10 * MINUTE); // five minutes after
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'REMINDER']);
        await env.sleep(2 * DAY); // past the start: nothing more
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'REMINDER']);
        await handle.terminate('test over');
      }));

    it('when a booking is rescheduled then the customer is told and the reminder moves with the start', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId, knex, start } = await seedBooking(3 * DAY);
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await env.sleep(DAY);

        const moved = new Date(start.getTime() + 2 * DAY); // now four days ahead
        await knex('bookings').where({ id: booking.id }).update({ startTime: moved, endTime: new Date(moved.getTime() + HOUR), version: 2 });
        await signal(booking.id, tenantId, { type: 'BookingRescheduled', entityVersion: 2 });
        await env.sleep(DAY + HOUR); // past the old start - 24 h
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'RESCHEDULED']);

        await env.sleep(2 * DAY); // past the new start - 24 h
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'RESCHEDULED', 'REMINDER']);
        const reminder = (await sms.sentTo(phone))[2];
        expect(reminder.text).to.contain('kl.');
        await handle.terminate('test over');
      }));

    it('when a booking is cancelled before its reminder then no reminder is sent', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId, knex } = await seedBooking(3 * DAY);
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await env.sleep(DAY);
        await knex('bookings').where({ id: booking.id }).update({ status: 'CANCELLED', version: 2 });
        await signal(booking.id, tenantId, { type: 'BookingCancelledBySalon', entityVersion: 2 });
        await handle.result();
        await env.sleep(3 * DAY); // past the start
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'CANCELLED']);
      }));
  });

  describe('a past visit recorded after the fact', () => {
    it('when the salon records a past visit and then cancels it then the customer is told nothing; moved back ahead, the customer hears of it', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId, knex } = await seedBooking(-2 * DAY);
        const flagged = { ...booking.metadata, recordedAfterTheFact: true };
        await knex('bookings').where({ id: booking.id }).update({ metadata: flagged });
        const handle = await signal(booking.id, tenantId, { type: 'BookingRecordedAfterTheFact', entityVersion: 1 });
        await env.sleep(HOUR);
        expect(await smsKinds(phone)).to.deep.equal([]);

        const ahead = new Date((await env.currentTimeMs()) + 3 * DAY);
        await knex('bookings').where({ id: booking.id }).update({ startTime: ahead, endTime: new Date(ahead.getTime() + HOUR), metadata: booking.metadata, version: 2 });
        await signal(booking.id, tenantId, { type: 'BookingRescheduled', entityVersion: 2 });
        await env.sleep(HOUR);
        expect(await smsKinds(phone)).to.deep.equal(['RESCHEDULED']);
        await handle.terminate('test over');
      }));

    it('when a past visit recorded after the fact is cancelled by the salon then no cancellation message is sent', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId, knex } = await seedBooking(-DAY);
        await knex('bookings').where({ id: booking.id }).update({ metadata: { ...booking.metadata, recordedAfterTheFact: true } });
        const handle = await signal(booking.id, tenantId, { type: 'BookingRecordedAfterTheFact', entityVersion: 1 });
        await knex('bookings').where({ id: booking.id }).update({ status: 'CANCELLED', version: 2 });
        await signal(booking.id, tenantId, { type: 'BookingCancelledBySalon', entityVersion: 2 });
        await handle.result();
        expect(await smsKinds(phone)).to.deep.equal([]);
      }));
  });

  describe('completion', () => {
    it('when a completed booking is signalled again, even after its workflow ended, then the visit is recorded once', () =>
      withWorker(async (signal) => {
        const { booking, customer, tenantId, knex } = await seedBooking(2 * DAY);
        const first = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await env.sleep(HOUR);
        await knex('bookings').where({ id: booking.id }).update({ status: 'COMPLETED', version: 2 });
        await signal(booking.id, tenantId, { type: 'BookingCompleted', entityVersion: 2 });
        await first.result();

        // a redelivered signal starts a new run of booking:<id>, which must not count the visit again
        const second = await signal(booking.id, tenantId, { type: 'BookingCompleted', entityVersion: 2 });
        expect(second.signaledRunId).to.not.equal(first.signaledRunId);
        await env.client.workflow.getHandle(bookingWorkflowId(booking.id), second.signaledRunId).result();

        const tc = await knex('tenantCustomers').where({ customerId: customer.id }).first();
        expect(tc.visitCount).to.equal(1);
        expect(await knex('tenantCustomerVisits').where({ bookingId: booking.id }).count('* as n').first()).to.deep.equal({ n: 1 });
      }));
  });

  describe('each channel is its own idempotent delivery', () => {
    it('when the e-mail gateway fails three times then the e-mail is retried on its own: one SMS and one e-mail in all', async () => {
      const email = `${unique('kari')}@example.no`;
      const flaky = new FlakyMailer(mail, 3);
      await withWorker(
        async (signal) => {
          const { booking, phone, tenantId, knex } = await seedBooking(3 * DAY, 'CONFIRMED', { email });
          const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
          await env.sleep(HOUR); // 30 s, 2 min and 10 min later the e-mail is tried again

          expect(flaky.attempts).to.equal(4);
          expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);
          expect((await mail.sentTo(email)).map((m) => m.meta?.kind)).to.deep.equal(['CONFIRMED']);
          const rows = await knex('bookingNotifications').where({ bookingId: booking.id }).orderBy('channel');
          expect(rows.map((r) => [r.channel, r.dedupeKey, r.sentAt !== null])).to.deep.equal([
            ['EMAIL', 'CONFIRMED', true],
            ['SMS', 'CONFIRMED', true],
          ]);
          await handle.terminate('test over');
        },
        { mailer: flaky },
      );
    });

    it('when the e-mail gateway never accepts then the SMS carries on undelayed, and the e-mail is given up after 10 attempts', async () => {
      const email = `${unique('kari')}@example.no`;
      const down = new FlakyMailer(mail, Number.POSITIVE_INFINITY);
      await withWorker(
        async (signal) => {
          const { booking, phone, tenantId, knex } = await seedBooking(3 * DAY, 'CONFIRMED', { email });
          const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
          await env.sleep(HOUR); // the e-mail confirmation is still being retried (attempt 5 is due in 12 min)
          expect(down.attempts).to.equal(4);
          expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);

          await knex('bookings').where({ id: booking.id }).update({ status: 'CANCELLED', version: 2 });
          await signal(booking.id, tenantId, { type: 'BookingCancelled', entityVersion: 2 });
          await env.sleep(MINUTE);
          expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'CANCELLED']);

          await handle.result(); // both e-mails given up: 30 s + 2 min + 10 min + 6 x 1 h each
          expect(down.attempts).to.equal(20);
          expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'CANCELLED']);
          const emailRows = await knex('bookingNotifications').where({ bookingId: booking.id, channel: 'EMAIL' });
          expect(emailRows.map((r) => r.sentAt)).to.deep.equal([null, null]);
        },
        { mailer: down },
      );
    });
  });
});
