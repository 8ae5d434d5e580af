// The customer moves a booking (docs/rules/booking.md#moving-a-booking): by the booking's token, the
// contact phone or as the signed-in customer, up to cancellationHours before the current start; one
// transaction that places the new time like a new booking and frees the old one for the waitlist; the
// deposit stays; one message with the updated calendar invitation (same UID, SEQUENCE + 1); an audit
// entry; /api/metrics counts the moves. A move racing a cancellation or another move ends in one state.
import crypto from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { call, http } from '../../support/http';
import { appWith, stack, TEST_METRICS_TOKEN } from '../../support/stack';
import { eventually } from '../../support/eventually';
import { workflowSettled } from '../../support/workflow-barriers';
import { at, bookingSalon, knex, localDay, type BookingSalon } from '../../support/booking-fixtures';
import { signInCustomer } from '../../support/customers';
import { bookingRow, clickCheckout, depositSalon, paymentPage, paymentRows } from '../../support/payments';
import { createApp } from '../../../api/app';
import type { StoredMail } from '../../../integrations/mail/mailer';

const unfolded = (ics: string) => ics.replace(/\r\n[ \t]/g, '').split('\r\n');
const line = (ics: string, name: string) => unfolded(ics).find((l) => l.startsWith(name));
const sequenceOf = (ics: string) => Number(line(ics, 'SEQUENCE:')!.split(':')[1]);
const HOUR = 3_600_000;

function phone(): string {
  return `+479${crypto.randomInt(1000000, 9999999)}`;
}

interface Booked {
  id: string;
  token: string;
  phone: string;
  email: string;
  startTime: string;
}

