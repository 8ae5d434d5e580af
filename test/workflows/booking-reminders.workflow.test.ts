// Reminders the customer answers (docs/rules/reminders.md) on the time-skipping test server and the
// real database: the salon's reminder time, no reminder for a booking made closer than that, and the
// salon's flag of a booking nobody promised to come to, once. Each test runs its own worker and task queue.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { stack } from '../support/stack';
import { createSalon } from '../support/factories';
import { FolderMailer } from '../../integrations/mail/mailer';
import { FolderSmsSender } from '../../integrations/sms/sms-sender';
import type { TenantSettings } from '../../domain/tenant/tenant-settings.rules';
import { withOutboxes, withTimeSkipping } from './support/time-skipping';
import { withBookingWorker, type BookingSignal } from './support/booking-worker';
import { insertHourBooking } from './support/hour-booking';

type Signal = BookingSignal;

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('booking workflow: reminders the customer answers (time skipping, real database)', function () {
  this.timeout(120_000);
  const t = withTimeSkipping();
  let sms: FolderSmsSender;
  let mail: FolderMailer;

  withOutboxes('reminders-test', (o) => ({ sms, mail } = o));

  function withWorker(scenario: (signal: Signal) => Promise<void>): Promise<void> {
    return withBookingWorker(t, { mailer: mail, sms }, scenario);
  }

  /** A salon with `settings`, its owner's e-mail, and a CONFIRMED booking starting `startsInMs` from now. */
  async function seedBooking(startsInMs: number, settings: Partial<TenantSettings>) {
    const { platform } = await stack();
    const knex = platform.knex;
    const { tenant, owner } = await createSalon({ name: 'Klipp & Stell', settings });
    const [service] = await knex('services').insert({ tenantId: tenant.id, name: 'Dameklipp', duration: 60, price: 65000, currency: 'NOK' }).returning('*');
    const [resource] = await knex('resources').insert({ tenantId: tenant.id, name: 'Ola' }).returning('*');
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const [customer] = await knex('customers').insert({ tenantId: tenant.id, name: 'Kari', phone }).returning('*');
    const start = new Date((await t.env.currentTimeMs()) + startsInMs);
    const booking = await insertHourBooking(knex, { tenantId: tenant.id, serviceId: service.id, resourceId: resource.id, customerId: customer.id, start });
    return { booking, phone, ownerEmail: owner.email, tenantId: tenant.id, knex, start };
  }

  async function smsKinds(phone: string): Promise<string[]> {
    return (await sms.sentTo(phone)).map((m) => String(m.meta?.kind));
  }

  async function mailKinds(to: string): Promise<string[]> {
    return (await mail.sentTo(to)).map((m) => String(m.meta?.kind));
  }

  describe('the reminder time is the salon setting', () => {
    it('when the salon reminds 3 hours before then the reminder goes out at start - 3 h, asking for JA or NEI', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId } = await seedBooking(2 * DAY, { reminderHoursBefore: 3 });
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await t.env.sleep(2 * DAY - 3 * HOUR - 5 * MINUTE); // five minutes before start - 3 h (the 24 h of old long gone)
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);
        await t.env.sleep(10 * MINUTE);
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'REMINDER']);
        const reminder = (await sms.sentTo(phone))[1];
        expect(reminder.text)
          .to.contain('Svar JA hvis du kommer')
          .and.contain('NEI for å avbestille')
          .and.not.match(/bekreft/i);
        await handle.terminate('test over');
      }));

    it('when the salon keeps the default then the reminder goes out 24 hours before', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId } = await seedBooking(2 * DAY, {});
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await t.env.sleep(DAY - 5 * MINUTE);
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);
        await t.env.sleep(10 * MINUTE);
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED', 'REMINDER']);
        await handle.terminate('test over');
      }));

    it('when the booking is made closer to its start than the reminder time then no reminder is sent', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId } = await seedBooking(2 * HOUR, { reminderHoursBefore: 3 });
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await t.env.sleep(3 * HOUR); // past the start
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);
        await handle.terminate('test over');
      }));

    it('when the booking is made exactly the reminder time before its start then no reminder is sent (none is due in the past or now)', () =>
      withWorker(async (signal) => {
        const { booking, phone, tenantId } = await seedBooking(3 * HOUR, { reminderHoursBefore: 3 });
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await t.env.sleep(4 * HOUR);
        expect(await smsKinds(phone)).to.deep.equal(['CONFIRMED']);
        await handle.terminate('test over');
      }));
  });

  describe('a booking nobody promised to come to at the salon flag time', () => {
    it('when nobody promised to come by start - 2 h then the salon gets one e-mail, the booking is flagged and nothing is cancelled', () =>
      withWorker(async (signal) => {
        const { booking, ownerEmail, tenantId, knex } = await seedBooking(2 * DAY, { reminderHoursBefore: 24, unpromisedFlagHoursBefore: 2 });
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await t.env.sleep(2 * DAY - 2 * HOUR - 5 * MINUTE);
        expect(await mailKinds(ownerEmail)).to.deep.equal([]);
        await t.env.sleep(10 * MINUTE);
        expect(await mailKinds(ownerEmail)).to.deep.equal(['UNCONFIRMED']);
        const flagged = await knex('bookings').where({ id: booking.id }).first();
        expect(flagged.status).to.equal('CONFIRMED');
        expect(flagged.unpromisedFlaggedAt).to.be.an.instanceOf(Date);
        const message = (await mail.sentTo(ownerEmail))[0];
        expect(message.subject).to.contain('Ikke lovet å komme').and.contain('Kari');

        // a later change of the booking (notes) does not flag it again
        await knex('bookings').where({ id: booking.id }).update({ notes: 'ring henne', version: 2 });
        await signal(booking.id, tenantId, { type: 'BookingUpdated', entityVersion: 2 });
        await t.env.sleep(HOUR);
        expect(await mailKinds(ownerEmail)).to.deep.equal(['UNCONFIRMED']);
        await handle.terminate('test over');
      }));

    it('when the customer promised to come before the flag time then the salon is told nothing', () =>
      withWorker(async (signal) => {
        const { booking, ownerEmail, tenantId, knex } = await seedBooking(2 * DAY, { reminderHoursBefore: 24, unpromisedFlagHoursBefore: 2 });
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await t.env.sleep(DAY + HOUR); // reminded
        await knex('bookings')
          .where({ id: booking.id })
          .update({ promisedAt: new Date(await t.env.currentTimeMs()), promisedVia: 'SMS', version: 2 });
        await signal(booking.id, tenantId, { type: 'BookingPromised', entityVersion: 2 });
        await t.env.sleep(DAY); // past the start
        expect(await mailKinds(ownerEmail)).to.deep.equal([]);
        expect((await knex('bookings').where({ id: booking.id }).first()).unpromisedFlaggedAt).to.equal(null);
        await handle.terminate('test over');
      }));

    it('when the booking is made closer to its start than the flag time then it is never flagged', () =>
      withWorker(async (signal) => {
        const { booking, ownerEmail, tenantId } = await seedBooking(HOUR, { reminderHoursBefore: 24, unpromisedFlagHoursBefore: 2 });
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await t.env.sleep(2 * HOUR);
        expect(await mailKinds(ownerEmail)).to.deep.equal([]);
        await handle.terminate('test over');
      }));

    it('when the salon sets no flag time then nothing is flagged', () =>
      withWorker(async (signal) => {
        const { booking, ownerEmail, tenantId, knex } = await seedBooking(2 * DAY, { reminderHoursBefore: 24, unpromisedFlagHoursBefore: null });
        const handle = await signal(booking.id, tenantId, { type: 'BookingCreated', entityVersion: 1 });
        await t.env.sleep(2 * DAY + HOUR);
        expect(await mailKinds(ownerEmail)).to.deep.equal([]);
        expect((await knex('bookings').where({ id: booking.id }).first()).unpromisedFlaggedAt).to.equal(null);
        await handle.terminate('test over');
      }));
  });
});
