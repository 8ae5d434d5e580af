import { expect } from 'chai';
import request from 'supertest';
import { call, http } from '../../support/http';
import { appOnClock } from '../../support/stack';
import { createSalon, createAdmin, unique } from '../../support/factories';
import { addService, addStaff, at, bookingSalon, knex, localDay } from '../../support/booking-fixtures';
import { impersonationToken } from '../../support/salon-roles';

describe('availability routes', () => {
  describe('GET /availability (staff side)', () => {
    it('when a staff member works 09-17 then 60-minute slots start every 15 minutes from 09:00 to 16:00 (UTC instants)', async () => {
      const s = await bookingSalon();
      const date = localDay(2);
      const res = await call('get', `/availability?serviceId=${s.serviceId}&date=${date}`, s.owner.token);
      expect(res.status).to.equal(200);
      expect(res.body.success).to.equal(true);
      const slots = res.body.data.slots;
      expect(slots).to.have.length(29);
      expect(slots[0].start).to.equal(at(date, '09:00'));
      expect(slots[0].localTime).to.equal('09:00');
      expect(slots[28].start).to.equal(at(date, '16:00'));
      expect(slots[0].items[0].freeResourceIds).to.deep.equal([s.staff[0].resourceId]);
      expect(res.body.data.slotIntervalMinutes).to.equal(15);
    });

    it('when a booking exists then its time is not offered and the neighbours that fit are', async () => {
      const s = await bookingSalon();
      const date = localDay(3);
      const created = await call('post', '/bookings', s.owner.token, {
        startTime: at(date, '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      });
      expect(created.status).to.equal(201);
      const res = await call('get', `/availability?serviceId=${s.serviceId}&date=${date}&resourceId=${s.staff[0].resourceId}`, s.owner.token);
      const starts = res.body.data.slots.map((x: { localTime: string }) => x.localTime);
      expect(starts).to.include('09:00');
      expect(starts).to.not.include('09:15');
      expect(starts).to.not.include('10:45');
      expect(starts).to.include('11:00');
    });

    it('when the booking is cancelled then the time is free again', async () => {
      const s = await bookingSalon();
      const date = localDay(3);
      const created = await call('post', '/bookings', s.owner.token, {
        startTime: at(date, '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      });
      await call('post', `/bookings/${created.body.data.id}/cancel`, s.owner.token, { bySalon: true });
      const res = await call('get', `/availability?serviceId=${s.serviceId}&date=${date}`, s.owner.token);
      expect(res.body.data.slots.map((x: { localTime: string }) => x.localTime)).to.include('10:00');
    });

    it('when an unassigned booking takes one of two staff then the slot stays; with both taken it disappears', async () => {
      const s = await bookingSalon({ staff: 2 });
      const date = localDay(4);
      const book = () => call('post', '/bookings', s.owner.token, { startTime: at(date, '12:00'), items: [{ serviceId: s.serviceId }] });
      expect((await book()).status).to.equal(201);
      let res = await call('get', `/availability?serviceId=${s.serviceId}&date=${date}`, s.owner.token);
      expect(res.body.data.slots.map((x: { localTime: string }) => x.localTime)).to.include('12:00');
      expect((await book()).status).to.equal(201);
      res = await call('get', `/availability?serviceId=${s.serviceId}&date=${date}`, s.owner.token);
      expect(res.body.data.slots.map((x: { localTime: string }) => x.localTime)).to.not.include('12:00');
    });

    it('when two services are chained then each slot lists both items back to back, each with its own staff', async () => {
      const s = await bookingSalon();
      const colour = await addService(s.tenant.id, { duration: 30 });
      const colourist = await addStaff(s.tenant.id, [colour.id]);
      const date = localDay(2);
      const res = await call('get', `/availability?serviceId=${s.serviceId},${colour.id}&date=${date}`, s.owner.token);
      expect(res.status).to.equal(200);
      const first = res.body.data.slots[0];
      expect(first.start).to.equal(at(date, '09:00'));
      expect(first.end).to.equal(at(date, '10:30'));
      expect(first.items[0].resourceId).to.equal(s.staff[0].resourceId);
      expect(first.items[1].start).to.equal(at(date, '10:00'));
      expect(first.items[1].resourceId).to.equal(colourist.resourceId);
      // last chain start: 15:30 (ends 17:00)
      expect(res.body.data.slots.at(-1).localTime).to.equal('15:30');
    });

    it('when today is asked for after the salon closed then there are no slots and nobody works: the day is over, not full (no waitlist); before closing it has its times', async () => {
      const s = await bookingSalon();
      const today = localDay(0);
      const { app, at: clock } = await appOnClock(new Date(at(today, '17:30')));
      const ask = () => request(app).get(`/api/public/tenants/${s.tenant.slug}/availability?serviceIds=${s.serviceId}&date=${today}`);
      const over = await ask();
      expect(over.status, JSON.stringify(over.body)).to.equal(200);
      expect([over.body.data.slots.length, over.body.data.working]).to.deep.equal([0, false]);
      clock.set(new Date(at(today, '10:00')));
      const open = await ask();
      expect([open.body.data.slots.length > 0, open.body.data.working]).to.deep.equal([true, true]);
    });

    it('when the chain is asked for as serviceIds (the one name of a list of services) then the answer is that of the released serviceId; with both the one name counts, with neither 400 naming serviceIds', async () => {
      const s = await bookingSalon();
      const colour = await addService(s.tenant.id, { duration: 30 });
      const colourist = await addStaff(s.tenant.id, [colour.id]);
      const date = localDay(2);
      const released = await call(
        'get',
        `/availability?serviceId=${s.serviceId},${colour.id}&resourceId=any,${colourist.resourceId}&date=${date}`,
        s.owner.token,
      );
      const named = await call(
        'get',
        `/availability?serviceIds=${s.serviceId},${colour.id}&resourceIds=any,${colourist.resourceId}&date=${date}`,
        s.owner.token,
      );
      expect(named.status, JSON.stringify(named.body)).to.equal(200);
      expect(named.body.data).to.deep.equal(released.body.data);
      expect(named.body.data.slots).to.have.length.greaterThan(0);
      const publicNamed = await call('get', `/public/tenants/${s.tenant.slug}/availability?serviceIds=${s.serviceId}&date=${date}`);
      expect(publicNamed.status, JSON.stringify(publicNamed.body)).to.equal(200);
      const both = await call('get', `/availability?serviceIds=${colour.id}&serviceId=${s.serviceId}&date=${date}`, s.owner.token);
      expect(
        both.body.data.slots[0].items.map((i: { serviceId: string }) => i.serviceId),
        'the one name counts',
      ).to.deep.equal([colour.id]);
      const neither = await call('get', `/availability?date=${date}`, s.owner.token);
      expect([neither.status, neither.body.error?.details?.[0]?.field]).to.deep.equal([400, 'serviceIds']);
    });

    it('when the salon is in Europe/Oslo then on the spring-forward day 09:00 local is 07:00Z, the day before 08:00Z', async () => {
      const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 365 } });
      const res = await call('get', `/availability?serviceId=${s.serviceId}&date=2027-03-28`, s.owner.token);
      expect(res.status).to.equal(200);
      expect(res.body.data.slots[0]).to.include({ start: '2027-03-28T07:00:00.000Z', localTime: '09:00' });
      const before = await call('get', `/availability?serviceId=${s.serviceId}&date=2027-03-27`, s.owner.token);
      expect(before.body.data.slots[0]).to.include({ start: '2027-03-27T08:00:00.000Z', localTime: '09:00' });
    });

    it('when the salon is in Asia/Kolkata (+05:30) then 09:00 local is 03:30Z and bookings are checked in that zone', async () => {
      const s = await bookingSalon({ settings: { timezone: 'Asia/Kolkata' } });
      const date = localDay(2, 'Asia/Kolkata');
      const res = await call('get', `/availability?serviceId=${s.serviceId}&date=${date}`, s.owner.token);
      expect(res.body.data.timezone).to.equal('Asia/Kolkata');
      expect(res.body.data.slots[0].start).to.equal(`${date}T03:30:00.000Z`);
      const early = await call('post', '/bookings', s.owner.token, {
        startTime: `${date}T03:00:00.000Z`,
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      });
      expect(early.status).to.equal(422);
      const ok = await call('post', '/bookings', s.owner.token, {
        startTime: `${date}T03:30:00.000Z`,
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      });
      expect(ok.status).to.equal(201);
      expect(ok.body.data.metadata.displaySnapshot.timezone).to.equal('Asia/Kolkata');
    });

    it('when a resource list does not match the service list then 400', async () => {
      const s = await bookingSalon();
      const res = await call('get', `/availability?serviceId=${s.serviceId}&date=${localDay(2)}&resourceId=${s.staff[0].resourceId},any`, s.owner.token);
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    });

    it('when the date is the last bookable day then 200; one day later then 422 DATE_BEYOND_BOOKING_WINDOW', async () => {
      const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 5 } });
      const ok = await call('get', `/availability?serviceId=${s.serviceId}&date=${localDay(5)}`, s.owner.token);
      expect(ok.status).to.equal(200);
      expect(ok.body.data.slots.length).to.be.greaterThan(0);
      const late = await call('get', `/availability?serviceId=${s.serviceId}&date=${localDay(6)}`, s.owner.token);
      expect(late.status).to.equal(422);
      expect(late.body.error.code).to.equal('DATE_BEYOND_BOOKING_WINDOW');
    });

    it('when time-off is approved then those hours are not offered', async () => {
      const s = await bookingSalon();
      const date = localDay(2);
      const db = await knex();
      await db('time_offs').insert({
        tenantId: s.tenant.id,
        resourceId: s.staff[0].resourceId,
        type: 'personal',
        startDate: date,
        endDate: date,
        startTime: '09:00',
        endTime: '13:00',
        isApproved: true,
      });
      const res = await call('get', `/availability?serviceId=${s.serviceId}&date=${date}`, s.owner.token);
      expect(res.body.data.slots[0].localTime).to.equal('13:00');
    });

    it('when called by STAFF then 200; without a token 401; by the platform admin: 403 with its own token and x-tenant-id, 200 impersonating', async () => {
      const s = await bookingSalon();
      const date = localDay(2);
      expect((await call('get', `/availability?serviceId=${s.serviceId}&date=${date}`, s.staff[0].user.token)).status).to.equal(200);
      const anon = await call('get', `/availability?serviceId=${s.serviceId}&date=${date}`);
      expect(anon.status).to.equal(401);
      const admin = await createAdmin();

      const own = await (
        await http()
      )
        .get(`/api/availability?serviceId=${s.serviceId}&date=${date}`)
        .set('Authorization', `Bearer ${admin.token}`)
        .set('x-tenant-id', s.tenant.id);
      expect(own.status).to.equal(403);
      const impersonating = await call('get', `/availability?serviceId=${s.serviceId}&date=${date}`, await impersonationToken(admin, s.tenant.id));
      expect(impersonating.status).to.equal(200);
    });

    it("when the service belongs to another salon then 404 SERVICE_NOT_FOUND; another salon's resource 404 RESOURCE_NOT_FOUND", async () => {
      const s = await bookingSalon();
      const other = await bookingSalon();
      const date = localDay(2);
      const a = await call('get', `/availability?serviceId=${other.serviceId}&date=${date}`, s.owner.token);
      expect(a.status).to.equal(404);
      expect(a.body.error.code).to.equal('SERVICE_NOT_FOUND');
      const b = await call('get', `/availability?serviceId=${s.serviceId}&date=${date}&resourceId=${other.staff[0].resourceId}`, s.owner.token);
      expect(b.status).to.equal(404);
      expect(b.body.error.code).to.equal('RESOURCE_NOT_FOUND');
    });

    it('when input is bad then 400 VALIDATION_ERROR (missing serviceId, bad date, unknown parameter)', async () => {
      const s = await bookingSalon();
      for (const q of [
        `date=${localDay(2)}`,
        `serviceId=${s.serviceId}&date=2026-13-45`,
        `serviceId=${s.serviceId}`,
        `serviceId=nope&date=${localDay(2)}`,
        `serviceId=${s.serviceId}&date=${localDay(2)}&x=1`,
      ]) {
        const res = await call('get', `/availability?${q}`, s.owner.token);
        expect(res.status, q).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
    });
  });

  describe('GET /public/tenants/:slug/availability', () => {
    it('when a staff member is not bookable online then the portal does not offer them', async () => {
      const s = await bookingSalon();
      await addStaff(s.tenant.id, [s.serviceId], { isBookableOnline: false, sortOrder: -1 });
      const date = localDay(2);
      const res = await call('get', `/public/tenants/${s.tenant.slug}/availability?serviceId=${s.serviceId}&date=${date}`);
      expect(res.status).to.equal(200);
      expect(res.body.data.slots[0].items[0].freeResourceIds).to.deep.equal([s.staff[0].resourceId]);
    });

    it('when the slug is unknown then 404 TENANT_NOT_FOUND; past the window 422', async () => {
      const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 3 } });
      const res = await call('get', `/public/tenants/${unique('nosuch')}/availability?serviceId=${s.serviceId}&date=${localDay(2)}`);
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('TENANT_NOT_FOUND');
      const late = await call('get', `/public/tenants/${s.tenant.slug}/availability?serviceId=${s.serviceId}&date=${localDay(4)}`);
      expect(late.status).to.equal(422);
      expect(late.body.error.code).to.equal('DATE_BEYOND_BOOKING_WINDOW');
    });
  });

  describe('POST /public/tenants/:slug/availability/next-available-date', () => {
    it('when the next days are fully booked by time-off then it returns the first free day after fromDate', async () => {
      const s = await bookingSalon();
      const db = await knex();
      const from = localDay(1);
      await db('time_offs').insert({
        tenantId: s.tenant.id,
        resourceId: s.staff[0].resourceId,
        type: 'vacation',
        startDate: localDay(2),
        endDate: localDay(5),
        isApproved: true,
      });
      const res = await call('post', `/public/tenants/${s.tenant.slug}/availability/next-available-date`, undefined, {
        items: [{ serviceId: s.serviceId }],
        fromDate: from,
      });
      expect(res.status).to.equal(200);
      expect(res.body.data.date).to.equal(localDay(6));
    });

    it('when nothing is free within maxDaysAhead then date is null', async () => {
      const s = await bookingSalon();
      const db = await knex();
      await db('time_offs').insert({
        tenantId: s.tenant.id,
        resourceId: s.staff[0].resourceId,
        type: 'vacation',
        startDate: localDay(0),
        endDate: localDay(10),
        isApproved: true,
      });
      const res = await call('post', `/public/tenants/${s.tenant.slug}/availability/next-available-date`, undefined, {
        items: [{ serviceId: s.serviceId }],
        fromDate: localDay(0),
        maxDaysAhead: 5,
      });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({ date: null });
    });

    it('when maxDaysAhead is 90 then 200; 91 then 400 VALIDATION_ERROR', async () => {
      const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 365 } });
      const body = (n: number) => ({ items: [{ serviceId: s.serviceId }], fromDate: localDay(0), maxDaysAhead: n });
      const ok = await call('post', `/public/tenants/${s.tenant.slug}/availability/next-available-date`, undefined, body(90));
      expect(ok.status).to.equal(200);
      expect(ok.body.data.date).to.equal(localDay(1));
      const bad = await call('post', `/public/tenants/${s.tenant.slug}/availability/next-available-date`, undefined, body(91));
      expect(bad.status).to.equal(400);
      expect(bad.body.error.code).to.equal('VALIDATION_ERROR');
      expect(bad.body.error.details[0].field).to.equal('maxDaysAhead');
    });

    it('when the only free day is past maxBookingDaysInAdvance then null (the scan stops at the window)', async () => {
      const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 3 } });
      const db = await knex();
      await db('time_offs').insert({
        tenantId: s.tenant.id,
        resourceId: s.staff[0].resourceId,
        type: 'vacation',
        startDate: localDay(0),
        endDate: localDay(3),
        isApproved: true,
      });
      const res = await call('post', `/public/tenants/${s.tenant.slug}/availability/next-available-date`, undefined, {
        items: [{ serviceId: s.serviceId }],
        fromDate: localDay(0),
      });
      expect(res.body.data.date).to.equal(null);
    });

    it('when the body is bad then 400 (missing items, empty items, unknown field, bad date)', async () => {
      const s = await bookingSalon();
      const url = `/public/tenants/${s.tenant.slug}/availability/next-available-date`;
      for (const body of [
        { fromDate: localDay(0) },
        { items: [], fromDate: localDay(0) },
        { items: [{ serviceId: s.serviceId }], fromDate: localDay(0), extra: 1 },
        { items: [{ serviceId: s.serviceId }], fromDate: 'tomorrow' },
        { items: [{ serviceId: s.serviceId }], fromDate: localDay(0), maxDaysAhead: 0 },
      ]) {
        const res = await call('post', url, undefined, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
    });

    it("when the service is another salon's then 404 SERVICE_NOT_FOUND", async () => {
      const s = await bookingSalon();
      const other = await createSalon();
      const svc = await addService(other.tenant.id);
      const res = await call('post', `/public/tenants/${s.tenant.slug}/availability/next-available-date`, undefined, {
        items: [{ serviceId: svc.id }],
        fromDate: localDay(0),
      });
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('SERVICE_NOT_FOUND');
    });
  });
});
