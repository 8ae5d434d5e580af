// The booking's timeline (docs/rules/booking.md#statuses) on the time-skipping test server and the real database: each test
// runs its own worker on its own task queue, and its own booking (so its own workflow id).
import { expect } from 'chai';
import crypto from 'node:crypto';
import { stack } from '../support/stack';
import { createSalon, unique } from '../support/factories';
import type { MailMessage, Mailer } from '../../domain/notifications/mailer';
import type { SmsSender } from '../../domain/notifications/sms-sender';
import { FolderMailer } from '../../integrations/mail/mailer';
import { FolderSmsSender } from '../../integrations/sms/sms-sender';
import { bookingContract, type BookingEvent } from '../../domain/booking/booking-events.rules';
import { withOutboxes, withTimeSkipping } from './support/time-skipping';
import { withBookingWorker, type BookingSignal } from './support/booking-worker';
import { eventually } from '../support/eventually';
import { insertHourBooking } from './support/hour-booking';

type Signal = BookingSignal;

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

/** An SMS gateway that refuses every message. */
class DownSmsGateway implements SmsSender {
  attempts = 0;
  async send(): Promise<void> {
    this.attempts += 1;
    throw new Error(`sms gateway: 503 (attempt ${this.attempts})`);
  }
}

/** An SMS gateway that refuses every message while `down`, and delivers to the folder outbox otherwise. */
class SwitchableSms implements SmsSender {
  down = false;
  refused = 0;
  constructor(private readonly delivered: FolderSmsSender) {}

  async send(message: Parameters<SmsSender['send']>[0]): Promise<void> {
    if (this.down) {
      this.refused += 1;
      throw new Error('sms gateway: 503 (down)');
    }
    await this.delivered.send(message);
  }
}