/** A guest's booking with the salon's first staff member, salon-local `day` at `time`. */
async function book(s: BookingSalon, day: string, time: string, customerToken?: string): Promise<Booked> {
  const contact = { name: 'Mona Flytt', phone: phone(), email: `move-${crypto.randomUUID()}@example.test` };
  const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, customerToken, {
    startTime: at(day, time),
    items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
    customer: contact,
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { id: res.body.data.id, token: res.body.data.manageToken, phone: contact.phone, email: contact.email, startTime: res.body.data.startTime };
}

function move(s: BookingSalon, b: Booked, startTime: string, proof: Record<string, string> = { token: b.token }, customerToken?: string) {
  return call('post', `/public/tenants/${s.tenant.slug}/bookings/${b.id}/move`, customerToken, { startTime, ...proof });
}

async function auditOf(s: BookingSalon, id: string) {
  const res = await call('get', `/bookings/${id}/audit-log?limit=100`, s.owner.token);
  expect(res.status).to.equal(200);
  return res.body.data as { action: string; actorRole: string; changes: Record<string, { from: string; to: string }> }[];
}

async function segmentsOf(id: string) {
  return (await (await knex())('booking_segments').where({ bookingId: id }).orderBy('startTime')) as {
    startTime: Date;
    endTime: Date;
    isActive: boolean;
    resourceId: string;
  }[];
}

async function mailsOf(email: string, kind: string): Promise<StoredMail[]> {
  return (await (await stack()).platform.mailer.sentTo(email)).filter((m: StoredMail) => m.meta?.kind === kind);
}

async function metricsText(): Promise<string> {
  const res = await request((await stack()).app)
    .get('/api/metrics')
    .set('Authorization', `Bearer ${TEST_METRICS_TOKEN}`);
  expect(res.status).to.equal(200);
  return res.text;
}

describe('moving a booking (HTTP, the real worker)', function () {
  this.timeout(120_000);
  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  it('when the customer moves with the token then 200 at the new time, the segments move, the audit says who, the customer gets ONE message whose invitation keeps the UID with SEQUENCE + 1, the waitlist is offered the freed time and the metrics count it', async () => {
    const { sms } = await stack();
    const s = await bookingSalon({ settings: { autoConfirm: true, cancellationHours: 24 } });
    const day = localDay(3);
    const b = await book(s, day, '10:00');
    const confirmed = await eventually(async () => (await mailsOf(b.email, 'CONFIRMED'))[0], 'the CONFIRMED e-mail');
    const invite = confirmed.attachments!.find((a) => a.calendarMethod === 'REQUEST')!;
    const waiter = { name: 'Vera Venter', phone: phone() };
    const joined = await call('post', `/public/tenants/${s.tenant.slug}/waitlist`, undefined, {
      serviceIds: [s.serviceId],
      fromDate: day,
      toDate: day,
      earliestTime: '10:00',
      latestTime: '11:00',
      customer: waiter,
    });
    expect(joined.status, JSON.stringify(joined.body)).to.equal(201);

    const res = await move(s, b, at(day, '14:00'));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.include({ id: b.id, status: 'CONFIRMED', startTime: at(day, '14:00'), endTime: at(day, '15:00') });
    expect(res.body.data.items[0]).to.include({ resourceId: s.staff[0].resourceId, startTime: at(day, '14:00') });
    const segments = await segmentsOf(b.id);
    expect(segments.map((g) => [g.startTime.toISOString(), g.endTime.toISOString(), g.isActive])).to.deep.equal([[at(day, '14:00'), at(day, '15:00'), true]]);
    const moved = (await auditOf(s, b.id)).filter((e) => e.action === 'RESCHEDULED');
    expect(moved).to.have.length(1);
    expect(moved[0].actorRole).to.equal('CUSTOMER');
    expect(moved[0].changes.startTime).to.deep.equal({ from: at(day, '10:00'), to: at(day, '14:00') });

    const rescheduled = await eventually(async () => (await mailsOf(b.email, 'RESCHEDULED'))[0], 'the RESCHEDULED e-mail');
    expect(rescheduled.text).to.contain('kl. 14:00–15:00');
    const updated = rescheduled.attachments!.find((a) => a.calendarMethod === 'REQUEST')!;
    expect(line(updated.content, 'UID:')).to.equal(line(invite.content, 'UID:'));
    expect(sequenceOf(updated.content)).to.equal(sequenceOf(invite.content) + 1);
    expect(line(updated.content, 'DTSTART;')).to.equal(`DTSTART;TZID=Europe/Oslo:${day.replace(/-/g, '')}T140000`);

    const offer = await eventually(async () => (await sms.sentTo(waiter.phone)).find((m) => m.meta?.kind === 'WAITLIST_OFFER'), 'the offer of the freed time');
    expect(offer.text).to.contain('kl. 10:00');
    const round = await (await knex())('waitlist_rounds').where({ tenantId: s.tenant.id }).first();
    expect(round).to.include({ cause: 'MOVED', resourceId: s.staff[0].resourceId });
    expect(round.windowStart.toISOString()).to.equal(at(day, '10:00'));

    await workflowSettled(`booking:${b.id}`);
    expect(await mailsOf(b.email, 'RESCHEDULED'), 'one e-mail').to.have.length(1);
    expect(
      (await sms.sentTo(b.phone)).filter((m) => m.meta?.kind === 'RESCHEDULED'),
      'one SMS',
    ).to.have.length(1);
    expect((await mailsOf(b.email, 'CANCELLED')).length + (await mailsOf(b.email, 'RECEIVED')).length, 'no cancel-and-rebook messages').to.equal(0);
    expect(await metricsText()).to.include(`bookings_moved{tenant_id="${s.tenant.id}",by="CUSTOMER"} 1`);
  });

  it('when the customer moves by the contact phone or as the signed-in owner of the booking then it moves; a wrong phone, another customer or no proof at all are refused', async () => {
    const s = await bookingSalon({ settings: { autoConfirm: true } });
    const day = localDay(4);
    const guest = await book(s, day, '09:00');
    const byPhone = await move(s, guest, at(day, '11:00'), { phone: guest.phone.replace('+47', '').replace(/(\d{3})(\d{2})(\d{3})/, '$1 $2 $3') });
    expect(byPhone.status, JSON.stringify(byPhone.body)).to.equal(200);
    expect(byPhone.body.data.startTime).to.equal(at(day, '11:00'));
    const wrongPhone = await move(s, guest, at(day, '12:00'), { phone: phone() });
    expect([wrongPhone.status, wrongPhone.body.error.code]).to.deep.equal([404, 'BOOKING_NOT_FOUND']);
    const noProof = await move(s, guest, at(day, '12:00'), {});
    expect([noProof.status, noProof.body.error.code], 'nobody said who they are').to.deep.equal([401, 'UNAUTHORIZED']);

    const owner = await signInCustomer();
    const other = await signInCustomer();
    const own = await book(s, day, '13:00', owner.accessToken);
    const mine = await move(s, own, at(day, '15:00'), {}, owner.accessToken);
    expect(mine.status, JSON.stringify(mine.body)).to.equal(200);
    expect(mine.body.data.startTime).to.equal(at(day, '15:00'));
    const theirs = await move(s, own, at(day, '16:00'), {}, other.accessToken);
    expect([theirs.status, theirs.body.error.code]).to.deep.equal([404, 'BOOKING_NOT_FOUND']);
    expect((await bookingRow(own.id)).startTime.toISOString()).to.equal(at(day, '15:00'));
  });

  it('when the time left before the current start is exactly cancellationHours then the move is allowed; one millisecond less is 422 MOVE_WINDOW_CLOSED and nothing changes', async () => {
    const { platform } = await stack();
    const s = await bookingSalon({ settings: { autoConfirm: true, cancellationHours: 48 } });
    const day = localDay(5);
    const first = await book(s, day, '10:00');
    const second = await book(s, day, '12:00');
    const clockAt = (instant: number) => request(createApp({ ...platform.deps, now: () => new Date(instant) }, { validateResponses: true }));
    const moveAt = (instant: number, b: Booked, to: string) =>
      clockAt(instant).post(`/api/public/tenants/${s.tenant.slug}/bookings/${b.id}/move`).send({ startTime: to, token: b.token });

    const atLimit = await moveAt(Date.parse(first.startTime) - 48 * HOUR, first, at(day, '14:00'));
    expect(atLimit.status, JSON.stringify(atLimit.body)).to.equal(200);
    expect(atLimit.body.data.startTime).to.equal(at(day, '14:00'));

    const pastLimit = await moveAt(Date.parse(second.startTime) - 48 * HOUR + 1, second, at(day, '15:00'));
    expect([pastLimit.status, pastLimit.body.error.code]).to.deep.equal([422, 'MOVE_WINDOW_CLOSED']);
    expect(pastLimit.body.error.message).to.contain('48 hours');
    expect(await bookingRow(second.id)).to.include({ version: 1 });
    expect((await bookingRow(second.id)).startTime.toISOString()).to.equal(at(day, '12:00'));
  });

  it("when the new time is taken, passed, past the booking window or outside working hours then 409 / 422 with the spec's codes and the booking stays where it was", async () => {
    const s = await bookingSalon({ settings: { autoConfirm: true, maxBookingDaysInAdvance: 10 } });
    const day = localDay(3);
    const b = await book(s, day, '10:00');
    await book(s, day, '13:00');
    const cases: [string, number, string][] = [
      [at(day, '13:30'), 409, 'BOOKING_CONFLICT'],
      [new Date(Date.now() - HOUR).toISOString(), 422, 'BOOKING_IN_PAST'],
      [at(localDay(11), '10:00'), 422, 'DATE_BEYOND_BOOKING_WINDOW'],
      [at(day, '18:00'), 422, 'RESOURCE_NOT_AVAILABLE'],
    ];
    for (const [to, status, code] of cases) {
      const res = await move(s, b, to);
      expect([res.status, res.body.error?.code], to).to.deep.equal([status, code]);
    }
    const row = await bookingRow(b.id);
    expect(row.version).to.equal(1);
    expect(row.startTime.toISOString()).to.equal(at(day, '10:00'));
    expect((await segmentsOf(b.id)).map((g) => g.startTime.toISOString())).to.deep.equal([at(day, '10:00')]);
    const moving = await move(s, b, at(day, '10:30'));
    expect(moving.status, 'its own old time counts as free').to.equal(200);
  });

  it('when a cancelled booking is moved then 409 BOOKING_NOT_MODIFIABLE', async () => {
    const s = await bookingSalon({ settings: { autoConfirm: true } });
    const b = await book(s, localDay(3), '10:00');
    expect((await call('post', `/public/tenants/${s.tenant.slug}/bookings/${b.id}/cancel`, undefined, { token: b.token })).status).to.equal(200);
    const res = await move(s, b, at(localDay(3), '12:00'));
    expect([res.status, res.body.error.code]).to.deep.equal([409, 'BOOKING_NOT_MODIFIABLE']);
  });

  it('when a booking with a paid deposit moves then the deposit stays with it: no new payment, no refund, depositStatus unchanged', async () => {
    const s = await depositSalon();
    const day = localDay(3);
    const created = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
      startTime: at(day, '10:00'),
      items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      customer: { name: 'Dina Depositum', phone: phone() },
    });
    expect(created.status).to.equal(201);
    const b = { id: created.body.data.id, token: created.body.data.manageToken } as Booked;
    await clickCheckout((await paymentPage(s, { ...b, status: 'PENDING', paymentRequired: true, phone: '' })).redirectUrl!, 'pay');
    await eventually(async () => (await bookingRow(b.id)).depositStatus === 'PAID', 'the deposit to be paid');
    const before = await paymentRows(b.id);
    expect(before).to.have.length(1);

    const res = await move(s, b, at(day, '15:00'));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const row = await bookingRow(b.id);
    expect(row).to.include({ depositStatus: 'PAID', cancellationFee: 0 });
    const after = await paymentRows(b.id);
    expect(
      after.map((p: { id: string; status: string; amount: number; refundedAmount: number }) => [p.id, p.status, p.amount, p.refundedAmount]),
    ).to.deep.equal(before.map((p: { id: string; status: string; amount: number; refundedAmount: number }) => [p.id, p.status, p.amount, p.refundedAmount]));
    expect(await (await knex())('payment_refunds').where({ paymentId: before[0].id })).to.have.length(0);
  });

  it('when the salon moves a booking through PATCH then the same happens: the freed time is offered, one message with SEQUENCE + 1, an audit entry by the owner, counted by OWNER', async () => {
    const { sms } = await stack();
    const s = await bookingSalon({ settings: { autoConfirm: true } });
    const day = localDay(4);
    const b = await book(s, day, '10:00');
    const confirmed = await eventually(async () => (await mailsOf(b.email, 'CONFIRMED'))[0], 'the CONFIRMED e-mail');
    const waiter = { name: 'Siri Salong', phone: phone() };
    expect(
      (await call('post', `/public/tenants/${s.tenant.slug}/waitlist`, undefined, { serviceIds: [s.serviceId], fromDate: day, toDate: day, customer: waiter }))
        .status,
    ).to.equal(201);
    const res = await call('patch', `/bookings/${b.id}`, s.owner.token, { startTime: at(day, '15:00') });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const offer = await eventually(async () => (await sms.sentTo(waiter.phone)).find((m) => m.meta?.kind === 'WAITLIST_OFFER'), 'the offer of the freed time');
    expect(offer.text).to.contain('kl. 10:00');
    const rescheduled = await eventually(async () => (await mailsOf(b.email, 'RESCHEDULED'))[0], 'the RESCHEDULED e-mail');
    expect(sequenceOf(rescheduled.attachments!.find((a) => a.calendarMethod === 'REQUEST')!.content)).to.equal(
      sequenceOf(confirmed.attachments!.find((a) => a.calendarMethod === 'REQUEST')!.content) + 1,
    );
    expect((await auditOf(s, b.id)).filter((e) => e.action === 'RESCHEDULED').map((e) => e.actorRole)).to.deep.equal(['OWNER']);
    await workflowSettled(`booking:${b.id}`);
    expect(await mailsOf(b.email, 'RESCHEDULED')).to.have.length(1);
    expect(await metricsText()).to.include(`bookings_moved{tenant_id="${s.tenant.id}",by="OWNER"} 1`);
  });

  describe('races (concurrent HTTP requests on one booking)', () => {
    it('when a move and a cancellation of one booking race then it ends in one state: cancelled, at the time the audit log says, no active segment, one version per change that won', async () => {
      const s = await bookingSalon({ settings: { autoConfirm: true } });
      const day = localDay(6);
      const outcomes = new Set<string>();
      for (let round = 0; round < 6; round++) {
        const b = await book(s, day, `${String(9 + round).padStart(2, '0')}:00`);
        const target = at(localDay(7), `${String(9 + round).padStart(2, '0')}:00`);
        const [moved, cancelled] = await Promise.all([
          move(s, b, target),
          call('post', `/public/tenants/${s.tenant.slug}/bookings/${b.id}/cancel`, undefined, { token: b.token }),
        ]);
        expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
        const row = await bookingRow(b.id);
        expect(row.status).to.equal('CANCELLED');
        expect(
          (await segmentsOf(b.id)).every((g) => !g.isActive),
          'no segment blocks time',
        ).to.equal(true);
        const log = await auditOf(s, b.id);
        if (moved.status === 200) {
          outcomes.add('moved, then cancelled');
          expect(log.map((e) => e.action)).to.deep.equal(['CREATED', 'RESCHEDULED', 'CANCELLED']);
          expect(row.startTime.toISOString()).to.equal(target);
          expect(row.version).to.equal(3);
        } else {
          outcomes.add('cancelled, move refused');
          expect([moved.status, moved.body.error.code]).to.deep.equal([409, 'BOOKING_NOT_MODIFIABLE']);
          expect(log.map((e) => e.action)).to.deep.equal(['CREATED', 'CANCELLED']);
          expect(row.startTime.toISOString()).to.equal(b.startTime);
          expect(row.version).to.equal(2);
        }
        expect((await segmentsOf(b.id)).map((g) => g.startTime.toISOString())).to.deep.equal([row.startTime.toISOString()]);
      }
      expect(outcomes.size, `outcomes seen: ${[...outcomes].join('; ')}`).to.be.greaterThan(0);
    });

    it('when two moves of one booking race then both run one after the other (the second from where the first left it) and it ends where the second put it, with its segments there only', async () => {
      const s = await bookingSalon({ settings: { autoConfirm: true } });
      const day = localDay(8);
      for (let round = 0; round < 4; round++) {
        const hour = 9 + 2 * round;
        const b = await book(s, day, `${String(hour).padStart(2, '0')}:00`);
        const targets = [at(localDay(9), `${String(hour).padStart(2, '0')}:00`), at(localDay(9), `${String(hour + 1).padStart(2, '0')}:00`)];
        const results = await Promise.all(targets.map((t) => move(s, b, t)));
        expect(
          results.map((r) => r.status),
          JSON.stringify(results.map((r) => r.body)),
        ).to.deep.equal([200, 200]);
        const row = await bookingRow(b.id);
        const moves = (await auditOf(s, b.id)).filter((e) => e.action === 'RESCHEDULED');
        expect(moves).to.have.length(2);
        // created_at is each transaction's start, so the log's order is not the commit order: follow the chain
        const first = moves.find((m) => m.changes.startTime.from === b.startTime)!;
        const second = moves.find((m) => m !== first)!;
        expect(second.changes.startTime.from, 'the second move started where the first ended').to.equal(first.changes.startTime.to);
        expect(row.startTime.toISOString()).to.equal(second.changes.startTime.to);
        expect(row.version).to.equal(3);
        expect((await segmentsOf(b.id)).map((g) => g.startTime.toISOString())).to.deep.equal([row.startTime.toISOString()]);
      }
    });

    it('when two bookings race to move into the same free time then one gets it and the other gets 409 BOOKING_CONFLICT and stays', async () => {
      const s = await bookingSalon({ settings: { autoConfirm: true } });
      const day = localDay(10);
      const a = await book(s, day, '09:00');
      const b = await book(s, day, '11:00');
      const target = at(day, '14:00');
      const results = await Promise.all([move(s, a, target), move(s, b, target)]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      const loser = results[0].status === 409 ? results[0] : results[1];
      expect(loser.body.error.code).to.equal('BOOKING_CONFLICT');
      const rows = await Promise.all([bookingRow(a.id), bookingRow(b.id)]);
      expect(rows.map((r) => r.startTime.toISOString()).sort()).to.deep.equal([at(day, results[0].status === 200 ? '11:00' : '09:00'), target].sort());
    });
  });
});

