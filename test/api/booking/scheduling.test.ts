// Processing time, buffers and rooms or equipment through the HTTP API (docs/rules/availability.md#the-parts-of-a-visit,
// docs/rules/booking.md#the-parts-of-a-booking): a colour booked at 10:00 leaves its stylist bookable for a cut
// inside its processing phase but not over its application or finish, and takes the only colour station;
// the limits at the phase boundaries, the buffers at the ends of the day and the last free station; moves,
// cancellations and no-shows free every part; 100 requests racing for overlapping parts book exactly once;
// the day's schedule per staff member and per station.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { call } from '../../support/http';
import {
  addPhasedService,
  addRoom,
  addService,
  addStaff,
  at,
  bookingSalon,
  colourSalon,
  knex,
  localDay,
  type BookingSalon,
  type ColourSalon,
} from '../../support/booking-fixtures';

const phone = () => `+47${crypto.randomInt(40000000, 49999999)}`;

async function book(s: BookingSalon, serviceId: string, day: string, time: string, resourceId: string | null) {
  return call('post', '/bookings', s.owner.token, {
    startTime: at(day, time),
    items: [{ serviceId, resourceId }],
    customer: { name: 'Kari Kunde', phone: phone() },
  });
}

async function starts(s: BookingSalon, serviceId: string, day: string, resourceId?: string, path = '/availability') {
  const res = await call(
    'get',
    `${path}?serviceId=${serviceId}&date=${day}${resourceId ? `&resourceId=${resourceId}` : ''}`,
    path === '/availability' ? s.owner.token : undefined,
  );
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.data.slots.map((x: { localTime: string }) => x.localTime) as string[];
}

/** An item's segments as `type KIND HH:mm-HH:mm held|any` (salon-local). */
const segmentsOf = (item: { segments: { kind: string; resourceType: string; resourceId: string | null; startTime: string; endTime: string }[] }) =>
  item.segments.map((g) => `${g.resourceType} ${g.kind} ${localTime(g.startTime)}-${localTime(g.endTime)} ${g.resourceId === null ? 'any' : 'held'}`);
const localTime = (iso: string) => new Date(iso).toLocaleTimeString('en-GB', { timeZone: 'Europe/Oslo', hour: '2-digit', minute: '2-digit' });

