// The waitlist's HTTP behaviour (docs/rules/waitlist.md): joining, viewing and leaving with the
// token, the 60-day range, one entry per phone over overlapping dates, the hold setting's limits,
// staff and customer lists, rate limits, other salons, and holds blocking time like bookings.
import { expect } from 'chai';
import crypto from 'node:crypto';
import request from 'supertest';
import { call } from '../../support/http';
import { appWith, stack } from '../../support/stack';
import { createSalon } from '../../support/factories';
import { signInCustomer } from '../../support/customers';
import { at, bookingSalon, colourSalon, knex, localDay, type BookingSalon } from '../../support/booking-fixtures';
import { eventually } from '../../support/eventually';
import type { RecordingSignaller } from '../../support/recording-signaller';

function phone(): string {
  return `+47${crypto.randomInt(40000000, 49999999)}`;
}

function joinBody(s: BookingSalon, fields: Record<string, unknown> = {}) {
  return {
    serviceIds: [s.serviceId],
    fromDate: localDay(1),
    toDate: localDay(7),
    customer: { name: 'Vera Venter', phone: phone(), email: 'vera@example.test' },
    ...fields,
  };
}

async function join(s: BookingSalon, fields: Record<string, unknown> = {}, token?: string) {
  return call('post', `/public/tenants/${s.tenant.slug}/waitlist`, token, joinBody(s, fields));
}

