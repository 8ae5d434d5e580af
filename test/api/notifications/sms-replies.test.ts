// Reminders the customer answers (docs/rules/reminders.md), through the HTTP API with the real worker:
// replies by SMS in Sveve's callback format, the customer's promise to come on the link and at the
// salon (never called a confirmation: docs/rules/booking.md#the-words), the filter of bookings without a
// promise, the day list, the settings' limits, the figures in /api/metrics, and the names the API
// released before the words were told apart.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { call, http } from '../../support/http';
import { stack, TEST_METRICS_TOKEN, TEST_SMS_REPLY_SECRET } from '../../support/stack';
import { at, bookingSalon, knex, localDay, type BookingSalon } from '../../support/booking-fixtures';
import { eventually } from '../../support/eventually';
import type { TenantSettings } from '../../../domain/tenant/tenant-settings.rules';
import { bookOnline, bookingRow, clickCheckout, depositSalon, paymentPage, paymentRows } from '../../support/payments';
import { startSmsSandbox } from '../../../devstack/sms-sandbox';

const WEBHOOK = '/api/webhooks/sms/sveve';

/** A Norwegian mobile number no other test uses: E.164, and as Sveve sends it (country code, no plus). */
function newPhone(): { e164: string; sveve: string } {
  const national = String(crypto.randomInt(40000000, 49999999));
  return { e164: `+47${national}`, sveve: `47${national}` };
}

/** A guest's public booking `days` ahead at 10:00 (in `language`), its manage token, and the customer's phone. */
async function publicBooking(s: BookingSalon, phone: string, days = 3, time = '10:00', language: 'nb' | 'en' = 'nb') {
  const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
    startTime: at(localDay(days), time),
    items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
    customer: { name: 'Kari Svar', phone, email: null },
    language,
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data as { id: string; manageToken: string; cancellationToken: string; startTime: string; status: string };
}

