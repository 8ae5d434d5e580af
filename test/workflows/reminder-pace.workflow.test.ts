// The send rate of a morning's reminders (docs/rules/reminders.md#the-send-rate), on the official dev
// server in real time: the server, not the time-skipping test server, enforces a task queue's rate.
// Reminders of several salons fall due at the same moment; their SMS leave at the configured pace,
// each once, while the e-mails of the same reminders are not held back.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { stack } from '../support/stack';
import { createSalon, unique } from '../support/factories';
import { startTestTemporal } from '../support/temporal';
import { FolderMailer } from '../../integrations/mail/mailer';
import { FolderSmsSender } from '../../integrations/sms/sms-sender';
import { createActivities } from '../../activities';
import { bookingWorkflow, bookingEventSignal } from '../../workflows/booking/booking.workflow';
import { bookingContract } from '../../domain/booking/booking-events.rules';
import { platformWorkflowBundle } from './support/platform-bundle';
import { createSmsWorker } from '../../composition/worker';
import { insertHourBooking } from './support/hour-booking';

const HOUR = 60 * 60 * 1000;
const SALONS = 3;
const PER_SALON = 4;
const RATE = 2;

describe('booking workflow: the reminders that fall due together go out at the SMS send rate (dev server, real time)', function () {
  this.timeout(120_000);

  it(`when ${SALONS * PER_SALON} reminders of ${SALONS} salons fall due together at ${RATE} SMS a second then each goes once, at most ${RATE} a second after a first burst`, async () => {
    const { platform } = await stack();
    const knex = platform.knex;
    const dir = `${platform.deps.config.dataDir}/${unique('pace')}`;
    const sms = new FolderSmsSender(`${dir}/sms`);
    const mailer = new FolderMailer(`${dir}/mail`);
    const { address } = await startTestTemporal();
    const connection = await NativeConnection.connect({ address });
    const client = new Client({ connection: await Connection.connect({ address }) });
    const taskQueue = unique('pace-wf');
    const activities = createActivities({ knex, mailer, sms });
    const worker = await Worker.create({ connection, taskQueue, workflowBundle: await platformWorkflowBundle(), activities });
    // every reminder is due a few seconds after its workflow starts: the salon reminds an hour before
    const due = Date.now() + 8000;
    const bookings: { id: string; tenantId: string; phone: string }[] = [];
    for (let s = 0; s < SALONS; s++) {
      const { tenant } = await createSalon({ settings: { reminderHoursBefore: 1 } });
      const [service] = await knex('services').insert({ tenantId: tenant.id, name: 'Dameklipp', duration: 60, price: 65000, currency: 'NOK' }).returning('*');
      for (let k = 0; k < PER_SALON; k++) {
        const [resource] = await knex('resources')
          .insert({ tenantId: tenant.id, name: `Ola ${k}` })
          .returning('*');
        const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
        const [customer] = await knex('customers')
          .insert({ tenantId: tenant.id, name: 'Kari', phone, email: `${unique('kari')}@example.test` })
          .returning('*');
        const start = new Date(due + HOUR);
        const booking = await insertHourBooking(knex, { tenantId: tenant.id, serviceId: service.id, resourceId: resource.id, customerId: customer.id, start });
        bookings.push({ id: booking.id, tenantId: tenant.id, phone });
      }
    }
    const ids = bookings.map((b) => b.id);
    const reminderSms = () =>
      knex('booking_notifications')
        .whereIn('bookingId', ids)
        .where({ channel: 'SMS' })
        .whereLike('dedupeKey', 'REMINDER:%')
        .whereNotNull('sentAt')
        .select('bookingId', 'sentAt');
    const smsWorker = await createSmsWorker({ connection, taskQueue, activities, ratePerSecond: RATE });
    const handles = await smsWorker.runUntil(
      worker.runUntil(async () => {
        const started = await Promise.all(
          bookings.map((b) =>
            client.workflow.signalWithStart(bookingWorkflow, {
              workflowId: bookingContract.workflowId(b.id),
              taskQueue,
              args: [{ bookingId: b.id, tenantId: b.tenantId }],
              signal: bookingEventSignal,
              signalArgs: [{ type: 'BookingCreated', entityVersion: 1 }],
            }),
          ),
        );
        for (const until = Date.now() + 60_000; (await reminderSms()).length < bookings.length && Date.now() < until;)
          await new Promise((r) => setTimeout(r, 250));
        return started;
      }),
    );
    try {
      const sent = await reminderSms();
      expect(sent, 'every reminder SMS sent').to.have.length(bookings.length);
      for (const b of bookings) {
        const kinds = (await sms.sentTo(b.phone)).map((m) => String(m.meta?.kind));
        expect(
          kinds.filter((k) => k === 'REMINDER'),
          `the reminders to ${b.phone}`,
        ).to.have.length(1);
      }
      const times = sent.map((r) => new Date(r.sentAt).getTime()).sort((a, b) => a - b);
      // the server's limit is a token bucket: a burst of about two seconds' worth may go at once, and
      // from then on no more than RATE a second, so the k-th SMS leaves (k - burst) / RATE seconds after the first at the soonest
      const after = times.map((t) => t - times[0]);
      const burst = 2 * RATE + 1;
      for (const [k, ms] of after.entries())
        expect(ms, `the SMS ${k} after the first (all: ${JSON.stringify(after)})`).to.be.at.least(((k - burst) / RATE) * 1000);
      // the last is SMS number length - 1 after the first: the same bound as each one's above
      expect(after[after.length - 1], 'the first to the last reminder SMS').to.be.at.least(((bookings.length - 1 - burst) / RATE) * 1000);
      // the e-mails of the same reminders are not paced
      const mails = await knex('booking_notifications')
        .whereIn('bookingId', ids)
        .where({ channel: 'EMAIL' })
        .whereLike('dedupeKey', 'REMINDER:%')
        .whereNotNull('sentAt');
      expect(mails).to.have.length(bookings.length);
    } finally {
      await Promise.all(handles.map((h) => h.terminate('test over').catch(() => undefined)));
      await connection.close();
      await client.connection.close();
    }
  });
});