describe('waitlist (HTTP)', () => {
  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  describe('joining, viewing and leaving', () => {
    it('when a guest joins then 201 with the entry and a token, the row is WAITING and the entry workflow is signalled', async () => {
      const s = await bookingSalon();
      const res = await join(s, { earliestTime: '10:00', latestTime: '14:00' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const entry = res.body.data;
      expect(entry).to.include({
        status: 'WAITING',
        source: 'PUBLIC',
        resourceId: null,
        earliestTime: '10:00',
        latestTime: '14:00',
        fromDate: localDay(1),
        toDate: localDay(7),
      });
      expect(entry.token).to.be.a('string').with.length.above(20);
      const row = await (await knex())('waitlist_entries').where({ id: entry.id }).first();
      expect(row).to.include({ status: 'WAITING', version: 1, tenantId: s.tenant.id });
      expect(row.tokenHash).to.not.equal(entry.token);
      const signalled = ((await stack()).platform.deps.signaller as RecordingSignaller).sent.filter((x) => x.ref.workflowId === `waitlist-entry:${entry.id}`);
      expect(signalled.map((x) => [x.ref.workflowType, x.event.type, x.event.entityVersion])).to.deep.equal([
        ['waitlistEntryWorkflow', 'WaitlistEntryJoined', 1],
      ]);
    });

    it('when the entry is read with its token then 200; a wrong token or another salon is 404 WAITLIST_ENTRY_NOT_FOUND', async () => {
      const s = await bookingSalon();
      const other = await createSalon();
      const { id, token } = (await join(s)).body.data;
      const ok = await call('get', `/public/tenants/${s.tenant.slug}/waitlist/${id}?token=${token}`);
      expect(ok.status).to.equal(200);
      expect(ok.body.data).to.include({ id, status: 'WAITING' });
      expect(ok.body.data).to.not.have.property('token');
      const wrong = await call('get', `/public/tenants/${s.tenant.slug}/waitlist/${id}?token=${token.slice(0, -2)}xx`);
      expect([wrong.status, wrong.body.error.code]).to.deep.equal([404, 'WAITLIST_ENTRY_NOT_FOUND']);
      const elsewhere = await call('get', `/public/tenants/${other.tenant.slug}/waitlist/${id}?token=${token}`);
      expect([elsewhere.status, elsewhere.body.error.code]).to.deep.equal([404, 'WAITLIST_ENTRY_NOT_FOUND']);
      const removeElsewhere = await call('delete', `/public/tenants/${other.tenant.slug}/waitlist/${id}?token=${token}`);
      expect(removeElsewhere.status).to.equal(404);
    });

    it('when the customer leaves with the token then 204 and the entry is LEFT; leaving again is 204 too', async () => {
      const s = await bookingSalon();
      const { id, token } = (await join(s)).body.data;
      expect((await call('delete', `/public/tenants/${s.tenant.slug}/waitlist/${id}?token=${token}`)).status).to.equal(204);
      expect((await (await knex())('waitlist_entries').where({ id }).first()).status).to.equal('LEFT');
      expect((await call('delete', `/public/tenants/${s.tenant.slug}/waitlist/${id}?token=${token}`)).status).to.equal(204);
      expect((await call('delete', `/public/tenants/${s.tenant.slug}/waitlist/${id}?token=wrong`)).status).to.equal(404);
    });
  });

  describe('the date range (at most 60 days)', () => {
    it('when toDate is 60 days after fromDate then 201; 61 days is 400 VALIDATION_ERROR naming toDate', async () => {
      const s = await bookingSalon();
      expect((await join(s, { fromDate: localDay(0), toDate: localDay(60) })).status).to.equal(201);
      const past = await join(s, { fromDate: localDay(0), toDate: localDay(61) });
      expect([past.status, past.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
      expect(past.body.error.details.map((d: { field: string }) => d.field)).to.deep.equal(['toDate']);
    });

    it('when fromDate is in the past, toDate before fromDate or latestTime not after earliestTime then 400 naming the field', async () => {
      const s = await bookingSalon();
      const cases: [Record<string, unknown>, string][] = [
        [{ fromDate: localDay(-1), toDate: localDay(3) }, 'fromDate'],
        [{ fromDate: localDay(3), toDate: localDay(2) }, 'toDate'],
        [{ earliestTime: '14:00', latestTime: '14:00' }, 'latestTime'],
        [{ earliestTime: '25:00' }, 'earliestTime'],
      ];
      for (const [fields, field] of cases) {
        const res = await join(s, fields);
        expect(res.status, JSON.stringify(fields)).to.equal(400);
        expect(JSON.stringify(res.body.error.details)).to.contain(field);
      }
    });

    it("when a service or staff member is not this salon's then 404", async () => {
      const s = await bookingSalon();
      const other = await bookingSalon();
      expect((await join(s, { serviceIds: [other.serviceId] })).body.error.code).to.equal('SERVICE_NOT_FOUND');
      expect((await join(s, { resourceId: other.staff[0].resourceId })).body.error.code).to.equal('RESOURCE_NOT_FOUND');
    });
  });

  describe('one entry per phone and salon over overlapping dates', () => {
    it('when the phone already waits over overlapping dates then a public join answers as any join with a decoy whose link opens and leaves like an entry but waits for nothing; staff get 409 WAITLIST_ENTRY_EXISTS; other dates, another salon or after leaving are fine', async () => {
      const s = await bookingSalon();
      const other = await bookingSalon();
      const customer = { name: 'Dobbel', phone: phone() };
      const first = await join(s, { fromDate: localDay(1), toDate: localDay(5), customer });
      expect(first.status).to.equal(201);
      const overlap = await join(s, { fromDate: localDay(5), toDate: localDay(9), customer });
      expect([overlap.status, overlap.body.data.status, overlap.body.data.fromDate]).to.deep.equal([201, 'WAITING', localDay(5)]);
      expect(Object.keys(overlap.body.data).sort()).to.deep.equal(Object.keys(first.body.data).sort());
      const db = await knex();
      expect(
        (await db('waitlist_entries').where({ tenantId: s.tenant.id, contactPhone: customer.phone, decoy: false })).map((e: { id: string }) => e.id),
      ).to.deep.equal([first.body.data.id]);
      // the answered entry is a decoy: its link opens what was asked, as a new entry's does, and leaves it
      const decoyLink = `/public/tenants/${s.tenant.slug}/waitlist/${overlap.body.data.id}?token=${overlap.body.data.token}`;
      const seen = await call('get', decoyLink);
      expect([seen.status, seen.body.data?.status, seen.body.data?.fromDate, seen.body.data?.toDate]).to.deep.equal([200, 'WAITING', localDay(5), localDay(9)]);
      expect(Object.keys(seen.body.data).sort()).to.deep.equal(
        Object.keys((await call('get', `/public/tenants/${s.tenant.slug}/waitlist/${first.body.data.id}?token=${first.body.data.token}`)).body.data).sort(),
      );
      // it waits for nothing: not on the salon's list, no workflow told of it
      const listed = await call('get', '/waitlist', s.owner.token);
      expect(listed.body.data.map((e: { id: string }) => e.id))
        .to.include(first.body.data.id)
        .and.not.include(overlap.body.data.id);
      const signaller = (await stack()).platform.deps.signaller as RecordingSignaller;
      const signalsOf = (id: string) => signaller.sent.filter((x) => x.ref.workflowId === `waitlist-entry:${id}`);
      expect(signalsOf(first.body.data.id)).to.have.length.above(0);
      expect(signalsOf(overlap.body.data.id)).to.deep.equal([]);
      expect((await call('delete', decoyLink)).status).to.equal(204);
      expect((await call('get', decoyLink)).body.data.status).to.equal('LEFT');
      expect(signalsOf(overlap.body.data.id)).to.deep.equal([]);
      expect((await call('get', `/public/tenants/${s.tenant.slug}/waitlist/${first.body.data.id}?token=${first.body.data.token}`)).body.data.status).to.equal(
        'WAITING',
      );
      // past its last date a decoy reads as an entry its workflow ended would
      const late = await join(s, { fromDate: localDay(2), toDate: localDay(3), customer });
      await db('waitlist_entries')
        .where({ id: late.body.data.id, decoy: true })
        .update({ fromDate: localDay(-3), toDate: localDay(-1) });
      const lateLink = `/public/tenants/${s.tenant.slug}/waitlist/${late.body.data.id}?token=${late.body.data.token}`;
      expect((await call('get', lateLink)).body.data.status).to.equal('EXPIRED');
      const leaveLate = await call('delete', lateLink);
      expect([leaveLate.status, leaveLate.body.error?.code]).to.deep.equal([409, 'WAITLIST_ENTRY_CLOSED']);
      const staffAdd = await call('post', '/waitlist', s.owner.token, joinBody(s, { fromDate: localDay(2), toDate: localDay(3), customer }));
      expect([staffAdd.status, staffAdd.body.error?.code]).to.deep.equal([409, 'WAITLIST_ENTRY_EXISTS']);
      expect((await join(s, { fromDate: localDay(6), toDate: localDay(9), customer })).status).to.equal(201);
      expect((await join(other, { fromDate: localDay(1), toDate: localDay(5), customer })).status).to.equal(201);
      await call('delete', `/public/tenants/${s.tenant.slug}/waitlist/${first.body.data.id}?token=${first.body.data.token}`);
      expect((await join(s, { fromDate: localDay(2), toDate: localDay(4), customer })).status).to.equal(201);
    });

    it("when joins with a phone that already waits come 3 times then the number's owner gets their own link again each time, and after the 3rd nothing more is sent", async () => {
      const { sms } = await stack();
      const s = await bookingSalon();
      const customer = { name: 'Eier', phone: phone() };
      const first = (await join(s, { fromDate: localDay(1), toDate: localDay(5), customer })).body.data;
      const links = async () =>
        (await sms.sentTo(customer.phone)).filter((m) => m.meta?.kind === 'WAITLIST_JOINED' && m.text.includes(`/waitlist/${first.id}?token=`)).length;
      await eventually(async () => ((await links()) === 1 ? true : undefined), 'the first link');
      for (let again = 1; again <= 4; again++) {
        const res = await join(s, { fromDate: localDay(2), toDate: localDay(3), customer: { name: 'Fremmed', phone: customer.phone } });
        expect(res.status, `join ${again}`).to.equal(201);
        const expected = 1 + Math.min(again, 3);
        await eventually(async () => ((await links()) === expected ? true : undefined), `the link sent ${expected} times`);
      }
      await new Promise((r) => setTimeout(r, 1500));
      expect(await links(), 'the 4th join sends nothing').to.equal(4);
      const row = await (await knex())('waitlist_entries').where({ id: first.id }).first();
      expect(row.linkResends).to.equal(3);
    });
  });

  describe('settings', () => {
    it('when waitlistHoldMinutes is 1 or 120 then it is stored; 0 and 121 are 400; waitlistMode takes FIRST_IN_LINE and BROADCAST only', async () => {
      const s = await bookingSalon();
      expect(s.tenant.settings).to.include({ waitlistMode: 'FIRST_IN_LINE', waitlistHoldMinutes: 15 });
      for (const minutes of [1, 120]) {
        const res = await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { waitlistHoldMinutes: minutes } });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.data.settings.waitlistHoldMinutes).to.equal(minutes);
      }
      for (const minutes of [0, 121]) {
        const res = await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { waitlistHoldMinutes: minutes } });
        expect([res.status, res.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
      }
      expect(
        (await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { waitlistMode: 'BROADCAST' } })).body.data.settings.waitlistMode,
      ).to.equal('BROADCAST');
      expect((await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { waitlistMode: 'HIGHEST_VALUE' } })).status).to.equal(400);
    });
  });

  describe('staff', () => {
    it("when staff add a caller, list with filters and remove the entry then 201, the page and 204; another salon's entry is 404", async () => {
      const s = await bookingSalon();
      const other = await bookingSalon();
      const added = await call('post', '/waitlist', s.staff[0].user.token, joinBody(s, { resourceId: s.staff[0].resourceId }));
      expect(added.status, JSON.stringify(added.body)).to.equal(201);
      expect(added.body.data).to.include({ source: 'STAFF', resourceId: s.staff[0].resourceId });
      await join(s, { fromDate: localDay(20), toDate: localDay(25) });
      const onDay3 = await call('get', `/waitlist?date=${localDay(3)}&status=WAITING&serviceId=${s.serviceId}`, s.owner.token);
      expect(onDay3.status).to.equal(200);
      expect(onDay3.body.data.map((e: { id: string }) => e.id)).to.deep.equal([added.body.data.id]);
      expect(onDay3.body.meta).to.include({ total: 1, page: 1 });
      expect((await call('get', '/waitlist', s.owner.token)).body.meta.total).to.equal(2);
      expect((await call('delete', `/waitlist/${added.body.data.id}`, other.owner.token)).status).to.equal(404);
      expect((await call('delete', `/waitlist/${added.body.data.id}`, s.owner.token)).status).to.equal(204);
      expect((await call('get', '/waitlist?status=LEFT', s.owner.token)).body.data.map((e: { id: string }) => e.id)).to.deep.equal([added.body.data.id]);
      expect((await call('get', '/waitlist', other.owner.token)).body.meta.total).to.equal(0);
      expect((await call('get', '/waitlist')).status).to.equal(401);
    });
  });

  describe('the signed-in customer', () => {
    it('when a signed-in customer joins then GET /customer/me/waitlist lists the entry with its salon', async () => {
      const s = await bookingSalon();
      const c = await signInCustomer();
      const joined = await join(s, {}, c.accessToken);
      expect(joined.status).to.equal(201);
      await join(s); // a guest's entry is not theirs
      const mine = await call('get', '/customer/me/waitlist', c.accessToken);
      expect(mine.status).to.equal(200);
      expect(mine.body.data).to.have.length(1);
      expect(mine.body.data[0]).to.deep.include({ id: joined.body.data.id, tenant: { name: s.tenant.name, slug: s.tenant.slug } });
      expect((await call('get', '/customer/me/waitlist')).status).to.equal(401);
    });
  });

  describe('rate limit (like booking creation, 20 per minute)', () => {
    it('when 20 joins are sent then all pass the limiter; the 21st is 429 RATE_LIMIT_EXCEEDED', async () => {
      const s = await bookingSalon();
      const app = await appWith({ RATE_LIMIT_BOOKING_CREATE: '20' });
      const send = () => request(app).post(`/api/public/tenants/${s.tenant.slug}/waitlist`).send(joinBody(s));
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await send()).status);
      expect(statuses.every((x) => x === 201)).to.equal(true);
      const last = await send();
      expect([last.status, last.body.error.code]).to.deep.equal([429, 'RATE_LIMIT_EXCEEDED']);
      expect(last.headers['x-ratelimit-limit']).to.equal('20');
    });
  });

  describe('holds block time like bookings', () => {
    it("when a round holds a staff member's time then a public booking over it is 409 BOOKING_CONFLICT and availability does not offer it", async () => {
      const s = await bookingSalon();
      const db = await knex();
      const day = localDay(3);
      const [round] = await db('waitlist_rounds')
        .insert({ tenantId: s.tenant.id, cause: 'CANCELLED', resourceId: s.staff[0].resourceId, windowStart: at(day, '10:00'), windowEnd: at(day, '11:00') })
        .returning('*');
      await db('booking_segments').insert({
        tenantId: s.tenant.id,
        waitlistRoundId: round.id,
        resourceType: 'staff',
        resourceId: s.staff[0].resourceId,
        kind: 'WORK',
        phaseIndex: 0,
        startTime: at(day, '10:00'),
        endTime: at(day, '11:00'),
      });
      const booking = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
        startTime: at(day, '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: { name: 'Portal', phone: phone() },
      });
      expect([booking.status, booking.body.error?.code]).to.deep.equal([409, 'BOOKING_CONFLICT']);
      const slots = await call('get', `/public/tenants/${s.tenant.slug}/availability?date=${day}&serviceId=${s.serviceId}&resourceId=${s.staff[0].resourceId}`);
      expect(slots.status).to.equal(200);
      const starts = slots.body.data.slots.map((x: { localTime: string }) => x.localTime);
      expect(starts).to.include('11:00').and.not.include('10:00').and.not.include('10:30').and.not.include('09:15');
      await db('booking_segments').where({ waitlistRoundId: round.id }).delete();
      const after = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
        startTime: at(day, '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: { name: 'Portal', phone: phone() },
      });
      expect(after.status).to.equal(201);
    });
  });

  describe('time frees up beyond bookings', () => {
    async function offerSms(toPhone: string) {
      const { sms } = await stack();
      return eventually(async () => (await sms.sentTo(toPhone)).find((m) => m.meta?.kind === 'WAITLIST_OFFER'), `an offer SMS to ${toPhone}`);
    }

    it('when approved time-off is deleted then the waitlister of that day is offered the time', async () => {
      const s = await bookingSalon();
      const day = localDay(4);
      const off = await call('post', `/resources/${s.staff[0].resourceId}/time-offs`, s.owner.token, { type: 'vacation', startDate: day, endDate: day });
      expect(off.status, JSON.stringify(off.body)).to.equal(201);
      const customer = { name: 'Tale', phone: phone() };
      expect((await join(s, { fromDate: day, toDate: day, customer })).status).to.equal(201);
      expect((await call('delete', `/resources/${s.staff[0].resourceId}/time-offs/${off.body.data.id}`, s.owner.token)).status).to.equal(204);
      const round = await (await knex())('waitlist_rounds').where({ tenantId: s.tenant.id }).first();
      expect(round).to.include({ cause: 'TIME_OFF_CHANGED', resourceId: s.staff[0].resourceId });
      expect((await offerSms(customer.phone)).text).to.contain('kl. 09:00');
    });

    it('when a day-off override is removed then the waitlister of that day is offered the time; nobody waiting opens no round', async () => {
      const s = await bookingSalon();
      const day = localDay(5);
      const override = await call('post', `/resources/${s.staff[0].resourceId}/schedule-overrides`, s.owner.token, { date: day });
      expect(override.status).to.equal(201);
      const customer = { name: 'Unni', phone: phone() };
      expect((await join(s, { fromDate: day, toDate: day, customer, earliestTime: '13:00' })).status).to.equal(201);
      expect((await call('delete', `/resources/${s.staff[0].resourceId}/schedule-overrides/${override.body.data.id}`, s.owner.token)).status).to.equal(204);
      expect((await offerSms(customer.phone)).text).to.contain('kl. 13:00');
      const quiet = await bookingSalon();
      const other = await call('post', `/resources/${quiet.staff[0].resourceId}/schedule-overrides`, quiet.owner.token, { date: day });
      await call('delete', `/resources/${quiet.staff[0].resourceId}/schedule-overrides/${other.body.data.id}`, quiet.owner.token);
      expect(await (await knex())('waitlist_rounds').where({ tenantId: quiet.tenant.id })).to.have.length(0);
    });
  });
  describe('processing time and stations (docs/rules/waitlist.md#holds)', () => {
    async function offerOf(s: BookingSalon, toPhone: string) {
      const { sms } = await stack();
      const message = await eventually(async () => (await sms.sentTo(toPhone)).find((m) => m.meta?.kind === 'WAITLIST_OFFER'), `an offer SMS to ${toPhone}`);
      const link = /\/waitlist\/offers\/(\S+)\?token=(\S+)/.exec(message.text)!;
      return { text: message.text as string, offerId: link[1], token: decodeURIComponent(link[2]), slug: s.tenant.slug };
    }
    const held = async (tenantId: string) =>
      (await (await knex())('booking_segments').where({ tenantId }).whereNotNull('waitlistRoundId').orderBy(['startTime', 'resourceType'])).map(
        (g: { resourceType: string; kind: string; startTime: Date; endTime: Date }) =>
          `${g.resourceType} ${g.kind} ${g.startTime.toLocaleTimeString('en-GB', { timeZone: 'Europe/Oslo', hour: '2-digit', minute: '2-digit' })}-${g.endTime.toLocaleTimeString('en-GB', { timeZone: 'Europe/Oslo', hour: '2-digit', minute: '2-digit' })}`,
      );

    it("when a cut inside a colour's processing phase is cancelled then the waitlister is offered that time with the stylist, the hold keeps it, and accepting books it", async () => {
      const s = await colourSalon();
      const day = localDay(3);
      const stylist = s.staff[0].resourceId;
      const colour = await call('post', '/bookings', s.owner.token, { startTime: at(day, '10:00'), items: [{ serviceId: s.colourId, resourceId: stylist }] });
      const cut = await call('post', '/bookings', s.owner.token, { startTime: at(day, '10:30'), items: [{ serviceId: s.serviceId, resourceId: stylist }] });
      expect([colour.status, cut.status]).to.deep.equal([201, 201]);
      const customer = { name: 'Vera Venter', phone: phone() };
      expect((await join(s, { resourceId: stylist, fromDate: day, toDate: day, earliestTime: '10:30', latestTime: '11:05', customer })).status).to.equal(201);
      expect((await call('post', `/bookings/${cut.body.data.id}/cancel`, s.owner.token, { bySalon: true })).status).to.equal(200);
      const offer = await offerOf(s, customer.phone);
      expect(offer.text).to.contain('kl. 10:30–11:00');
      expect(await held(s.tenant.id)).to.deep.equal(['staff WORK 10:30-11:00']);
      const over = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
        startTime: at(day, '10:30'),
        items: [{ serviceId: s.serviceId, resourceId: stylist }],
        customer: { name: 'Annen', phone: phone() },
      });
      expect([over.status, over.body.error.code]).to.deep.equal([409, 'BOOKING_CONFLICT']);
      const accepted = await call('post', `/public/tenants/${s.tenant.slug}/waitlist/offers/${offer.offerId}/accept`, undefined, { token: offer.token });
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(201);
      expect(accepted.body.data).to.include({ startTime: at(day, '10:30'), endTime: at(day, '11:00') });
      expect(await held(s.tenant.id)).to.deep.equal([]);
      const booked = await (await knex())('booking_segments').where({ bookingId: accepted.body.data.id });
      expect(booked.map((g: { resourceId: string; kind: string }) => [g.resourceId, g.kind])).to.deep.equal([[stylist, 'WORK']]);
    });

    it("when a colour is cancelled then the offered colour holds the stylist's work phases and the colour station: nobody else colours then until the offer is declined", async () => {
      const s = await colourSalon();
      const day = localDay(3);
      const [first, second] = s.staff.map((m) => m.resourceId);
      const colour = await call('post', '/bookings', s.owner.token, { startTime: at(day, '10:00'), items: [{ serviceId: s.colourId, resourceId: first }] });
      expect(colour.status).to.equal(201);
      const customer = { name: 'Frida Farge', phone: phone() };
      expect(
        (await join(s, { serviceIds: [s.colourId], resourceId: first, fromDate: day, toDate: day, earliestTime: '10:00', latestTime: '11:30', customer }))
          .status,
      ).to.equal(201);
      expect((await call('post', `/bookings/${colour.body.data.id}/cancel`, s.owner.token, { bySalon: true })).status).to.equal(200);
      const offer = await offerOf(s, customer.phone);
      expect(offer.text).to.contain('kl. 10:00–11:30');
      expect(await held(s.tenant.id)).to.deep.equal(['staff WORK 10:00-10:30', 'equipment PROCESSING 10:30-11:05', 'staff WORK 11:05-11:30']);
      // the stylist stays free inside the held processing phase, the station does not
      const cut = await call('post', '/bookings', s.owner.token, { startTime: at(day, '10:30'), items: [{ serviceId: s.serviceId, resourceId: first }] });
      expect(cut.status, 'a cut inside the held processing').to.equal(201);
      const rival = await call('post', '/bookings', s.owner.token, { startTime: at(day, '10:00'), items: [{ serviceId: s.colourId, resourceId: second }] });
      expect([rival.status, rival.body.error.code]).to.deep.equal([409, 'BOOKING_CONFLICT']);
      const declined = await call('post', `/public/tenants/${s.tenant.slug}/waitlist/offers/${offer.offerId}/decline`, undefined, { token: offer.token });
      expect(declined.status).to.equal(200);
      expect(await held(s.tenant.id)).to.deep.equal([]);
      const after = await call('post', '/bookings', s.owner.token, { startTime: at(day, '10:00'), items: [{ serviceId: s.colourId, resourceId: second }] });
      expect(after.status, JSON.stringify(after.body)).to.equal(201);
    });
  });
});