describe('scheduling: processing time, buffers, rooms and equipment (HTTP)', () => {
  describe('a colour booked at 10:00', () => {
    let s: ColourSalon;
    let colour: {
      id: string;
      items: {
        id: string;
        resourceId: string;
        segments: { kind: string; resourceType: string; resourceId: string | null; startTime: string; endTime: string }[];
      }[];
    };
    const day = localDay(3);
    before(async () => {
      s = await colourSalon();
      const res = await book(s, s.colourId, day, '10:00', s.staff[0].resourceId);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      colour = res.body.data;
    });

    it('then the booking stores each phase on the stylist and the processing phase on the colour station; the visit ends after its last phase', async () => {
      expect(colour).to.include({ startTime: at(day, '10:00'), endTime: at(day, '11:30') });
      expect(segmentsOf(colour.items[0])).to.deep.equal([
        'staff WORK 10:00-10:30 held',
        'staff PROCESSING 10:30-11:05 held',
        'equipment PROCESSING 10:30-11:05 held',
        'staff WORK 11:05-11:30 held',
      ]);
      expect(colour.items[0].segments.filter((g) => g.resourceType === 'staff').every((g) => g.resourceId === s.staff[0].resourceId)).to.equal(true);
      expect(colour.items[0].segments.find((g) => g.resourceType === 'equipment')!.resourceId).to.equal(s.stationId);
      const rows = await (
        await knex()
      )('booking_segments')
        .where({ bookingId: (colour as unknown as { id: string }).id })
        .orderBy('startTime');
      expect(rows.map((r: { kind: string; blocks: boolean; isActive: boolean }) => [r.kind, r.blocks, r.isActive])).to.deep.equal([
        ['WORK', true, true],
        ['PROCESSING', false, true],
        ['PROCESSING', true, true],
        ['WORK', true, true],
      ]);
    });

    it('then the stylist is offered for a 30-minute cut during its processing (10:30) but not during its application or finish, on the staff and the public availability', async () => {
      for (const path of ['/availability', `/public/tenants/${s.tenant.slug}/availability`]) {
        const got = await starts(s, s.serviceId, day, s.staff[0].resourceId, path);
        expect(got, path).to.include.members(['09:30', '10:30', '11:30']);
        for (const taken of ['09:45', '10:00', '10:15', '10:45', '11:00', '11:15']) expect(got, `${path} ${taken}`).to.not.include(taken);
      }
    });

    it('then the only colour station is taken: no colour is offered over its processing, with either stylist, and booking one there is 409 BOOKING_CONFLICT', async () => {
      const got = await starts(s, s.colourId, day, s.staff[1].resourceId);
      for (const t of ['09:30', '09:45', '10:00', '10:15', '10:30']) expect(got, t).to.not.include(t);
      expect(got).to.include.members(['09:15', '10:45']);
      const clash = await book(s, s.colourId, day, '10:00', s.staff[1].resourceId);
      expect([clash.status, clash.body.error.code]).to.deep.equal([409, 'BOOKING_CONFLICT']);
      expect(clash.body.error.message).to.match(/equipment/);
    });

    it('then a cut booked inside the processing phase is 201, up to its boundary (35 minutes); one over the finish is 409', async () => {
      const db = await knex();
      const long = await addService(s.tenant.id, { duration: 35 });
      const longer = await addService(s.tenant.id, { duration: 36 });
      await db('resource_skills').insert([long.id, longer.id].map((serviceId) => ({ tenantId: s.tenant.id, resourceId: s.staff[0].resourceId, serviceId })));
      const over = await book(s, longer.id, day, '10:30', s.staff[0].resourceId);
      expect([over.status, over.body.error.code]).to.deep.equal([409, 'BOOKING_CONFLICT']);
      const fits = await book(s, long.id, day, '10:30', s.staff[0].resourceId);
      expect(fits.status, JSON.stringify(fits.body)).to.equal(201);
      const overApplication = await book(s, s.serviceId, day, '09:45', s.staff[0].resourceId);
      expect([overApplication.status, overApplication.body.error.code]).to.deep.equal([409, 'BOOKING_CONFLICT']);
      const beforeIt = await book(s, s.serviceId, day, '09:30', s.staff[0].resourceId);
      expect(beforeIt.status, 'touching the application').to.equal(201);
    });
  });

  describe('the last free station', () => {
    it('when two stations exist then two colours at 10:00 take one each, the third is 409 and availability offers no third', async () => {
      const s = await colourSalon(3);
      const second = await addRoom(s.tenant.id, [s.colourId], { name: 'Fargestasjon 2', sortOrder: 101 });
      const day = localDay(4);
      const first = await book(s, s.colourId, day, '10:00', s.staff[0].resourceId);
      const next = await book(s, s.colourId, day, '10:00', s.staff[1].resourceId);
      expect([first.status, next.status]).to.deep.equal([201, 201]);
      const held = [first, next].map((r) => r.body.data.items[0].segments.find((g: { resourceType: string }) => g.resourceType === 'equipment').resourceId);
      expect(held).to.deep.equal([s.stationId, second]);
      expect(await starts(s, s.colourId, day, s.staff[2].resourceId)).to.not.include('10:00');
      const third = await book(s, s.colourId, day, '10:00', s.staff[2].resourceId);
      expect([third.status, third.body.error.code]).to.deep.equal([409, 'BOOKING_CONFLICT']);
    });

    it('when the service needs equipment and none is set up, or the only one is out that day, then 422 RESOURCE_NOT_AVAILABLE and no slots', async () => {
      const s = await colourSalon();
      const day = localDay(5);
      const off = await call('post', `/resources/${s.stationId}/time-offs`, s.owner.token, {
        type: 'other',
        startDate: day,
        endDate: day,
        description: 'service',
      });
      expect(off.status, JSON.stringify(off.body)).to.equal(201);
      expect(await starts(s, s.colourId, day)).to.deep.equal([]);
      const res = await book(s, s.colourId, day, '10:00', s.staff[0].resourceId);
      expect([res.status, res.body.error.code]).to.deep.equal([422, 'RESOURCE_NOT_AVAILABLE']);
      const next = await call('post', `/public/tenants/${s.tenant.slug}/availability/next-available-date`, undefined, {
        items: [{ serviceId: s.colourId }],
        fromDate: localDay(4),
      });
      expect(next.body.data.date).to.equal(localDay(6));
      await (await knex())('resource_skills').where({ resourceId: s.stationId }).delete();
      const none = await book(s, s.colourId, localDay(6), '10:00', s.staff[0].resourceId);
      expect([none.status, none.body.error.code, none.body.error.details[0].message]).to.deep.equal([
        422,
        'RESOURCE_NOT_AVAILABLE',
        'the service needs a piece of equipment and none is set up for it',
      ]);
    });
  });

  describe('buffers at the ends of the day', () => {
    it('when a service has 15-minute buffers then the first start is 09:15 and the last 15:45 in a 09:00-17:00 day; 09:00 and 16:00 are 422, 15:45 is 201', async () => {
      const s = await bookingSalon();
      const svc = await addPhasedService(s.tenant.id, {
        phases: [{ kind: 'WORK', minutes: 60 }],
        bufferBeforeMinutes: 15,
        bufferAfterMinutes: 15,
        resourceRequirements: [],
      });
      await (await knex())('resource_skills').insert({ tenantId: s.tenant.id, resourceId: s.staff[0].resourceId, serviceId: svc.id });
      const day = localDay(3);
      const got = await starts(s, svc.id, day);
      expect([got[0], got[got.length - 1]]).to.deep.equal(['09:15', '15:45']);
      for (const time of ['09:00', '16:00']) {
        const res = await book(s, svc.id, day, time, s.staff[0].resourceId);
        expect([res.status, res.body.error.code], time).to.deep.equal([422, 'RESOURCE_NOT_AVAILABLE']);
      }
      const last = await book(s, svc.id, day, '15:45', s.staff[0].resourceId);
      expect(last.status).to.equal(201);
      expect(last.body.data).to.include({ startTime: at(day, '15:45'), endTime: at(day, '16:45') });
      expect(segmentsOf(last.body.data.items[0])).to.deep.equal([
        'staff BUFFER_BEFORE 15:30-15:45 held',
        'staff WORK 15:45-16:45 held',
        'staff BUFFER_AFTER 16:45-17:00 held',
      ]);
      // the buffer after (16:45-17:00) blocks the stylist: a 15-minute job right after it is refused
      const quick = await addService(s.tenant.id, { duration: 15 });
      await (await knex())('resource_skills').insert({ tenantId: s.tenant.id, resourceId: s.staff[0].resourceId, serviceId: quick.id });
      const after = await book(s, quick.id, day, '16:45', s.staff[0].resourceId);
      expect([after.status, after.body.error.code]).to.deep.equal([409, 'BOOKING_CONFLICT']);
    });
  });

  describe('moving, cancelling and no-shows free every part', () => {
    it('when the colour is moved to 13:00 then its parts move with it and the old application, station and finish are free again', async () => {
      const s = await colourSalon();
      const day = localDay(3);
      const colour = (await book(s, s.colourId, day, '10:00', s.staff[0].resourceId)).body.data;
      const moved = await call('patch', `/bookings/${colour.id}`, s.owner.token, { startTime: at(day, '13:00') });
      expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
      expect(segmentsOf(moved.body.data.items[0])).to.deep.equal([
        'staff WORK 13:00-13:30 held',
        'staff PROCESSING 13:30-14:05 held',
        'equipment PROCESSING 13:30-14:05 held',
        'staff WORK 14:05-14:30 held',
      ]);
      expect((await book(s, s.serviceId, day, '10:00', s.staff[0].resourceId)).status).to.equal(201);
      expect((await book(s, s.colourId, day, '10:00', s.staff[1].resourceId)).status, 'the station at 10:30').to.equal(201);
      // moving onto the other colour's station time is refused, and changes nothing
      const clash = await call('patch', `/bookings/${colour.id}`, s.owner.token, { startTime: at(day, '10:15') });
      expect([clash.status, clash.body.error.code]).to.deep.equal([409, 'BOOKING_CONFLICT']);
      expect(await (await knex())('booking_segments').where({ bookingId: colour.id }).min('startTime as first').first()).to.deep.equal({
        first: new Date(at(day, '13:00')),
      });
    });

    it('when the colour is cancelled, or marked no-show, then its stylist and its station are free at once', async () => {
      const s = await colourSalon();
      const day = localDay(3);
      const cancelled = (await book(s, s.colourId, day, '10:00', s.staff[0].resourceId)).body.data;
      expect((await call('post', `/bookings/${cancelled.id}/cancel`, s.owner.token, { bySalon: true })).status).to.equal(200);
      expect(await (await knex())('booking_segments').where({ bookingId: cancelled.id, isActive: true })).to.have.length(0);
      expect(await starts(s, s.serviceId, day, s.staff[0].resourceId)).to.include.members(['10:00', '10:15', '11:00']);
      const again = await book(s, s.colourId, day, '10:00', s.staff[1].resourceId);
      expect(again.status, 'the station is free').to.equal(201);
      const later = localDay(-1);
      const past = (await book(s, s.colourId, later, '10:00', s.staff[0].resourceId)).body.data;
      expect((await call('post', `/bookings/${past.id}/status/NO_SHOW`, s.owner.token, {})).status).to.equal(200);
      expect(await (await knex())('booking_segments').where({ bookingId: past.id, isActive: true })).to.have.length(0);
      expect((await book(s, s.colourId, later, '10:00', s.staff[1].resourceId)).status).to.equal(201);
    });
  });

  describe('reassigning, self-pick and a booking placed again', () => {
    it('when the colour is reassigned to the other stylist then its staff parts move to them and its station stays', async () => {
      const s = await colourSalon();
      const day = localDay(3);
      const colour = (await book(s, s.colourId, day, '10:00', s.staff[0].resourceId)).body.data;
      const moved = await call('patch', `/bookings/${colour.id}`, s.owner.token, { resourceId: s.staff[1].resourceId });
      expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
      const held = moved.body.data.items[0].segments.map((g: { resourceType: string; resourceId: string }) => [g.resourceType, g.resourceId]);
      expect(held).to.deep.equal([
        ['staff', s.staff[1].resourceId],
        ['staff', s.staff[1].resourceId],
        ['equipment', s.stationId],
        ['staff', s.staff[1].resourceId],
      ]);
      expect((await book(s, s.serviceId, day, '10:00', s.staff[0].resourceId)).status, 'the first stylist is free again').to.equal(201);
    });

    it('when a stylist picks an unassigned colour then its staff parts become theirs', async () => {
      const s = await colourSalon();
      const day = localDay(3);
      const open = (await book(s, s.colourId, day, '10:00', null)).body.data;
      expect(segmentsOf(open.items[0])).to.deep.equal([
        'staff WORK 10:00-10:30 any',
        'staff PROCESSING 10:30-11:05 any',
        'equipment PROCESSING 10:30-11:05 held',
        'staff WORK 11:05-11:30 any',
      ]);
      const picked = await call('post', `/bookings/${open.id}/self-pick`, s.staff[1].user.token);
      expect(picked.status, JSON.stringify(picked.body)).to.equal(200);
      expect(
        picked.body.data.items[0].segments
          .filter((g: { resourceType: string }) => g.resourceType === 'staff')
          .every((g: { resourceId: string }) => g.resourceId === s.staff[1].resourceId),
      ).to.equal(true);
    });

    it('when a cancelled colour is forced back while its station was taken then it takes another free station; with none free it is 409', async () => {
      const s = await colourSalon();
      const second = await addRoom(s.tenant.id, [s.colourId], { name: 'Fargestasjon 2', sortOrder: 101 });
      const day = localDay(3);
      const colour = (await book(s, s.colourId, day, '10:00', s.staff[0].resourceId)).body.data;
      expect((await call('post', `/bookings/${colour.id}/cancel`, s.owner.token, { bySalon: true })).status).to.equal(200);
      const taker = (await book(s, s.colourId, day, '10:00', s.staff[1].resourceId)).body.data;
      expect(
        taker.items[0].segments.find((g: { resourceType: string }) => g.resourceType === 'equipment').resourceId,
        'the first station, free again',
      ).to.equal(s.stationId);
      const back = await call('post', `/bookings/${colour.id}/status/CONFIRMED`, s.owner.token, { force: true, reason: 'avbestilt ved en feil' });
      expect(back.status, JSON.stringify(back.body)).to.equal(200);
      const rows = await (await knex())('booking_segments').where({ bookingId: colour.id, resourceType: 'equipment' });
      expect(rows.map((g: { resourceId: string; isActive: boolean }) => [g.resourceId, g.isActive])).to.deep.equal([[second, true]]);
      // cancelled again, and both stations taken meanwhile: forcing it back is refused and leaves it cancelled
      expect((await call('post', `/bookings/${colour.id}/cancel`, s.owner.token, { bySalon: true })).status).to.equal(200);
      const third = await addStaff(s.tenant.id, [s.colourId]);
      expect((await book(s, s.colourId, day, '10:00', third.resourceId)).status).to.equal(201);
      const refused = await call('post', `/bookings/${colour.id}/status/CONFIRMED`, s.owner.token, { force: true, reason: 'igjen' });
      expect([refused.status, refused.body.error.code]).to.deep.equal([409, 'BOOKING_CONFLICT']);
      expect((await (await knex())('bookings').where({ id: colour.id }).first()).status).to.equal('CANCELLED');
    });
  });

  describe('the public portal', () => {
    it('when a guest books the colour then the booking and its answer span the whole visit, and the station is held', async () => {
      const s = await colourSalon();
      const day = localDay(3);
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
        startTime: at(day, '10:00'),
        items: [
          { serviceId: s.colourId, resourceId: s.staff[0].resourceId },
          { serviceId: s.serviceId, resourceId: s.staff[0].resourceId },
        ],
        customer: { name: 'Gjest', phone: phone() },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data).to.include({ startTime: at(day, '10:00'), endTime: at(day, '12:00') });
      const station = await (await knex())('booking_segments').where({ bookingId: res.body.data.id, resourceType: 'equipment' }).first();
      expect(station).to.include({ resourceId: s.stationId, kind: 'PROCESSING' });
    });
  });

  describe('100 requests racing for overlapping parts', () => {
    it('when 100 requests for a colour at 10:00 race over four stylists and the only station then exactly one is booked and 99 get 409 BOOKING_CONFLICT', async function () {
      this.timeout(120_000);
      const s = await colourSalon(4);
      const day = localDay(6);
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => book(s, s.colourId, day, '10:00', s.staff[i % 4].resourceId)));
      const statuses = results.map((r) => r.status);
      expect(
        statuses.filter((x) => x === 201),
        JSON.stringify(results.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.body)),
      ).to.have.length(1);
      expect(results.filter((r) => r.status === 409 && r.body.error.code === 'BOOKING_CONFLICT')).to.have.length(99);
      const bookings = await (await knex())('bookings').where({ tenantId: s.tenant.id });
      expect(bookings).to.have.length(1);
      expect(await (await knex())('booking_segments').where({ tenantId: s.tenant.id })).to.have.length(4);
    });
  });

  describe('GET /schedule', () => {
    it('when the owner reads the day then each stylist and the station have their blocks with booking, customer, service, phase kind and times', async () => {
      const s = await colourSalon();
      const day = localDay(3);
      const colour = (await book(s, s.colourId, day, '10:00', s.staff[0].resourceId)).body.data;
      const cut = (await book(s, s.serviceId, day, '10:30', s.staff[0].resourceId)).body.data;
      const unassigned = (await book(s, s.serviceId, day, '14:00', null)).body.data;
      const res = await call('get', `/schedule?date=${day}`, s.owner.token);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const { staff, resources, unassigned: open } = res.body.data;
      const blocks = (row: {
        blocks: { bookingId: string; kind: string; startTime: string; endTime: string; customer: { name: string } | null; serviceId: string }[];
      }) =>
        row.blocks.map(
          (b) =>
            `${b.bookingId === colour.id ? 'colour' : b.bookingId === cut.id ? 'cut' : b.bookingId} ${b.kind} ${localTime(b.startTime)}-${localTime(b.endTime)}`,
        );
      const first = staff.find((r: { resourceId: string }) => r.resourceId === s.staff[0].resourceId);
      expect(blocks(first)).to.deep.equal(['colour WORK 10:00-10:30', 'cut WORK 10:30-11:00', 'colour PROCESSING 10:30-11:05', 'colour WORK 11:05-11:30']);
      const customer = await (await knex())('customers').where({ id: colour.customerId }).first('phone');
      expect(first.blocks[0]).to.deep.include({
        serviceId: s.colourId,
        status: 'CONFIRMED',
        customer: { id: colour.customerId, name: 'Kari Kunde', phone: customer.phone },
        notes: null,
      });
      expect(staff.find((r: { resourceId: string }) => r.resourceId === s.staff[1].resourceId).blocks).to.deep.equal([]);
      expect(resources).to.have.length(1);
      expect(resources[0]).to.include({ resourceId: s.stationId, type: 'equipment', name: 'Fargestasjon' });
      expect(blocks(resources[0])).to.deep.equal(['colour PROCESSING 10:30-11:05']);
      expect(open.map((b: { bookingId: string; kind: string }) => [b.bookingId, b.kind])).to.deep.equal([[unassigned.id, 'WORK']]);
    });

    it("when the staff member reads the day then each block of a booking gives the customer's phone and the booking's notes, to call a customer who is late", async () => {
      const s = await colourSalon();
      const day = localDay(3);
      const number = phone();
      const booked = await call('post', '/bookings', s.owner.token, {
        startTime: at(day, '12:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[1].resourceId }],
        customer: { name: 'Per Sen', phone: number },
        notes: 'Allergisk mot ammoniakk',
      });
      expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
      const res = await call('get', `/schedule?date=${day}`, s.staff[1].user.token);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [block] = res.body.data.staff[0].blocks;
      expect(block).to.deep.include({
        bookingId: booked.body.data.id,
        notes: 'Allergisk mot ammoniakk',
        customer: { id: booked.body.data.customerId, name: 'Per Sen', phone: number },
      });
    });

    it('when a STAFF member reads the day then they see their own row and, elsewhere, only the blocks of bookings they may see; bad dates 400, no token 401', async () => {
      const s = await colourSalon();
      const day = localDay(3);
      await book(s, s.colourId, day, '10:00', s.staff[0].resourceId);
      const mine = (await book(s, s.colourId, day, '13:00', s.staff[1].resourceId)).body.data;
      const res = await call('get', `/schedule?date=${day}`, s.staff[1].user.token);
      expect(res.status).to.equal(200);
      expect(res.body.data.staff.map((r: { resourceId: string }) => r.resourceId)).to.deep.equal([s.staff[1].resourceId]);
      expect(res.body.data.resources[0].blocks.map((b: { bookingId: string }) => b.bookingId)).to.deep.equal([mine.id]);
      expect((await call('get', '/schedule?date=2026-02-30', s.owner.token)).status).to.equal(400);
      expect((await call('get', '/schedule', s.owner.token)).status).to.equal(400);
      expect((await call('get', `/schedule?date=${day}`)).status).to.equal(401);
    });

    it('when a stylist has been added as a room by mistake then it is never offered as staff, and inactive resources only show with blocks', async () => {
      const s = await colourSalon();
      const room = await addRoom(s.tenant.id, [s.serviceId], { type: 'room', name: 'Rom' });
      const got = await call('get', `/availability?serviceId=${s.serviceId}&date=${localDay(3)}&resourceId=${room}`, s.owner.token);
      expect(got.body.data.slots).to.deep.equal([]);
      const booking = await book(s, s.serviceId, localDay(3), '10:00', room);
      expect([booking.status, booking.body.error.code]).to.deep.equal([422, 'RESOURCE_NOT_QUALIFIED']);
      const idle = await addStaff(s.tenant.id, [s.serviceId], { isActive: false });
      const day = (await call('get', `/schedule?date=${localDay(3)}`, s.owner.token)).body.data;
      expect(day.staff.map((r: { resourceId: string }) => r.resourceId)).to.not.include(idle.resourceId);
    });
  });
});
