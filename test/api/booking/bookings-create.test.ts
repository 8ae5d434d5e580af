import { expect } from 'chai';
import { call, http } from '../../support/http';
import { stack, appWith } from '../../support/stack';
import { createAdmin, createUser } from '../../support/factories';
import { addService, addStaff, at, bookingSalon, knex, localDay } from '../../support/booking-fixtures';
import request from 'supertest';
import { utcToLocal } from '../../../domain/time/salon-time.rules';
import type { RecordingSignaller } from '../../support/recording-signaller';
import { impersonationToken } from '../../support/salon-roles';
import { appWithTemporalOutage, type TemporalOutage } from '../../support/temporal-outage';
import { eventually } from '../../support/eventually';

async function signaller(): Promise<RecordingSignaller> {
  return (await stack()).platform.deps.signaller as RecordingSignaller;
}

describe('booking creation', () => {
  describe('POST /bookings', () => {
    it('when the owner books a free slot then 201 CONFIRMED with items, snapshot, audit entry and a BookingCreated signal', async () => {
      const s = await bookingSalon();
      const start = at(localDay(2), '10:00');
      const res = await call('post', '/bookings', s.owner.token, {
        startTime: start,
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: { name: 'Kari Nordmann', phone: '+47 912 34 567' },
        source: 'PHONE',
      });
      expect(res.status).to.equal(201);
      const b = res.body.data;
      expect(b).to.include({ status: 'CONFIRMED', source: 'PHONE', resourceId: s.staff[0].resourceId, startTime: start, totalAmount: 50000, version: 1 });
      expect(b.endTime).to.equal(new Date(new Date(start).getTime() + 3_600_000).toISOString());
      expect(b.metadata.displaySnapshot).to.deep.equal({ timezone: 'Europe/Oslo', currency: 'NOK', locale: 'nb-NO' });
      expect(b.items).to.have.length(1);
      expect(b.customerId).to.be.a('string');
      const db = await knex();
      const customer = await db('customers').where({ id: b.customerId }).first();
      expect(customer.phone).to.equal('+4791234567');
      const audit = await db('booking_audit_logs').where({ bookingId: b.id });
      expect(audit).to.have.length(1);
      expect(audit[0]).to.include({ action: 'CREATED', toStatus: 'CONFIRMED', actorUserId: s.owner.id, actorRole: 'OWNER' });
      const sent = (await signaller()).sent.filter((x) => x.ref.workflowId === `booking:${b.id}`);
      expect(sent).to.have.length(1);
      expect(sent[0].ref).to.deep.include({ workflowType: 'bookingWorkflow', startArgs: { bookingId: b.id, tenantId: s.tenant.id } });
      expect(sent[0].signalName).to.equal('bookingEvent');
      expect(sent[0].event).to.deep.equal({ type: 'BookingCreated', entityVersion: 1 });
    });

    it('when the tenant changes currency later then the booking keeps its frozen displaySnapshot', async () => {
      const s = await bookingSalon();
      const res = await call('post', '/bookings', s.owner.token, {
        startTime: at(localDay(2), '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      });
      const db = await knex();
      await db('tenants')
        .where({ id: s.tenant.id })
        .update({ settings: JSON.stringify({ ...s.tenant.settings, currency: 'EUR', timezone: 'Europe/Berlin' }) });
      const again = await call('get', `/bookings/${res.body.data.id}`, s.owner.token);
      expect(again.body.data.metadata.displaySnapshot).to.deep.equal({ timezone: 'Europe/Oslo', currency: 'NOK', locale: 'nb-NO' });
    });

    it('when two services are booked as a chain then the items run back to back on their own staff', async () => {
      const s = await bookingSalon();
      const colour = await addService(s.tenant.id, { duration: 30, price: 20000 });
      const colourist = await addStaff(s.tenant.id, [colour.id]);
      const start = at(localDay(2), '10:00');
      const res = await call('post', '/bookings', s.owner.token, {
        startTime: start,
        items: [
          { serviceId: s.serviceId, resourceId: s.staff[0].resourceId },
          { serviceId: colour.id, resourceId: colourist.resourceId },
        ],
      });
      expect(res.status).to.equal(201);
      expect(res.body.data.items.map((i: { startTime: string }) => i.startTime)).to.deep.equal([start, at(localDay(2), '11:00')]);
      expect(res.body.data.endTime).to.equal(at(localDay(2), '11:30'));
      expect(res.body.data.totalAmount).to.equal(70000);
    });

    it('when the time overlaps a booking of the same staff then 409 BOOKING_CONFLICT; touching is fine', async () => {
      const s = await bookingSalon();
      const date = localDay(2);
      const book = (time: string) =>
        call('post', '/bookings', s.owner.token, { startTime: at(date, time), items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }] });
      expect((await book('10:00')).status).to.equal(201);
      const clash = await book('10:30');
      expect(clash.status).to.equal(409);
      expect(clash.body.error.code).to.equal('BOOKING_CONFLICT');
      expect((await book('11:00')).status).to.equal(201);
      expect((await book('09:00')).status).to.equal(201);
    });

    it('when allowDoubleBooking is on then overlapping bookings are accepted (schedule still applies)', async () => {
      const s = await bookingSalon({ settings: { allowDoubleBooking: true } });
      const date = localDay(2);
      const book = (time: string) =>
        call('post', '/bookings', s.owner.token, { startTime: at(date, time), items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }] });
      expect((await book('10:00')).status).to.equal(201);
      expect((await book('10:00')).status).to.equal(201);
      const outside = await book('16:30');
      expect(outside.status).to.equal(422);
      expect(outside.body.error.code).to.equal('RESOURCE_NOT_AVAILABLE');
    });

    it('when the time is outside the schedule, in time-off or on an override day off then 422 RESOURCE_NOT_AVAILABLE', async () => {
      const s = await bookingSalon();
      const date = localDay(2);
      const book = (d: string, time: string) =>
        call('post', '/bookings', s.owner.token, { startTime: at(d, time), items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }] });
      const early = await book(date, '08:30');
      expect(early.status).to.equal(422);
      expect(early.body.error.code).to.equal('RESOURCE_NOT_AVAILABLE');
      const db = await knex();
      await db('time_offs').insert({
        tenantId: s.tenant.id,
        resourceId: s.staff[0].resourceId,
        type: 'sick',
        startDate: date,
        endDate: date,
        startTime: '12:00',
        endTime: '14:00',
        isApproved: true,
      });
      expect((await book(date, '12:30')).body.error.code).to.equal('RESOURCE_NOT_AVAILABLE');
      await db('resource_schedule_overrides').insert({
        tenantId: s.tenant.id,
        resourceId: s.staff[0].resourceId,
        date: localDay(3),
        startTime: null,
        endTime: null,
      });
      expect((await book(localDay(3), '10:00')).body.error.code).to.equal('RESOURCE_NOT_AVAILABLE');
    });

    it('when the staff member lacks the skill then 422 RESOURCE_NOT_QUALIFIED', async () => {
      const s = await bookingSalon();
      const other = await addService(s.tenant.id);
      const res = await call('post', '/bookings', s.owner.token, {
        startTime: at(localDay(2), '10:00'),
        items: [{ serviceId: other.id, resourceId: s.staff[0].resourceId }],
      });
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('RESOURCE_NOT_QUALIFIED');
    });

    it('when the start is on the last bookable day then 201; one day later 422 DATE_BEYOND_BOOKING_WINDOW', async () => {
      const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 7 } });
      const ok = await call('post', '/bookings', s.owner.token, {
        startTime: at(localDay(7), '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      });
      expect(ok.status).to.equal(201);
      const late = await call('post', '/bookings', s.owner.token, {
        startTime: at(localDay(8), '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      });
      expect(late.status).to.equal(422);
      expect(late.body.error.code).to.equal('DATE_BEYOND_BOOKING_WINDOW');
    });

    it('when STAFF books then their own resource is used; another resource is 403', async () => {
      const s = await bookingSalon({ staff: 2 });
      const [me, other] = s.staff;
      const own = await call('post', '/bookings', me.user.token, { startTime: at(localDay(2), '10:00'), items: [{ serviceId: s.serviceId }] });
      expect(own.status).to.equal(201);
      expect(own.body.data.resourceId).to.equal(me.resourceId);
      const res = await call('post', '/bookings', me.user.token, {
        startTime: at(localDay(2), '12:00'),
        items: [{ serviceId: s.serviceId, resourceId: other.resourceId }],
      });
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('FORBIDDEN');
    });

    it('when STAFF has no linked resource then 403; without a token 401; the platform admin: 403 with its own token and x-tenant-id, 201 impersonating', async () => {
      const s = await bookingSalon();
      const loose = await createUser(s.tenant.id, 'STAFF');
      const body = { startTime: at(localDay(2), '10:00'), items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }] };
      expect((await call('post', '/bookings', loose.token, body)).status).to.equal(403);
      expect((await call('post', '/bookings', undefined, body)).status).to.equal(401);
      const admin = await createAdmin();
      const own = await (await http()).post('/api/bookings').set('Authorization', `Bearer ${admin.token}`).set('x-tenant-id', s.tenant.id).send(body);
      expect(own.status).to.equal(403);
      const res = await call('post', '/bookings', await impersonationToken(admin, s.tenant.id), body);
      expect(res.status).to.equal(201);
    });

    it('when ids belong to another salon then 404 (service, resource, customer)', async () => {
      const s = await bookingSalon();
      const other = await bookingSalon();
      const start = at(localDay(2), '10:00');
      const a = await call('post', '/bookings', s.owner.token, { startTime: start, items: [{ serviceId: other.serviceId }] });
      expect(a.body.error.code).to.equal('SERVICE_NOT_FOUND');
      const b = await call('post', '/bookings', s.owner.token, {
        startTime: start,
        items: [{ serviceId: s.serviceId, resourceId: other.staff[0].resourceId }],
      });
      expect(b.body.error.code).to.equal('RESOURCE_NOT_FOUND');
      const db = await knex();
      const [c] = await db('customers').insert({ tenantId: other.tenant.id, name: 'X', phone: '+4790000001' }).returning('id');
      const r = await call('post', '/bookings', s.owner.token, {
        startTime: start,
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customerId: c.id,
      });
      expect(r.status).to.equal(404);
      expect(r.body.error.code).to.equal('CUSTOMER_NOT_FOUND');
    });

    it('when the body is bad then 400 VALIDATION_ERROR (missing items, empty items, wrong type, unknown field, too many items)', async () => {
      const s = await bookingSalon();
      const start = at(localDay(2), '10:00');
      const item = { serviceId: s.serviceId };
      for (const body of [
        { startTime: start },
        { startTime: start, items: [] },
        { startTime: 'soon', items: [item] },
        { startTime: start, items: [item], extra: true },
        { startTime: start, items: Array(11).fill(item) },
        { startTime: start, items: [{ serviceId: s.serviceId, resourceId: 5 }] },
        { startTime: start, items: [item], customer: { name: 'A' } },
        { startTime: start, items: [item], source: 'ONLINE' },
      ]) {
        const res = await call('post', '/bookings', s.owner.token, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
    });

    describe("when Temporal cannot be reached (the api's own connection, cut for real)", () => {
      let outage: TemporalOutage;
      before(async () => {
        outage = await appWithTemporalOutage();
      });
      after(async () => {
        await outage?.close();
      });

      for (const [how, cut] of [
        ['refuses the connection', () => outage.refuse()],
        ["accepts it and never answers (the signal's deadline runs out)", () => outage.hang()],
      ] as const) {
        it(`when Temporal ${how} then 503 WORKFLOW_UNAVAILABLE and nothing is written; once it is back the same booking is taken`, async function () {
          this.timeout(60_000);
          const s = await bookingSalon();
          const body = {
            startTime: at(localDay(2), '10:00'),
            items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
            notes: 'under an outage',
          };
          await cut();
          try {
            const res = await request(outage.app).post('/api/bookings').set('Authorization', `Bearer ${s.owner.token}`).send(body);
            expect([res.status, res.body.error?.code], JSON.stringify(res.body)).to.deep.equal([503, 'WORKFLOW_UNAVAILABLE']);
            const db = await knex();
            expect(await db('bookings').where({ tenantId: s.tenant.id }), 'no booking').to.have.length(0);
            expect(await db('booking_items').where({ tenantId: s.tenant.id }), 'no held time').to.have.length(0);
            expect(await db('booking_audit_logs').where({ tenantId: s.tenant.id }), 'no audit entry').to.have.length(0);
          } finally {
            await outage.restore();
          }
          const taken = await eventually(async () => {
            const res = await request(outage.app).post('/api/bookings').set('Authorization', `Bearer ${s.owner.token}`).send(body);
            return res.status === 201 ? res : undefined;
          }, 'the booking once Temporal is back');
          expect(taken.body.data.status).to.equal('CONFIRMED');
        });
      }
    });
  });

  describe('double-booking under concurrency', () => {
    it('when 30 requests race for one staff slot then exactly one booking is created and the others get 409 BOOKING_CONFLICT', async () => {
      const s = await bookingSalon();
      const body = { startTime: at(localDay(2), '10:00'), items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }] };
      const results = await Promise.all(Array.from({ length: 30 }, () => call('post', '/bookings', s.owner.token, body)));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((x) => x === 201)).to.have.length(1);
      expect(statuses.filter((x) => x === 409)).to.have.length(29);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).to.equal('BOOKING_CONFLICT');
      const db = await knex();
      expect(await db('bookings').where({ tenantId: s.tenant.id })).to.have.length(1);
    });

    it('when 30 guests race for one public slot then exactly one booking exists', async () => {
      const s = await bookingSalon();
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
            startTime: at(localDay(2), '13:00'),
            items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
            customer: { name: `Guest ${i}`, phone: `+47 4000 ${String(1000 + i)}` },
          }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).to.have.length(1);
      expect(results.filter((r) => r.status === 409)).to.have.length(29);
      const db = await knex();
      expect(await db('bookings').where({ tenantId: s.tenant.id })).to.have.length(1);
    });

    it('when 20 unassigned requests race for a slot with 3 qualified staff then exactly 3 bookings are created', async () => {
      const s = await bookingSalon({ staff: 3 });
      const body = { startTime: at(localDay(2), '11:00'), items: [{ serviceId: s.serviceId }] };
      const results = await Promise.all(Array.from({ length: 20 }, () => call('post', '/bookings', s.owner.token, body)));
      expect(results.filter((r) => r.status === 201)).to.have.length(3);
      expect(results.filter((r) => r.status === 409)).to.have.length(17);
      const db = await knex();
      const rows = await db('bookings').where({ tenantId: s.tenant.id });
      expect(rows).to.have.length(3);
      expect(rows.every((r: { resourceId: string | null }) => r.resourceId === null)).to.equal(true);
    });

    it('when assigned and unassigned requests race for 2 staff then the slot is never over-committed', async () => {
      const s = await bookingSalon({ staff: 2 });
      const start = at(localDay(3), '11:00');
      const requests = [
        ...Array.from({ length: 8 }, () => ({ startTime: start, items: [{ serviceId: s.serviceId }] })),
        ...Array.from({ length: 4 }, () => ({ startTime: start, items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }] })),
        ...Array.from({ length: 4 }, () => ({ startTime: start, items: [{ serviceId: s.serviceId, resourceId: s.staff[1].resourceId }] })),
      ];
      const results = await Promise.all(requests.map((b) => call('post', '/bookings', s.owner.token, b)));
      expect(results.filter((r) => r.status === 201)).to.have.length(2);
      const db = await knex();
      expect(await db('bookings').where({ tenantId: s.tenant.id })).to.have.length(2);
    });

    it('when an unassigned booking needs one of two staff then only one of them can be booked at that time (sequentially and in a race)', async () => {
      const s = await bookingSalon({ staff: 2 });
      const date = localDay(4);
      const open = await call('post', '/bookings', s.owner.token, { startTime: at(date, '10:00'), items: [{ serviceId: s.serviceId }] });
      expect(open.status).to.equal(201);
      const first = await call('post', '/bookings', s.owner.token, {
        startTime: at(date, '10:30'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      });
      expect(first.status).to.equal(201);
      const second = await call('post', '/bookings', s.owner.token, {
        startTime: at(date, '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[1].resourceId }],
      });
      expect(second.status).to.equal(409);
      expect(second.body.error.code).to.equal('BOOKING_CONFLICT');

      const date2 = localDay(5);
      expect((await call('post', '/bookings', s.owner.token, { startTime: at(date2, '10:00'), items: [{ serviceId: s.serviceId }] })).status).to.equal(201);
      const race = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          call('post', '/bookings', s.owner.token, {
            startTime: at(date2, '10:00'),
            items: [{ serviceId: s.serviceId, resourceId: s.staff[i % 2].resourceId }],
          }),
        ),
      );
      expect(race.filter((r) => r.status === 201)).to.have.length(1);
      expect(race.filter((r) => r.status === 409)).to.have.length(15);
    });

    it('when the database is written directly with an overlapping segment of another booking then the EXCLUDE constraint rejects it', async () => {
      const s = await bookingSalon();
      const res = await call('post', '/bookings', s.owner.token, {
        startTime: at(localDay(2), '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      });
      const other = await call('post', '/bookings', s.owner.token, {
        startTime: at(localDay(2), '12:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      });
      const db = await knex();
      const segment = await db('booking_segments').where({ bookingId: res.body.data.id }).first();
      const { id: _id, createdAt: _c, blocks: _b, ...copy } = segment;
      const intoOther = { ...copy, bookingId: other.body.data.id, bookingItemId: other.body.data.items[0].id };
      await db('booking_segments')
        .insert(intoOther)
        .then(
          () => expect.fail('insert should be rejected'),
          (err: { constraint?: string }) => expect(err.constraint).to.equal('booking_segments_no_overlap'),
        );
      // the booking's own parts may overlap (a buffer absorbed between two of its services), and cancelled ones hold nothing
      await db('booking_segments').insert({ ...copy, kind: 'BUFFER_AFTER', phaseIndex: null });
      await db('booking_segments').insert({ ...intoOther, isActive: false });
    });
  });

  describe('POST /bookings/walk-in', () => {
    it('when STAFF registers a walk-in then it is IN_PROGRESS, starts now, WALK_IN, on their own resource', async () => {
      // the salon is open 00:00-23:59 local and a walk-in starts now: take a time zone where now
      // leaves room for 60 minutes before midnight (one of these always does)
      const timezone = ['Europe/Oslo', 'Asia/Tokyo', 'America/New_York'].find((tz) => {
        const { time } = utcToLocal(new Date(), tz);
        return time >= '01:00' && time <= '21:00';
      })!;
      const s = await bookingSalon({
        settings: {
          timezone,
          businessHours: [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, isOpen: true, slots: [{ startTime: '00:00', endTime: '23:59' }] })),
        },
      });
      const db = await knex();
      await db('resource_schedules').where({ resourceId: s.staff[0].resourceId }).update({ startTime: '00:00', endTime: '23:59' });
      const before = Date.now();
      const res = await call('post', '/bookings/walk-in', s.staff[0].user.token, {
        serviceId: s.serviceId,
        customer: { name: 'Walk In', phone: '+4798765432' },
      });
      expect(res.status).to.equal(201);
      const b = res.body.data;
      expect(b).to.include({ status: 'IN_PROGRESS', source: 'WALK_IN', resourceId: s.staff[0].resourceId });
      expect(new Date(b.startTime).getTime()).to.be.within(before - 1000, Date.now() + 1000);
      expect(new Date(b.endTime).getTime() - new Date(b.startTime).getTime()).to.equal(3_600_000);
    });

    it('when STAFF names another resource then 403; walkInEnabled false then 422 WALK_IN_DISABLED', async () => {
      const s = await bookingSalon({ staff: 2 });
      const res = await call('post', '/bookings/walk-in', s.staff[0].user.token, { serviceId: s.serviceId, resourceId: s.staff[1].resourceId });
      expect(res.status).to.equal(403);
      const off = await bookingSalon({ settings: { walkInEnabled: false } });
      const r2 = await call('post', '/bookings/walk-in', off.owner.token, { serviceId: off.serviceId, resourceId: off.staff[0].resourceId });
      expect(r2.status).to.equal(422);
      expect(r2.body.error.code).to.equal('WALK_IN_DISABLED');
    });

    it('when the body is bad then 400; without a token 401', async () => {
      const s = await bookingSalon();
      for (const body of [{}, { serviceId: 'x' }, { serviceId: s.serviceId, extra: 1 }]) {
        const res = await call('post', '/bookings/walk-in', s.owner.token, body);
        expect(res.status).to.equal(400);
      }
      expect((await call('post', '/bookings/walk-in', undefined, { serviceId: s.serviceId })).status).to.equal(401);
    });
  });

  describe('booking creation rate limit (20 per minute)', () => {
    it('when 20 creations are sent then all pass the limiter; the 21st is 429 RATE_LIMIT_EXCEEDED with X-RateLimit headers', async () => {
      const s = await bookingSalon();
      const app = await appWith({ RATE_LIMIT_BOOKING_CREATE: '20' });
      const send = () =>
        request(app)
          .post(`/api/public/tenants/${s.tenant.slug}/bookings`)
          .send({
            startTime: at(localDay(2), '10:00'),
            items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
            customer: { name: 'Rate', phone: '+4791112222' },
          });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await send()).status);
      expect(statuses.filter((x) => x === 429)).to.have.length(0);
      expect(statuses.filter((x) => x === 201)).to.have.length(1);
      const last = await send();
      expect(last.status).to.equal(429);
      expect(last.body.error.code).to.equal('RATE_LIMIT_EXCEEDED');
      expect(last.headers['x-ratelimit-limit']).to.equal('20');
    });
  });
});