describe('booking workflow (time skipping, real database)', function () {
  this.timeout(120_000);
  const t = withTimeSkipping();
  let sms: FolderSmsSender;
  let mail: FolderMailer;

  withOutboxes('workflow-test', (o) => ({ sms, mail } = o));

  /** Runs `scenario` with a worker of its own (the test's outboxes unless given others). */
  function withWorker(scenario: (signal: Signal) => Promise<void>, options: { mailer?: Mailer; sms?: SmsSender } = {}): Promise<void> {
    return withBookingWorker(t, { mailer: options.mailer ?? mail, sms: options.sms ?? sms }, scenario);
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
    const now = await t.env.currentTimeMs();
    const start = new Date(now + startsInMs);
    const booking = await insertHourBooking(knex, {
      tenantId: tenant.id,
      serviceId: service.id,
      resourceId: resource.id,
      customerId: customer.id,
      start,
      status,
    });
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

        await t.env.sleep(DAY); // nothing due yet but the confirmation
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);
        const confirmation = (await sms.sentTo(phone))[0];
        expect(confirmation.text).to.contain('Hei Kari!').and.contain('Dameklipp hos Ola');

        await t.env.sleep(1.5 * DAY); // past start - 24 h
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'REMINDER']);

        await knex('bookings').where({ id: booking.id }).update({ status: 'COMPLETED', version: 2 });
        const completed = await signal(booking.id, tenantId, { type: 'BookingCompleted', entityVersion: 2 });
        // the same event again (a retried request): delivered, and the visit still counted once
        const again = await signal(booking.id, tenantId, { type: 'BookingCompleted', entityVersion: 2 });
        await handle.result();
        const runs = [...new Set([completed.signaledRunId, again.signaledRunId])].map((runId) =>
          t.env.client.workflow.getHandle(bookingContract.workflowId(booking.id), runId),
        );
        for (const run of runs) await run.result();
        const received: unknown[] = [];
        for (const run of runs) {
          for (const e of (await run.fetchHistory()).events ?? []) {
            const data = e.workflowExecutionSignaledEventAttributes?.input?.payloads?.[0]?.data;
            if (data) received.push(JSON.parse(Buffer.from(data).toString('utf8')));
          }
        }
        expect(
          received.filter((event) => (event as BookingEvent).type === 'BookingCompleted'),
          'both completions delivered',
        ).to.deep.equal([
          { type: 'BookingCompleted', entityVersion: 2 },
          { type: 'BookingCompleted', entityVersion: 2 },
        ]);

        const tc = await knex('tenant_customers').where({ customerId: customer.id }).first();
        expect(tc.visitCount).to.equal(1);
        expect(Number(tc.totalSpent)).to.equal(65000);
      }));

    it('when the signal arrives before the change commits then the workflow acts on the committed state', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId, knex } = await seedBooking(5 * DAY, 'PENDING');
        await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        // version 1 is read before version 2 exists (on a busy machine 300 ms may not be enough)
        await eventually(async () => (await smsKinds(phone)).includes('RECEIVED'), 'the booking received message');
        // the api signals "confirmed, version 2" before its transaction commits...
        const handle = await signal(booking.id, tenantId, { type: 'BookingConfirmed', entityVersion: 2 });
        // barrier: the workflow has read version 1 (PENDING) and told the customer it was received...
        await eventually(async () => (await smsKinds(phone)).includes('RECEIVED'), 'the RECEIVED message of version 1');
        // ...and the commit of version 2 lands only now
        await knex('bookings').where({ id: booking.id }).update({ status: 'CONFIRMED', version: 2 });
        await t.env.sleep(DAY);
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
        await t.env.sleep(2 * HOUR);
        await knex('bookings').where({ id: booking.id }).update({ status: 'NO_SHOW', version: 2 });
        await signal(booking.id, tenantId, { type: 'BookingMarkedNoShow', entityVersion: 2 });
        await handle.result();
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);
      }));

    it('when a booking is three days ahead then the reminder goes out exactly once, 24 h before the start', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId } = await seedBooking(3 * DAY);
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });

        await t.env.sleep(2 * DAY - 5 * MINUTE); // five minutes before start - 24 h
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);
        await t.env.sleep(10 * MINUTE); // five minutes after
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'REMINDER']);
        await t.env.sleep(2 * DAY); // past the start: nothing more
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'REMINDER']);
        await handle.terminate('test over');
      }));

    it('when a booking is rescheduled then the customer is told and the reminder moves with the start', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId, knex, start } = await seedBooking(3 * DAY);
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await t.env.sleep(DAY);

        const moved = new Date(start.getTime() + 2 * DAY); // now four days ahead
        await knex('bookings')
          .where({ id: booking.id })
          .update({ startTime: moved, endTime: new Date(moved.getTime() + HOUR), version: 2 });
        await signal(booking.id, tenantId, { type: 'BookingRescheduled', entityVersion: 2 });
        await t.env.sleep(DAY + HOUR); // past the old start - 24 h
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'RESCHEDULED']);

        await t.env.sleep(2 * DAY); // past the new start - 24 h
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'RESCHEDULED', 'REMINDER']);
        const reminder = (await sms.sentTo(phone))[2];
        expect(reminder.text).to.contain('kl.');
        await handle.terminate('test over');
      }));

    it('when a booking is cancelled before its reminder then no reminder is sent', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId, knex } = await seedBooking(3 * DAY);
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await t.env.sleep(DAY);
        await knex('bookings').where({ id: booking.id }).update({ status: 'CANCELLED', version: 2 });
        await signal(booking.id, tenantId, { type: 'BookingCancelledBySalon', entityVersion: 2 });
        await handle.result();
        await t.env.sleep(3 * DAY); // past the start
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'CANCELLED']);
      }));
  });

  describe('a move near the reminder (docs/rules/booking.md#moving-a-booking): no reminder for the old time is ever sent', () => {
    /** The booking moved two days later, as the move service writes it, and its workflow told. */
    async function moveTwoDaysLater(seeded: Awaited<ReturnType<typeof seedBooking>>, signal: Signal, version = 2): Promise<Date> {
      const moved = new Date(seeded.start.getTime() + 2 * DAY);
      await seeded
        .knex('bookings')
        .where({ id: seeded.booking.id })
        .update({ startTime: moved, endTime: new Date(moved.getTime() + HOUR), version });
      await signal(seeded.booking.id, seeded.tenantId, { type: 'BookingRescheduled', entityVersion: version });
      return moved;
    }

    it('when the booking moves one minute before its reminder falls due then the customer hears of the move and is reminded once, of the new time, 24 h before it', () =>
      withWorker(async (signal) => {
        const seeded = await seedBooking(3 * DAY);
        const handle = await signal(seeded.booking.id, seeded.tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await t.env.sleep(2 * DAY - MINUTE);
        await moveTwoDaysLater(seeded, signal);
        await t.env.sleep(2 * MINUTE); // the old reminder's time has passed
        expect(await smsKinds(seeded.phone)).to.deep.equal(['CONFIRMED', 'RESCHEDULED']);
        await t.env.sleep(2 * DAY); // past the new start - 24 h
        expect(await smsKinds(seeded.phone)).to.deep.equal(['CONFIRMED', 'RESCHEDULED', 'REMINDER']);
        const rows = await seeded.knex('booking_notifications').where({ bookingId: seeded.booking.id, channel: 'SMS' }).orderBy('createdAt');
        expect(rows.map((r) => r.dedupeKey)).to.deep.equal([
          'CONFIRMED',
          `RESCHEDULED:${new Date(seeded.start.getTime() + 2 * DAY).toISOString()}`,
          `REMINDER:${new Date(seeded.start.getTime() + 2 * DAY).toISOString()}`,
        ]);
        await handle.terminate('test over');
      }));

    it('when the reminder SMS fails as it falls due and the booking moves before the retry then the retry sends nothing; the new time gets its own reminder', async () => {
      const gateway = new SwitchableSms(sms);
      await withWorker(
        async (signal) => {
          const seeded = await seedBooking(3 * DAY);
          const handle = await signal(seeded.booking.id, seeded.tenantId, { type: 'BookingCreated', entityVersion: 1 });
          await eventually(async () => (await smsKinds(seeded.phone)).includes('CONFIRMED'), 'the CONFIRMED SMS');
          gateway.down = true;
          await t.env.sleep(2 * DAY + 5 * 1000); // the reminder fell due; its SMS was refused
          expect(gateway.refused).to.be.greaterThan(0);
          await moveTwoDaysLater(seeded, signal);
          gateway.down = false;
          await t.env.sleep(HOUR); // past the retries at 30 s, 2 min and 10 min
          expect(await smsKinds(seeded.phone)).to.deep.equal(['CONFIRMED', 'RESCHEDULED']);
          const claims = await seeded
            .knex('booking_notifications')
            .where({ bookingId: seeded.booking.id, channel: 'SMS' })
            .whereLike('dedupeKey', 'REMINDER:%');
          expect(claims.map((r) => [r.dedupeKey, r.sentAt])).to.deep.equal([[`REMINDER:${seeded.start.toISOString()}`, null]]);
          await t.env.sleep(2 * DAY); // past the new start - 24 h
          expect(await smsKinds(seeded.phone)).to.deep.equal(['CONFIRMED', 'RESCHEDULED', 'REMINDER']);
          await handle.terminate('test over');
        },
        { sms: gateway },
      );
    });
  });

  describe('a past visit recorded after the fact', () => {
    it('when the salon records a past visit and then cancels it then the customer is told nothing; moved back ahead, the customer hears of it', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId, knex } = await seedBooking(-2 * DAY);
        const flagged = { ...booking.metadata, recordedAfterTheFact: true };
        await knex('bookings').where({ id: booking.id }).update({ metadata: flagged });
        const handle = await signal(booking.id, tenantId, { type: 'BookingRecordedAfterTheFact', entityVersion: 1 });
        await t.env.sleep(HOUR);
        expect(await smsKinds(phone)).to.deep.equal([]);

        const ahead = new Date((await t.env.currentTimeMs()) + 3 * DAY);
        await knex('bookings')
          .where({ id: booking.id })
          .update({ startTime: ahead, endTime: new Date(ahead.getTime() + HOUR), metadata: booking.metadata, version: 2 });
        await signal(booking.id, tenantId, { type: 'BookingRescheduled', entityVersion: 2 });
        await t.env.sleep(HOUR);
        expect(await smsKinds(phone)).to.deep.equal(['RESCHEDULED']);
        await handle.terminate('test over');
      }));

    it('when a past visit recorded after the fact is cancelled by the salon then no cancellation message is sent', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId, knex } = await seedBooking(-DAY);
        await knex('bookings')
          .where({ id: booking.id })
          .update({ metadata: { ...booking.metadata, recordedAfterTheFact: true } });
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
        await t.env.sleep(HOUR);
        await knex('bookings').where({ id: booking.id }).update({ status: 'COMPLETED', version: 2 });
        await signal(booking.id, tenantId, { type: 'BookingCompleted', entityVersion: 2 });
        await first.result();

        // a redelivered signal starts a new run of booking:<id>, which must not count the visit again
        const second = await signal(booking.id, tenantId, { type: 'BookingCompleted', entityVersion: 2 });
        expect(second.signaledRunId).to.not.equal(first.signaledRunId);
        await t.env.client.workflow.getHandle(bookingContract.workflowId(booking.id), second.signaledRunId).result();

        const tc = await knex('tenant_customers').where({ customerId: customer.id }).first();
        expect(tc.visitCount).to.equal(1);
        expect(await knex('tenant_customer_visits').where({ bookingId: booking.id }).count('* as n').first()).to.deep.equal({ n: 1 });
      }));
  });

  describe('changes while the last messages are still being delivered', () => {
    it('when the SMS gateway is down after a cancellation and the owner then forces the booking to COMPLETED then the visit is counted at once, not after hours of SMS retries', async () => {
      const down = new DownSmsGateway();
      await withWorker(
        async (signal) => {
          const { booking, customer, tenantId, knex } = await seedBooking(3 * DAY);
          const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
          await t.env.sleep(MINUTE);
          await knex('bookings').where({ id: booking.id }).update({ status: 'CANCELLED', version: 2 });
          await signal(booking.id, tenantId, { type: 'BookingCancelledBySalon', entityVersion: 2 });
          await t.env.sleep(HOUR); // settled as cancelled; the confirmation and cancellation SMS are being retried

          // the owner forces CANCELLED -> COMPLETED: the customer came after all
          await knex('bookings').where({ id: booking.id }).update({ status: 'COMPLETED', version: 3 });
          await signal(booking.id, tenantId, { type: 'BookingCompleted', entityVersion: 3 });
          await t.env.sleep(10 * MINUTE);
          expect((await handle.describe()).status.name, 'the SMS are still being retried').to.equal('RUNNING');
          const counted = await knex('tenant_customers').where({ customerId: customer.id }).first();
          expect(counted?.visitCount, 'the forced completion is counted while the SMS are retried').to.equal(1);

          await handle.result(); // both SMS given up after their 10 attempts
          expect(down.attempts).to.equal(20);
          expect((await knex('tenant_customers').where({ customerId: customer.id }).first()).visitCount).to.equal(1);
        },
        { sms: down },
      );
    });
  });

  describe('each channel is its own idempotent delivery', () => {
    it('when the e-mail gateway fails three times then the e-mail is retried on its own: one SMS and one e-mail in all', async () => {
      const email = `${unique('kari')}@example.no`;
      const flaky = new FlakyMailer(mail, 3);
      await withWorker(
        async (signal) => {
          const { booking, phone, tenantId, knex } = await seedBooking(3 * DAY, 'CONFIRMED', { email });
          const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
          await t.env.sleep(HOUR); // 30 s, 2 min and 10 min later the e-mail is tried again

          expect(flaky.attempts).to.equal(4);
          expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);
          expect((await mail.sentTo(email)).map((m) => m.meta?.kind)).to.deep.equal(['CONFIRMED']);
          const rows = await knex('booking_notifications').where({ bookingId: booking.id }).orderBy('channel');
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
          await t.env.sleep(HOUR); // the e-mail confirmation is still being retried (attempt 5 is due in 12 min)
          expect(down.attempts).to.equal(4);
          expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);

          await knex('bookings').where({ id: booking.id }).update({ status: 'CANCELLED', version: 2 });
          await signal(booking.id, tenantId, { type: 'BookingCancelled', entityVersion: 2 });
          await t.env.sleep(MINUTE);
          expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'CANCELLED']);

          await handle.result(); // both e-mails given up: 30 s + 2 min + 10 min + 6 x 1 h each
          expect(down.attempts).to.equal(20);
          expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'CANCELLED']);
          const emailRows = await knex('booking_notifications').where({ bookingId: booking.id, channel: 'EMAIL' });
          expect(emailRows.map((r) => r.sentAt)).to.deep.equal([null, null]);
        },
        { mailer: down },
      );
    });
  });
});