describe("limits on a customer's moves (docs/rules/limits.md#rate-limits, docs/rules/booking.md#moving-a-booking)", function () {
  this.timeout(120_000);

  /** A move through `app` (an app of its own, for its own rate-limit counters). */
  const moveOn = (app: Parameters<typeof request>[0], s: BookingSalon, b: Booked, startTime: string) =>
    request(app).post(`/api/public/tenants/${s.tenant.slug}/bookings/${b.id}/move`).send({ startTime, token: b.token });

  it('when one client address asks 10 moves in a minute then all pass the limiter, with the headers; the 11th is 429 RATE_LIMIT_EXCEEDED', async () => {
    const app = await appWith({ RATE_LIMIT_BOOKING_MOVE: '10' });
    const s = await bookingSalon({ settings: { autoConfirm: true } });
    const day = localDay(3);
    const bookings = [await book(s, day, '09:00'), await book(s, day, '11:00')];
    for (let i = 0; i < 10; i++) {
      // to the time each already has: nothing moves, so no move is used up
      const b = bookings[i % 2];
      const res = await moveOn(app, s, b, b.startTime);
      expect([res.status, res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']], `move ${i + 1}`).to.deep.equal([200, '10', String(9 - i)]);
    }
    const past = await moveOn(app, s, bookings[0], bookings[0].startTime);
    expect([past.status, past.body.error?.code]).to.deep.equal([429, 'RATE_LIMIT_EXCEEDED']);
  });

  it('when one booking is asked 3 moves in a minute, from anywhere and on the manage page too, then the 4th is 429 RATE_LIMIT_EXCEEDED; another booking is still moved', async () => {
    const app = await appWith({ RATE_LIMIT_BOOKING_MOVE_PER_BOOKING: '3', TRUST_PROXY: '1' });
    const s = await bookingSalon({ settings: { autoConfirm: true } });
    const day = localDay(3);
    const b = await book(s, day, '09:00');
    const other = await book(s, day, '13:00');
    for (let i = 0; i < 2; i++) expect((await moveOn(app, s, b, b.startTime).set('X-Forwarded-For', `10.0.0.${i}`)).status, `move ${i + 1}`).to.equal(200);
    const onPage = await request(app).post(`/${s.tenant.slug}/bookings/${b.id}/move`).type('form').send({ token: b.token, time: b.startTime });
    expect(onPage.status, 'the manage page counts with the API').to.equal(303);
    const past = await moveOn(app, s, b, b.startTime);
    expect([past.status, past.body.error?.code, past.headers['x-ratelimit-limit']]).to.deep.equal([429, 'RATE_LIMIT_EXCEEDED', '3']);
    expect((await moveOn(app, s, other, other.startTime)).status).to.equal(200);
  });

  it('when the customer has moved a booking 3 times then the 4th move is 422 MOVE_LIMIT_REACHED and the manage page says to call the salon; the salon still moves it, uncounted', async () => {
    const s = await bookingSalon({ settings: { autoConfirm: true } });
    const day = localDay(4);
    const b = await book(s, day, '09:00');
    for (const time of ['10:00', '11:00', '12:00']) {
      const res = await move(s, b, at(day, time));
      expect(res.status, `${time}: ${JSON.stringify(res.body)}`).to.equal(200);
    }
    const fourth = await move(s, b, at(day, '13:00'));
    expect([fourth.status, fourth.body.error?.code]).to.deep.equal([422, 'MOVE_LIMIT_REACHED']);
    expect((await bookingRow(b.id)).startTime.toISOString()).to.equal(at(day, '12:00'));
    const page = await (await http()).get(`/${s.tenant.slug}/bookings/${b.id}?token=${encodeURIComponent(b.token)}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('Timen er flyttet så mange ganger som den kan flyttes på nett');
    expect(page.text).to.not.contain('Velg et annet tidspunkt');
    const bySalon = await call('patch', `/bookings/${b.id}`, s.owner.token, { startTime: at(day, '14:00') });
    expect(bySalon.status, JSON.stringify(bySalon.body)).to.equal(200);
    expect((await move(s, b, at(day, '15:00'))).body.error?.code).to.equal('MOVE_LIMIT_REACHED');
  });

  it("when a guest's number is of another country than the salon's then its moves send it no SMS; the e-mail tells them (docs/rules/messages.md#numbers-of-other-countries)", async () => {
    const { sms } = await stack();
    const s = await bookingSalon({ settings: { autoConfirm: true } });
    const day = localDay(3);
    const abroad = `+23480${crypto.randomInt(10_000_000, 99_999_999)}`;
    const email = `abroad-${crypto.randomUUID()}@example.test`;
    const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
      startTime: at(day, '10:00'),
      items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      customer: { name: 'Ada Obi', phone: abroad, email },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const b: Booked = { id: res.body.data.id, token: res.body.data.manageToken, phone: abroad, email, startTime: res.body.data.startTime };
    await eventually(async () => (await mailsOf(email, 'CONFIRMED'))[0], 'the CONFIRMED e-mail');
    expect((await move(s, b, at(day, '14:00'))).status).to.equal(200);
    await eventually(async () => (await mailsOf(email, 'RESCHEDULED'))[0], 'the RESCHEDULED e-mail');
    await workflowSettled(`booking:${b.id}`);
    expect(await sms.sentTo(abroad)).to.deep.equal([]);
    const unsent = await (await knex())('booking_notifications').where({ bookingId: b.id, channel: 'SMS' });
    expect(unsent.map((n: { sentAt: Date | null }) => n.sentAt)).to.deep.equal([null, null]);
  });
});