/** The manage page's text, as the customer's browser gets it from the link in the messages. */
async function managePageText(s: BookingSalon, b: { id: string; manageToken: string }, language: 'nb' | 'en') {
  const res = await (await http()).get(`/${s.tenant.slug}/bookings/${b.id}?token=${encodeURIComponent(b.manageToken)}${language === 'en' ? '&lang=en' : ''}`);
  expect(res.status).to.equal(200);
  return res.text
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The booking as its workflow leaves it once its reminder SMS is out (the booking_notifications row the
 * delivery claims and stamps; the workflow tests show the reminder itself going out at its time).
 */
async function reminded(bookingId: string, tenantId: string): Promise<void> {
  await (
    await knex()
  )('booking_notifications').insert({
    bookingId,
    tenantId,
    kind: 'REMINDER',
    channel: 'SMS',
    dedupeKey: `REMINDER:${crypto.randomUUID()}`,
    sentAt: new Date(),
  });
}

async function reply(fields: Record<string, string>, key: string | null = TEST_SMS_REPLY_SECRET) {
  const form = new URLSearchParams({ ...fields, ...(key === null ? {} : { key }) });
  return (await http()).post(WEBHOOK).set('content-type', 'application/x-www-form-urlencoded').send(form.toString());
}

async function smsTo(phone: string) {
  return (await stack()).sms.sentTo(phone);
}

/** The answer the platform sent back: the SMS to the phone whose meta says it answers a reply. */
async function answersTo(phone: string): Promise<string[]> {
  return (await smsTo(phone)).filter((m) => m.meta?.kind === 'REPLY_ANSWER').map((m) => m.text);
}

async function bookingOf(s: BookingSalon, id: string) {
  const res = await call('get', `/bookings/${id}`, s.owner.token);
  expect(res.status).to.equal(200);
  return res.body.data as { status: string; version: number; promisedAt: string | null; promisedVia: string | null; startTime: string };
}

async function salonWith(settings: Partial<TenantSettings> = {}) {
  return bookingSalon({ settings: { autoConfirm: true, ...settings } });
}

describe('reminders the customer answers', () => {
  describe('POST /webhooks/sms/sveve (a reply to the reminder)', () => {
    it('when the customer replies JA then it is recorded as their promise to come by SMS, staff see it, and the answer says so', async () => {
      const s = await salonWith();
      const phone = newPhone();
      const b = await publicBooking(s, phone.e164);
      await reminded(b.id, s.tenant.id);
      const res = await reply({ number: phone.sveve, msg: 'Ja!', id: crypto.randomUUID() });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ success: true, data: { result: 'PROMISED', outcome: 'CONFIRMED', bookingId: b.id, duplicate: false } });

      const booking = await bookingOf(s, b.id);
      expect(booking).to.include({ status: 'CONFIRMED', promisedVia: 'SMS', version: 2 });
      expect(booking.promisedAt).to.be.a('string');
      expect(await answersTo(phone.e164)).to.have.length(1);
      expect((await answersTo(phone.e164))[0])
        .to.contain('Du har lovet å komme')
        .and.contain(s.tenant.name);

      // the day list and the filter
      const day = await call('get', `/schedule?date=${localDay(3)}`, s.owner.token);
      const block = day.body.data.staff.flatMap((r: { blocks: { bookingId: string }[] }) => r.blocks).find((x: { bookingId: string }) => x.bookingId === b.id);
      expect(block).to.include({ promisedVia: 'SMS', promisedAt: booking.promisedAt });
      expect((await call('get', '/bookings?promised=false', s.owner.token)).body.data.map((x: { id: string }) => x.id)).to.not.include(b.id);
      expect((await call('get', '/bookings?promised=true', s.owner.token)).body.data.map((x: { id: string }) => x.id)).to.deep.equal([b.id]);
      const audit = await call('get', `/bookings/${b.id}/audit-log`, s.owner.token);
      expect(audit.body.data.at(-1)).to.include({ action: 'UPDATED', actorRole: 'CUSTOMER' });
      expect(audit.body.data.at(-1).changes).to.include({ promisedVia: 'SMS' });
    });

    it('when the customer replies JA to a booking the salon has not confirmed yet then the answer and the manage page say they promised to come, and that the salon still has to confirm, never that it is confirmed (nb and en)', async () => {
      const s = await bookingSalon({ settings: { autoConfirm: false } });
      for (const [language, promised, waiting, never] of [
        ['nb', 'Du har lovet å komme', 'Venter på bekreftelse fra salongen', /bekreft/i],
        ['en', 'You have promised to come', 'Waiting for the salon to confirm', /confirmed/i],
      ] as const) {
        const phone = newPhone();
        const b = await publicBooking(s, phone.e164, 3, language === 'nb' ? '10:00' : '13:00', language);
        expect(b.status).to.equal('PENDING');
        await reminded(b.id, s.tenant.id);
        const res = await reply({ number: phone.sveve, msg: 'JA', id: crypto.randomUUID() });
        expect(res.body.data).to.include({ result: 'PROMISED', bookingId: b.id });
        const answer = (await answersTo(phone.e164))[0];
        expect(answer).to.contain(promised);
        expect(answer).to.not.match(never);
        expect(await bookingOf(s, b.id)).to.include({ status: 'PENDING', promisedVia: 'SMS' });
        const page = await managePageText(s, b, language);
        expect(page).to.contain(promised).and.contain(waiting);
        expect(page).to.not.match(language === 'nb' ? /har bekreftet/ : /have confirmed/);
      }
    });

    it('when the gateway delivers the same reply twice then nothing changes the second time and one answer is sent', async () => {
      const s = await salonWith();
      const phone = newPhone();
      const b = await publicBooking(s, phone.e164);
      await reminded(b.id, s.tenant.id);
      const id = crypto.randomUUID();
      const first = await reply({ number: phone.sveve, msg: 'JA', id });
      const firstBooking = await bookingOf(s, b.id);
      const second = await reply({ number: phone.sveve, msg: 'JA', id });
      expect(first.body.data).to.include({ result: 'PROMISED', duplicate: false });
      expect(second.status).to.equal(200);
      expect(second.body.data).to.deep.equal({ result: 'PROMISED', outcome: 'CONFIRMED', bookingId: b.id, duplicate: true });
      expect(await bookingOf(s, b.id)).to.deep.equal(firstBooking);
      expect(await answersTo(phone.e164)).to.have.length(1);
      expect(await (await knex())('sms_replies').where({ gateway: 'SVEVE', gatewayMessageId: id })).to.have.length(1);
    });

    it('when the customer replies NEI inside the free window then the booking is cancelled as on the manage page and the answer says so', async () => {
      const s = await salonWith({ cancellationHours: 24 });
      const phone = newPhone();
      const b = await publicBooking(s, phone.e164, 3);
      await reminded(b.id, s.tenant.id);
      const res = await reply({ number: phone.sveve, msg: 'nei', id: crypto.randomUUID() });
      expect(res.body.data).to.deep.equal({ result: 'CANCELLED', outcome: 'CANCELLED', bookingId: b.id, duplicate: false });
      expect(await bookingOf(s, b.id)).to.include({ status: 'CANCELLED', promisedAt: null });
      expect((await answersTo(phone.e164))[0]).to.contain('er avbestilt');
      const row = await (await knex())('bookings').where({ id: b.id }).first();
      expect(row).to.include({ cancelledBy: 'CUSTOMER', cancellationFee: 0 });
      // the workflow tells the customer of the cancellation too
      await eventually(async () => (await smsTo(phone.e164)).some((m) => m.meta?.kind === 'CANCELLED'), 'the cancellation message');
    });

    it('when the customer replies NO after free cancellation ended then nothing is cancelled and the answer says to contact the salon (without a number of the salon, never "call")', async () => {
      const s = await salonWith({ cancellationHours: 168 });
      const phone = newPhone();
      const b = await publicBooking(s, phone.e164, 3);
      await reminded(b.id, s.tenant.id);
      const res = await reply({ number: phone.sveve, msg: 'NO', id: crypto.randomUUID() });
      expect(res.body.data).to.include({ result: 'WINDOW_CLOSED', bookingId: b.id });
      expect(await bookingOf(s, b.id)).to.include({ status: 'CONFIRMED', version: 1 });
      expect((await answersTo(phone.e164))[0])
        .to.contain('kan ikke lenger avbestilles på SMS')
        .and.contain(`Ta kontakt med ${s.tenant.name} for å avbestille.`);
    });

    it('when the salon has a contact phone and the customer replies after free cancellation ended then the answer gives the number to call (nb and en)', async () => {
      const s = await salonWith({ cancellationHours: 168 });
      const set = await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { contactPhone: '22 33 44 55', contactEmail: 'post@salong.no' });
      expect(set.status, JSON.stringify(set.body)).to.equal(200);
      for (const language of ['nb', 'en'] as const) {
        const phone = newPhone();
        const b = await publicBooking(s, phone.e164, 3, language === 'nb' ? '10:00' : '12:00', language);
        await reminded(b.id, s.tenant.id);
        const res = await reply({ number: phone.sveve, msg: 'NEI', id: crypto.randomUUID() });
        expect(res.body.data).to.include({ result: 'WINDOW_CLOSED', bookingId: b.id });
        expect((await answersTo(phone.e164))[0]).to.contain(
          language === 'nb' ? `Ring ${s.tenant.name} på +47 22 33 44 55 for å avbestille.` : `Please call ${s.tenant.name} on +47 22 33 44 55 to cancel.`,
        );
      }
    });

    it('when the booking was cancelled before the reply then the answer says it is cancelled and nothing changes', async () => {
      const s = await salonWith();
      const phone = newPhone();
      const b = await publicBooking(s, phone.e164);
      await reminded(b.id, s.tenant.id);
      expect((await call('post', `/bookings/${b.id}/cancel`, s.owner.token, { bySalon: true })).status).to.equal(200);
      const res = await reply({ number: phone.sveve, msg: 'JA', id: crypto.randomUUID() });
      expect(res.body.data).to.include({ result: 'ALREADY_CANCELLED', bookingId: b.id });
      expect(await bookingOf(s, b.id)).to.include({ status: 'CANCELLED', promisedAt: null, version: 2 });
      expect((await answersTo(phone.e164))[0]).to.contain('er avbestilt');
    });

    it('when the booking moved after the reminder then the answer is about the new time', async () => {
      const s = await salonWith();
      const phone = newPhone();
      const b = await publicBooking(s, phone.e164, 3, '10:00');
      await reminded(b.id, s.tenant.id);
      const moved = await call('patch', `/bookings/${b.id}`, s.owner.token, { startTime: at(localDay(3), '14:00') });
      expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
      const res = await reply({ number: phone.sveve, msg: 'ja', id: crypto.randomUUID() });
      expect(res.body.data).to.include({ result: 'PROMISED', bookingId: b.id });
      const answer = (await answersTo(phone.e164))[0];
      expect(answer).to.contain('kl. 14:00').and.not.contain('kl. 10:00');
    });

    it('when the reply is anything else then a short help answer with the link, and nothing changes', async () => {
      const s = await salonWith();
      const phone = newPhone();
      const b = await publicBooking(s, phone.e164);
      await reminded(b.id, s.tenant.id);
      const res = await reply({ number: phone.sveve, msg: 'ja, men kan jeg komme senere?', id: crypto.randomUUID() });
      expect(res.body.data).to.include({ result: 'HELP', bookingId: b.id });
      expect(await bookingOf(s, b.id)).to.include({ version: 1, promisedAt: null });
      const answer = (await answersTo(phone.e164))[0];
      expect(answer).to.contain('Svar JA').and.contain(`/${s.tenant.slug}/bookings/${b.id}?token=`);
    });

    it('when the number has no reminded booking then the answer says so', async () => {
      const phone = newPhone();
      const res = await reply({ number: phone.sveve, msg: 'JA', id: crypto.randomUUID() });
      expect(res.body.data).to.deep.equal({ result: 'NO_BOOKING', outcome: 'NO_BOOKING', bookingId: null, duplicate: false });
      expect((await answersTo(phone.e164))[0]).to.contain('Vi fant ingen time');
    });

    it('when two bookings of the number await an answer then a reply changes neither and the answer names both, soonest first; once the salon cancels one, the reply acts on the other', async () => {
      const first = await salonWith();
      const second = await salonWith();
      const phone = newPhone();
      const later = await publicBooking(first, phone.e164, 4, '12:00');
      const sooner = await publicBooking(second, phone.e164, 3, '10:00');
      await reminded(later.id, first.tenant.id);
      await reminded(sooner.id, second.tenant.id);
      const res = await reply({ number: phone.sveve, msg: 'JA', id: crypto.randomUUID() });
      expect(res.body.data).to.deep.equal({ result: 'WHICH_BOOKING', outcome: 'WHICH_BOOKING', bookingId: null, duplicate: false });
      for (const [s, b] of [
        [first, later],
        [second, sooner],
      ] as const)
        expect(await bookingOf(s, b.id)).to.include({ status: 'CONFIRMED', promisedVia: null });
      const answer = (await answersTo(phone.e164))[0];
      expect(answer).to.contain('Du har 2 timer som venter på svar').and.contain('Ingenting er endret');
      expect(answer.indexOf(second.tenant.name), 'soonest first').to.be.lessThan(answer.indexOf(first.tenant.name));
      expect(answer).to.contain('kl. 10:00').and.contain('kl. 12:00').and.not.contain('token=');

      expect((await call('post', `/bookings/${sooner.id}/cancel`, second.owner.token, { bySalon: true })).status).to.equal(200);
      const again = await reply({ number: phone.sveve, msg: 'JA', id: crypto.randomUUID() });
      expect(again.body.data).to.include({ result: 'PROMISED', bookingId: later.id });
    });

    it('when the secret is wrong or missing then 401 in the error envelope and nothing is written', async () => {
      const phone = newPhone();
      const id = crypto.randomUUID();
      for (const key of ['wrong-secret-0123456789', null]) {
        const res = await reply({ number: phone.sveve, msg: 'JA', id }, key);
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.include({ success: false });
        expect(res.body.error.code).to.equal('UNAUTHORIZED');
      }
      expect(await (await knex())('sms_replies').where({ gatewayMessageId: id })).to.have.length(0);
      expect(await answersTo(phone.e164)).to.deep.equal([]);
    });

    it('when the gateway calls back with GET then the reply is handled the same', async () => {
      const s = await salonWith();
      const phone = newPhone();
      const b = await publicBooking(s, phone.e164);
      await reminded(b.id, s.tenant.id);
      const query = new URLSearchParams({ number: phone.sveve, msg: 'YES', id: crypto.randomUUID(), key: TEST_SMS_REPLY_SECRET });
      const res = await (await http()).get(`${WEBHOOK}?${query}`);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ result: 'PROMISED', bookingId: b.id });
    });

    it('when a field is missing then 400 naming it', async () => {
      const res = await reply({ number: newPhone().sveve, msg: 'JA' });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      expect(res.body.error.details[0].field).to.equal('id');
    });

    it('when the text is 2000 characters it is taken (kept to 1000); at 2001 it is refused', async () => {
      const phone = newPhone();
      const id = crypto.randomUUID();
      const at = await reply({ number: phone.sveve, msg: 'x'.repeat(2000), id });
      expect(at.status).to.equal(200);
      expect(at.body.data.result).to.equal('HELP');
      expect((await (await knex())('sms_replies').where({ gatewayMessageId: id }).first()).text).to.have.length(1000);
      const past = await reply({ number: phone.sveve, msg: 'x'.repeat(2001), id: crypto.randomUUID() });
      expect(past.status).to.equal(400);
      expect(past.body.error.code).to.equal('VALIDATION_ERROR');
    });
  });

  describe('a reply about a booking with a deposit', function () {
    this.timeout(90_000);

    async function paidBooking(settings: Partial<TenantSettings>) {
      const salon = await depositSalon({ settings });
      const booking = await bookOnline(salon, 3);
      await clickCheckout((await paymentPage(salon, booking)).redirectUrl!, 'pay');
      await eventually(async () => (await bookingRow(booking.id)).depositStatus === 'PAID', 'the deposit to be paid');
      await reminded(booking.id, salon.tenant.id);
      return { salon, booking, sveve: booking.phone.replace(/^\+/, '') };
    }

    it('when NEI comes inside the free window then the captured deposit is refunded and the answer says so', async () => {
      const { booking, sveve } = await paidBooking({ cancellationHours: 24 });
      const res = await reply({ number: sveve, msg: 'NEI', id: crypto.randomUUID() });
      expect(res.body.data).to.include({ result: 'CANCELLED', bookingId: booking.id });
      expect(await bookingRow(booking.id)).to.include({ status: 'CANCELLED', depositStatus: 'REFUNDED', cancellationFee: 0 });
      expect((await paymentRows(booking.id))[0]).to.include({ status: 'REFUNDED', refundedAmount: 10000 });
      expect((await answersTo(booking.phone))[0])
        .to.contain('er avbestilt')
        .and.contain('Depositumet på 100 kr betales tilbake');
    });

    it('when NEI comes after the free window then nothing is cancelled and the answer says the salon keeps the deposit if cancelled now', async () => {
      const { booking, sveve } = await paidBooking({ cancellationHours: 168 });
      const res = await reply({ number: sveve, msg: 'NEI', id: crypto.randomUUID() });
      expect(res.body.data).to.include({ result: 'WINDOW_CLOSED', bookingId: booking.id });
      expect(await bookingRow(booking.id)).to.include({ status: 'CONFIRMED', depositStatus: 'PAID' });
      expect((await answersTo(booking.phone))[0])
        .to.contain('Ta kontakt med')
        .and.contain('beholder salongen depositumet på 100 kr');
    });
  });

  describe('the promise on the link and at the salon', () => {
    it('when the customer promises with the manage token then promisedVia LINK; again changes nothing; a cancelled booking is 409 BOOKING_NOT_PROMISABLE; a wrong token 404', async () => {
      const s = await salonWith();
      const b = await publicBooking(s, newPhone().e164);
      const url = `/public/tenants/${s.tenant.slug}/bookings/${b.id}/promise`;
      const first = await call('post', url, undefined, { token: b.manageToken });
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body.data.promisedAt).to.be.a('string');
      const again = await call('post', url, undefined, { token: b.manageToken });
      expect(again.body.data.promisedAt).to.equal(first.body.data.promisedAt);
      expect(await bookingOf(s, b.id)).to.include({ promisedVia: 'LINK', version: 2 });
      expect((await call('post', url, undefined, { token: 'not-the-token' })).status).to.equal(404);

      const other = await publicBooking(s, newPhone().e164, 4);
      await call('post', `/bookings/${other.id}/cancel`, s.owner.token, { bySalon: true });
      const refused = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${other.id}/promise`, undefined, { token: other.manageToken });
      expect(refused.status).to.equal(409);
      expect(refused.body.error.code).to.equal('BOOKING_NOT_PROMISABLE');
    });

    it('when a booking the customer promised to come to is cancelled then its manage page no longer says they promised, in either language', async () => {
      const s = await salonWith();
      const b = await publicBooking(s, newPhone().e164);
      await call('post', `/public/tenants/${s.tenant.slug}/bookings/${b.id}/promise`, undefined, { token: b.manageToken });
      expect(await managePageText(s, b, 'nb')).to.contain('Du har lovet å komme');
      const cancelled = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${b.id}/cancel`, undefined, { token: b.manageToken });
      expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
      const nb = await managePageText(s, b, 'nb');
      expect(nb).to.contain('Avbestilt');
      expect(nb).to.not.match(/lovet å komme|bekreftet at du kommer|Kommer du\?/);
      expect(await managePageText(s, b, 'en')).to.not.match(/promised to come|confirmed that you are coming|Are you coming\?/);
    });

    it('when staff record that the customer promised to come then promisedVia STAFF and the booking leaves the list of bookings without a promise', async () => {
      const s = await salonWith();
      const b = await publicBooking(s, newPhone().e164);
      expect((await call('get', '/bookings?promised=false', s.owner.token)).body.data.map((x: { id: string }) => x.id)).to.deep.equal([b.id]);
      const res = await call('post', `/bookings/${b.id}/promise`, s.staff[0].user.token);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.include({ promisedVia: 'STAFF' });
      expect((await call('get', '/bookings?promised=false', s.owner.token)).body.data).to.deep.equal([]);
    });
  });

  describe('the names the API released before (deprecated, kept until 2027-06-01)', () => {
    it('when a client uses the released routes, fields, filter and setting then they answer as before: confirm, confirmation, confirmedAt, confirmedVia, unconfirmed, cancellationToken, unconfirmedFlagHoursBefore, BOOKING_NOT_CONFIRMABLE', async () => {
      const s = await salonWith();
      const b = await publicBooking(s, newPhone().e164);
      expect(b.cancellationToken).to.equal(b.manageToken);
      expect((await call('get', '/bookings?unconfirmed=true', s.owner.token)).body.data.map((x: { id: string }) => x.id)).to.deep.equal([b.id]);
      const promised = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${b.id}/confirm`, undefined, { token: b.cancellationToken });
      expect(promised.status, JSON.stringify(promised.body)).to.equal(200);
      expect(promised.body.data.confirmedAt).to.equal(promised.body.data.promisedAt).and.be.a('string');
      const booking = (await call('get', `/bookings/${b.id}`, s.owner.token)).body.data;
      expect(booking).to.include({ confirmedAt: booking.promisedAt, confirmedVia: 'LINK', unconfirmedFlaggedAt: null });
      expect((await call('get', '/bookings?unconfirmed=false', s.owner.token)).body.data.map((x: { id: string }) => x.id)).to.deep.equal([b.id]);
      const block = (await call('get', `/schedule?date=${localDay(3)}`, s.owner.token)).body.data.staff
        .flatMap((r: { blocks: { bookingId: string }[] }) => r.blocks)
        .find((x: { bookingId: string }) => x.bookingId === b.id);
      expect(block).to.include({ confirmedAt: booking.promisedAt, confirmedVia: 'LINK' });

      const other = await publicBooking(s, newPhone().e164, 4);
      expect((await call('post', `/bookings/${other.id}/confirmation`, s.staff[0].user.token)).body.data).to.include({
        promisedVia: 'STAFF',
        confirmedVia: 'STAFF',
      });
      await call('post', `/bookings/${other.id}/cancel`, s.owner.token, { bySalon: true });
      const third = await publicBooking(s, newPhone().e164, 5);
      await call('post', `/bookings/${third.id}/cancel`, s.owner.token, { bySalon: true });
      const refused = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${third.id}/confirm`, undefined, { token: third.cancellationToken });
      expect([refused.status, refused.body.error.code]).to.deep.equal([409, 'BOOKING_NOT_CONFIRMABLE']);
      const refusedAtSalon = await call('post', `/bookings/${third.id}/confirmation`, s.owner.token);
      expect([refusedAtSalon.status, refusedAtSalon.body.error.code]).to.deep.equal([409, 'BOOKING_NOT_CONFIRMABLE']);

      const settings = await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { reminderHoursBefore: 24, unconfirmedFlagHoursBefore: 12 } });
      expect(settings.status, JSON.stringify(settings.body)).to.equal(200);
      expect(settings.body.data.settings).to.include({ unpromisedFlagHoursBefore: 12, unconfirmedFlagHoursBefore: 12 });
    });
  });

  describe('the settings', () => {
    it('when reminderHoursBefore is 1 or 168 it is taken; 0 or 169 is 400', async () => {
      const s = await salonWith();
      for (const hours of [1, 168]) {
        const res = await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { reminderHoursBefore: hours } });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.data.settings.reminderHoursBefore).to.equal(hours);
      }
      for (const hours of [0, 169]) {
        const res = await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { reminderHoursBefore: hours } });
        expect(res.status).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
    });

    it('when unpromisedFlagHoursBefore is one less than the reminder time it is taken; equal is 400; null turns it off', async () => {
      const s = await salonWith();
      const ok = await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { reminderHoursBefore: 24, unpromisedFlagHoursBefore: 23 } });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      const equal = await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { unpromisedFlagHoursBefore: 24 } });
      expect(equal.status).to.equal(400);
      expect(equal.body.error.details.map((d: { field: string }) => d.field)).to.include('settings.unpromisedFlagHoursBefore');
      const off = await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { unpromisedFlagHoursBefore: null } });
      expect(off.body.data.settings.unpromisedFlagHoursBefore).to.equal(null);
    });
  });

  describe('the SMS sandbox of npm start', () => {
    it('when a developer replies JA on the sandbox page then the reply reaches the webhook and the page shows the outcome and the conversation', async () => {
      const { baseUrl, config } = await stack();
      const sandbox = await startSmsSandbox({ webhookUrl: `${baseUrl}${WEBHOOK}`, secret: TEST_SMS_REPLY_SECRET, outboxDir: config.smsOutboxDir });
      try {
        const s = await salonWith();
        const phone = newPhone();
        const b = await publicBooking(s, phone.e164);
        await reminded(b.id, s.tenant.id);
        const sent = await fetch(`${sandbox.url}/reply`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ phone: phone.e164, text: 'JA' }),
        });
        expect(sent.status).to.equal(303);
        const page = await (await fetch(`${sandbox.url}${sent.headers.get('location')}`)).text();
        expect(page).to.contain('HTTP 200').and.contain('PROMISED').and.contain('Du har lovet å komme');
        expect(await bookingOf(s, b.id)).to.include({ promisedVia: 'SMS' });
      } finally {
        await sandbox.close();
      }
    });
  });

  describe('GET /metrics', () => {
    it('when a salon has promises by SMS and a cancellation by reply then its figures say so (booking_confirmations, the released name, too)', async () => {
      const s = await salonWith();
      const yes = newPhone();
      const no = newPhone();
      const b1 = await publicBooking(s, yes.e164, 3);
      const b2 = await publicBooking(s, no.e164, 4);
      await reminded(b1.id, s.tenant.id);
      await reminded(b2.id, s.tenant.id);
      await reply({ number: yes.sveve, msg: 'JA', id: crypto.randomUUID() });
      await reply({ number: no.sveve, msg: 'NEI', id: crypto.randomUUID() });
      const res = await (await http()).get('/api/metrics').set('Authorization', `Bearer ${TEST_METRICS_TOKEN}`);
      expect(res.status).to.equal(200);
      const salon = `salon="${s.tenant.slug}"`;
      expect(res.text).to.contain(`booking_promises{${salon},via="SMS"} 1`);
      expect(res.text).to.contain(`booking_confirmations{${salon},via="SMS"} 1`);
      expect(res.text).to.contain(`booking_cancellations_by_reply{${salon}} 1`);
      expect(res.text).to.contain(`booking_reminders_sent{${salon},channel="SMS"} 2`);
      expect(res.text).to.contain(`booking_no_shows{${salon}} 0`);
    });
  });
});
