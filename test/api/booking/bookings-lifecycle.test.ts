import { expect } from 'chai';
import { call, http } from '../../support/http';
import { stack } from '../../support/stack';
import { createAdmin } from '../../support/factories';
import { addService, addStaff, at, bookingSalon, knex, localDay, type BookingSalon } from '../../support/booking-fixtures';
import type { RecordingSignaller } from '../../support/recording-signaller';
import { impersonationToken } from '../../support/salon-roles';

async function signalsFor(bookingId: string) {
  const sig = (await stack()).platform.deps.signaller as RecordingSignaller;
  return sig.sent.filter((x) => x.ref.workflowId === `booking:${bookingId}`).map((x) => x.event);
}

async function book(s: BookingSalon, opts: { date?: string; time?: string; resourceId?: string | null; token?: string } = {}) {
  const res = await call('post', '/bookings', opts.token ?? s.owner.token, {
    startTime: at(opts.date ?? localDay(2), opts.time ?? '10:00'),
    items: [{ serviceId: s.serviceId, ...(opts.resourceId === null ? {} : { resourceId: opts.resourceId ?? s.staff[0].resourceId }) }],
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data as { id: string; status: string; version: number; resourceId: string | null; startTime: string };
}

describe('booking lifecycle', () => {
  describe('POST /bookings/:id/status/:status', () => {
    it('when a booking that has started walks the table CONFIRMED -> ARRIVED -> IN_PROGRESS -> COMPLETED then each step bumps the version, is audited and signalled', async () => {
      const s = await bookingSalon();
      const b = await book(s, { date: localDay(-1) });
      for (const [to, event, version] of [
        ['ARRIVED', 'BookingArrived', 2],
        ['IN_PROGRESS', 'BookingStarted', 3],
        ['COMPLETED', 'BookingCompleted', 4],
      ] as const) {
        const res = await call('post', `/bookings/${b.id}/status/${to}`, s.staff[0].user.token);
        expect(res.status).to.equal(200);
        expect(res.body.data).to.include({ status: to, version });
        expect((await signalsFor(b.id)).at(-1)).to.deep.equal({ type: event, entityVersion: version });
      }
      const log = await call('get', `/bookings/${b.id}/audit-log`, s.owner.token);
      expect(log.status).to.equal(200);
      expect(log.body.data.map((e: { action: string; toStatus: string }) => `${e.action}:${e.toStatus}`)).to.deep.equal([
        'CREATED:CONFIRMED',
        'STATUS_CHANGED:ARRIVED',
        'STATUS_CHANGED:IN_PROGRESS',
        'STATUS_CHANGED:COMPLETED',
      ]);
      expect(log.body.data[1]).to.include({ fromStatus: 'CONFIRMED', actorRole: 'STAFF', actorUserId: s.staff[0].user.id, forced: false });
      expect(log.body.meta).to.deep.equal({ total: 4, page: 1, limit: 20, totalPages: 1 });
    });

    it('when a booking of tomorrow is marked ARRIVED, IN_PROGRESS or NO_SHOW tonight then 422 BOOKING_NOT_STARTED, nothing changes and no visit is counted; the owner may force it with a reason', async () => {
      const s = await bookingSalon();
      const customer = await call('post', '/customers', s.owner.token, { name: 'Kari Nordmann', phone: '+4791112233' });
      const res = await call('post', '/bookings', s.owner.token, {
        startTime: at(localDay(1), '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customerId: customer.body.data.id,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const b = res.body.data;
      for (const to of ['ARRIVED', 'IN_PROGRESS', 'NO_SHOW']) {
        const early = await call('post', `/bookings/${b.id}/status/${to}`, s.staff[0].user.token);
        expect(early.status, `${to}: ${JSON.stringify(early.body)}`).to.equal(422);
        expect(early.body.error.code).to.equal('BOOKING_NOT_STARTED');
      }
      const row = await (await knex())('bookings').where({ id: b.id }).first('status', 'version');
      expect(row).to.deep.equal({ status: 'CONFIRMED', version: 1 });
      const forced = await call('post', `/bookings/${b.id}/status/IN_PROGRESS`, s.owner.token, { force: true, reason: 'started a day early by agreement' });
      expect(forced.status, JSON.stringify(forced.body)).to.equal(200);
      expect(forced.body.data.status).to.equal('IN_PROGRESS');
      const completed = await call('post', `/bookings/${b.id}/status/COMPLETED`, s.owner.token);
      expect(completed.status, 'completing a visit in the future needs a force of its own').to.equal(422);
      const tenantCustomer = await (await knex())('tenant_customers').where({ tenantId: s.tenant.id, customerId: customer.body.data.id }).first();
      expect(tenantCustomer.firstVisit ?? null, 'no visit counted').to.equal(null);
    });

    it('when a move is not in the table then 409 BOOKING_INVALID_TRANSITION; the same status too', async () => {
      const s = await bookingSalon();
      const b = await book(s);
      const res = await call('post', `/bookings/${b.id}/status/COMPLETED`, s.owner.token);
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('BOOKING_INVALID_TRANSITION');
      expect((await call('post', `/bookings/${b.id}/status/CONFIRMED`, s.owner.token)).body.error.code).to.equal('BOOKING_INVALID_TRANSITION');
    });

    it('when OWNER forces with a reason then the move happens and the audit entry says forced with the reason', async () => {
      const s = await bookingSalon();
      const b = await book(s);
      const res = await call('post', `/bookings/${b.id}/status/COMPLETED`, s.owner.token, { force: true, reason: 'paid at the desk' });
      expect(res.status).to.equal(200);
      expect(res.body.data.status).to.equal('COMPLETED');
      const log = await call('get', `/bookings/${b.id}/audit-log`, s.owner.token);
      expect(log.body.data.at(-1)).to.include({ forced: true, reason: 'paid at the desk', fromStatus: 'CONFIRMED', toStatus: 'COMPLETED' });
    });

    it('when force has no reason then 400; when STAFF forces then 403', async () => {
      const s = await bookingSalon();
      const b = await book(s);
      const noReason = await call('post', `/bookings/${b.id}/status/COMPLETED`, s.owner.token, { force: true });
      expect(noReason.status).to.equal(400);
      expect(noReason.body.error.code).to.equal('VALIDATION_ERROR');
      const staff = await call('post', `/bookings/${b.id}/status/COMPLETED`, s.staff[0].user.token, { force: true, reason: 'x' });
      expect(staff.status).to.equal(403);
    });

    it('when a cancelled booking is forced back to CONFIRMED while its time was taken then 409 BOOKING_CONFLICT', async () => {
      const s = await bookingSalon();
      const b = await book(s);
      await call('post', `/bookings/${b.id}/cancel`, s.owner.token, { bySalon: true });
      await book(s);
      const res = await call('post', `/bookings/${b.id}/status/CONFIRMED`, s.owner.token, { force: true, reason: 'mistake' });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('BOOKING_CONFLICT');
    });

    it('when the status is unknown or the body has extra fields then 400; no token 401', async () => {
      const s = await bookingSalon();
      const b = await book(s);
      expect((await call('post', `/bookings/${b.id}/status/DONE`, s.owner.token)).status).to.equal(400);
      expect((await call('post', `/bookings/${b.id}/status/ARRIVED`, s.owner.token, { force: 'yes-please' })).status).to.equal(400);
      expect((await call('post', `/bookings/${b.id}/status/ARRIVED`, s.owner.token, { foo: 1 })).status).to.equal(400);
      expect((await call('post', `/bookings/${b.id}/status/ARRIVED`)).status).to.equal(401);
    });
  });

  describe('STAFF scoping and tenants', () => {
    it("when STAFF reads or changes another staff member's booking then 403; unassigned bookings are visible", async () => {
      const s = await bookingSalon({ staff: 2 });
      const theirs = await book(s, { resourceId: s.staff[1].resourceId });
      const open = await book(s, { resourceId: null, time: '12:00' });
      const me = s.staff[0].user.token;
      expect((await call('get', `/bookings/${theirs.id}`, me)).status).to.equal(403);
      expect((await call('post', `/bookings/${theirs.id}/status/ARRIVED`, me)).status).to.equal(403);
      expect((await call('patch', `/bookings/${theirs.id}`, me, { notes: 'x' })).status).to.equal(403);
      expect((await call('get', `/bookings/${theirs.id}/audit-log`, me)).status).to.equal(403);
      expect((await call('post', `/bookings/${theirs.id}/cancel`, me, {})).status).to.equal(403);
      expect((await call('get', `/bookings/${theirs.id}/cancel-preview`, me)).status).to.equal(403);
      expect((await call('get', `/bookings/${open.id}`, me)).status).to.equal(200);
      const list = await call('get', '/bookings', me);
      expect(list.body.data.map((b: { id: string }) => b.id)).to.deep.equal([open.id]);
    });

    it("when a multi-service booking has an item on my resource then STAFF sees it (get and list) although its first item is a colleague's", async () => {
      const s = await bookingSalon({ staff: 2 });
      const colour = await addService(s.tenant.id, { duration: 30 });
      const db = await knex();
      await db('resource_skills').insert({ tenantId: s.tenant.id, resourceId: s.staff[1].resourceId, serviceId: colour.id });
      const res = await call('post', '/bookings', s.owner.token, {
        startTime: at(localDay(2), '10:00'),
        items: [
          { serviceId: s.serviceId, resourceId: s.staff[0].resourceId },
          { serviceId: colour.id, resourceId: s.staff[1].resourceId },
        ],
      });
      expect(res.status).to.equal(201);
      const colleague = s.staff[1].user.token;
      expect((await call('get', `/bookings/${res.body.data.id}`, colleague)).status).to.equal(200);
      const list = await call('get', '/bookings', colleague);
      expect(list.body.data.map((b: { id: string }) => b.id)).to.deep.equal([res.body.data.id]);
    });

    it('when a booking of another salon is addressed then 404 BOOKING_NOT_FOUND on every route', async () => {
      const s = await bookingSalon();
      const other = await bookingSalon();
      const b = await book(other);
      const t = s.owner.token;
      for (const [m, p, body] of [
        ['get', `/bookings/${b.id}`, undefined],
        ['patch', `/bookings/${b.id}`, { notes: 'x' }],
        ['post', `/bookings/${b.id}/status/ARRIVED`, undefined],
        ['post', `/bookings/${b.id}/cancel`, {}],
        ['get', `/bookings/${b.id}/cancel-preview`, undefined],
        ['get', `/bookings/${b.id}/audit-log`, undefined],
        ['post', `/bookings/${b.id}/self-pick`, undefined],
      ] as const) {
        const res = await call(m, p, t, body);
        expect(res.status, `${m} ${p}`).to.equal(404);
        expect(res.body.error.code).to.equal('BOOKING_NOT_FOUND');
      }
    });

    it('when ids are not UUIDs then 400 VALIDATION_ERROR on every booking route', async () => {
      const s = await bookingSalon();
      const t = s.owner.token;
      for (const [m, p, body] of [
        ['get', '/bookings/nope', undefined],
        ['patch', '/bookings/nope', { notes: 'x' }],
        ['post', '/bookings/nope/status/ARRIVED', undefined],
        ['post', '/bookings/nope/cancel', {}],
        ['get', '/bookings/nope/cancel-preview', undefined],
        ['get', '/bookings/nope/audit-log', undefined],
        ['post', '/bookings/nope/self-pick', undefined],
        ['get', `/public/tenants/${s.tenant.slug}/bookings/nope?phone=1`, undefined],
        ['post', `/public/tenants/${s.tenant.slug}/bookings/nope/cancel`, { phone: '1' }],
      ] as const) {
        const res = await call(m, p, t, body);
        expect(res.status, `${m} ${p}`).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
    });

    it('when the platform admin acts inside a tenant by impersonating its owner then they may read, force a status and read the audit log; its own token with x-tenant-id is 403', async () => {
      const s = await bookingSalon();
      const b = await book(s);
      const admin = await createAdmin();
      const agent = await http();
      const own = await agent.get(`/api/bookings/${b.id}`).set('Authorization', `Bearer ${admin.token}`).set('x-tenant-id', s.tenant.id);
      expect(own.status).to.equal(403);
      const token = await impersonationToken(admin, s.tenant.id);
      const get = await agent.get(`/api/bookings/${b.id}`).set('Authorization', `Bearer ${token}`);
      expect(get.status).to.equal(200);
      const forced = await agent
        .post(`/api/bookings/${b.id}/status/NO_SHOW`)
        .set('Authorization', `Bearer ${token}`)
        .send({ force: true, reason: 'support ticket 42' });
      expect(forced.status).to.equal(200);
      expect(forced.body.data.status).to.equal('NO_SHOW');
      const log = await agent.get(`/api/bookings/${b.id}/audit-log`).set('Authorization', `Bearer ${token}`);
      expect(log.body.data.at(-1)).to.include({ actorRole: 'OWNER', actorUserId: admin.id, reason: 'support ticket 42', forced: false });
    });

    it('when no token (or a malformed one) is sent then every staff-side booking route answers 401', async () => {
      const s = await bookingSalon();
      const b = await book(s);
      for (const [m, p, body] of [
        ['get', `/availability?serviceId=${s.serviceId}&date=${localDay(2)}`, undefined],
        ['get', '/bookings', undefined],
        ['post', '/bookings', { startTime: at(localDay(2), '12:00'), items: [{ serviceId: s.serviceId }] }],
        ['post', '/bookings/walk-in', { serviceId: s.serviceId }],
        ['get', `/bookings/${b.id}`, undefined],
        ['patch', `/bookings/${b.id}`, { notes: 'x' }],
        ['post', `/bookings/${b.id}/status/ARRIVED`, undefined],
        ['post', `/bookings/${b.id}/cancel`, {}],
        ['get', `/bookings/${b.id}/cancel-preview`, undefined],
        ['get', `/bookings/${b.id}/audit-log`, undefined],
        ['post', `/bookings/${b.id}/self-pick`, undefined],
      ] as const) {
        for (const token of [undefined, 'not-a-jwt']) {
          const res = await call(m, p, token, body);
          expect(res.status, `${m} ${p} ${token ?? 'none'}`).to.equal(401);
          expect(res.body.error.code).to.equal('UNAUTHORIZED');
        }
      }
    });

    it('when ADMIN has no tenant context then 403', async () => {
      const admin = await createAdmin();
      expect((await call('get', '/bookings', admin.token)).status).to.equal(403);
    });
  });

  describe('GET /bookings', () => {
    it('filters by status list, salon-local date, date range and resource; sorts and paginates', async () => {
      const s = await bookingSalon({ staff: 2 });
      const d2 = localDay(2);
      const d4 = localDay(4);
      const a = await book(s, { date: d2, time: '09:00' });
      const b = await book(s, { date: d2, time: '11:00', resourceId: s.staff[1].resourceId });
      const c = await book(s, { date: d4, time: '10:00' });
      await call('post', `/bookings/${b.id}/cancel`, s.owner.token, { bySalon: true });
      const t = s.owner.token;
      const ids = (res: { status: number; body: { data: { id: string }[] } }) => {
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.data.map((x) => x.id);
      };
      expect(ids(await call('get', `/bookings?date=${d2}&sort=startTime&order=asc`, t))).to.deep.equal([a.id, b.id]);
      expect(ids(await call('get', `/bookings?status=CONFIRMED&sort=startTime&order=asc`, t))).to.deep.equal([a.id, c.id]);
      expect(ids(await call('get', `/bookings?status=CANCELLED,NO_SHOW`, t))).to.deep.equal([b.id]);
      expect(ids(await call('get', `/bookings?status=CANCELLED,%20NO_SHOW`, t))).to.deep.equal([b.id]);
      expect(ids(await call('get', `/bookings?dateFrom=${localDay(3)}&dateTo=${d4}`, t))).to.deep.equal([c.id]);
      expect(ids(await call('get', `/bookings?resourceId=${s.staff[1].resourceId}`, t))).to.deep.equal([b.id]);
      const page = await call('get', `/bookings?sort=startTime&order=desc&limit=2&page=2`, t);
      expect(ids(page)).to.deep.equal([a.id]);
      expect(page.body.meta).to.deep.equal({ total: 3, page: 2, limit: 2, totalPages: 2, nextAfter: null });
    });

    it('when a client pages by the cursor (after = the meta.nextAfter of the page before) then it gets the pages it gets by number, in the same filters, sort and order, and the last page says nextAfter null', async () => {
      const s = await bookingSalon({ staff: 2 });
      const booked = [];
      for (const [day, time, staff] of [
        [2, '09:00', 0],
        [2, '09:00', 1],
        [3, '10:00', 0],
        [3, '12:00', 1],
        [4, '09:00', 0],
      ] as const)
        booked.push(await book(s, { date: localDay(day), time, resourceId: s.staff[staff].resourceId }));
      const t = s.owner.token;
      for (const order of ['asc', 'desc']) {
        const byNumber = [];
        for (let page = 1; page <= 3; page++) byNumber.push(await call('get', `/bookings?sort=startTime&order=${order}&limit=2&page=${page}`, t));
        const byCursor = [await call('get', `/bookings?sort=startTime&order=${order}&limit=2`, t)];
        while (byCursor.at(-1)!.body.meta.nextAfter)
          byCursor.push(await call('get', `/bookings?sort=startTime&order=${order}&limit=2&after=${byCursor.at(-1)!.body.meta.nextAfter}`, t));
        const idsOf = (pages: { body: { data: { id: string }[] } }[]) => pages.map((p) => p.body.data.map((b) => b.id));
        expect(idsOf(byCursor), order).to.deep.equal(idsOf(byNumber));
        expect(idsOf(byCursor).flat()).to.have.members(booked.map((b) => b.id));
        expect(byCursor.map((p) => p.body.meta.total)).to.deep.equal([5, 5, 5]);
        expect(byCursor[2].body.meta.nextAfter).to.equal(null);
      }
      // the same filters narrow a cursor's pages: staff 1's two bookings, one a page
      const first = await call('get', `/bookings?resourceId=${s.staff[1].resourceId}&limit=1&sort=createdAt&order=desc`, t);
      const second = await call('get', `/bookings?resourceId=${s.staff[1].resourceId}&limit=1&sort=createdAt&order=desc&after=${first.body.meta.nextAfter}`, t);
      expect([first.body.data[0].id, second.body.data[0].id]).to.deep.equal([booked[3].id, booked[1].id]);
    });

    it("when a STAFF member pages by the cursor then they get their own and the unassigned bookings, never a colleague's", async () => {
      const s = await bookingSalon({ staff: 2 });
      const mine = await book(s, { date: localDay(2), time: '09:00', resourceId: s.staff[0].resourceId });
      await book(s, { date: localDay(2), time: '10:00', resourceId: s.staff[1].resourceId });
      const unassigned = await book(s, { date: localDay(3), time: '09:00', resourceId: null });
      const t = s.staff[0].user.token;
      const first = await call('get', `/bookings?sort=startTime&order=asc&limit=1`, t);
      const second = await call('get', `/bookings?sort=startTime&order=asc&limit=1&after=${first.body.meta.nextAfter}`, t);
      expect([first.body.data[0].id, second.body.data[0].id]).to.deep.equal([mine.id, unassigned.id]);
      expect(second.body.meta).to.include({ total: 2 });
    });

    it('when after was made for another sort or order, or is not a cursor of the API, then 400 VALIDATION_ERROR on after', async () => {
      const s = await bookingSalon();
      await book(s, { date: localDay(2), time: '09:00' });
      await book(s, { date: localDay(2), time: '10:00' });
      const t = s.owner.token;
      const cursor = (await call('get', `/bookings?sort=startTime&order=asc&limit=1`, t)).body.meta.nextAfter as string;
      const made = (text: string) => Buffer.from(text).toString('base64url');
      for (const q of [
        `sort=startTime&order=desc&after=${cursor}`,
        `sort=createdAt&order=asc&after=${cursor}`,
        `after=${cursor}`,
        `after=not-a-cursor`,
        `sort=startTime&order=asc&after=${made('b1:startTime:asc:not-a-uuid')}`,
        `sort=startTime&order=asc&after=${made(`b0:startTime:asc:${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`)}`,
      ]) {
        const res = await call('get', `/bookings?${q}`, t);
        expect(res.status, q).to.equal(400);
        expect(res.body.error.code, q).to.equal('VALIDATION_ERROR');
        expect(
          res.body.error.details.map((d: { field: string }) => d.field),
          q,
        ).to.deep.equal(['after']);
      }
      expect((await call('get', `/bookings?sort=startTime&order=asc&after=${cursor}`, t)).status).to.equal(200);
    });

    it('when the query is bad then 400 (unknown status, limit 101, bad date, unknown sort, unknown parameter); limit 100 is fine', async () => {
      const s = await bookingSalon();
      for (const q of ['status=DONE', 'limit=101', 'date=2026-02-30x', 'sort=price', 'foo=1', 'page=0']) {
        const res = await call('get', `/bookings?${q}`, s.owner.token);
        expect(res.status, q).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
      expect((await call('get', '/bookings?limit=100', s.owner.token)).status).to.equal(200);
      const empty = await call('get', '/bookings', s.owner.token);
      expect(empty.body.meta).to.deep.equal({ total: 0, page: 1, limit: 20, totalPages: 0, nextAfter: null });
    });
  });

  describe('PATCH /bookings/:id', () => {
    it('when rescheduled to a free time then items move, the audit records it and BookingRescheduled is signalled; its own old time does not conflict', async () => {
      const s = await bookingSalon();
      const b = await book(s);
      const res = await call('patch', `/bookings/${b.id}`, s.owner.token, { startTime: at(localDay(2), '10:30') });
      expect(res.status).to.equal(200);
      expect(res.body.data.startTime).to.equal(at(localDay(2), '10:30'));
      expect(res.body.data.items[0].startTime).to.equal(at(localDay(2), '10:30'));
      expect(res.body.data.version).to.equal(2);
      expect((await signalsFor(b.id)).at(-1)).to.deep.equal({ type: 'BookingRescheduled', entityVersion: 2 });
      const log = await call('get', `/bookings/${b.id}/audit-log`, s.owner.token);
      expect(log.body.data.at(-1).action).to.equal('RESCHEDULED');
    });

    it('when moved onto another booking then 409 BOOKING_CONFLICT; outside the schedule 422', async () => {
      const s = await bookingSalon();
      const b = await book(s);
      await book(s, { time: '12:00' });
      const res = await call('patch', `/bookings/${b.id}`, s.owner.token, { startTime: at(localDay(2), '11:30') });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('BOOKING_CONFLICT');
      const late = await call('patch', `/bookings/${b.id}`, s.owner.token, { startTime: at(localDay(2), '16:30') });
      expect(late.status).to.equal(422);
      expect(late.body.error.code).to.equal('RESOURCE_NOT_AVAILABLE');
    });

    it('when STAFF moves a booking to another resource then 403; notes are fine', async () => {
      const s = await bookingSalon({ staff: 2 });
      const b = await book(s);
      const me = s.staff[0].user.token;
      const res = await call('patch', `/bookings/${b.id}`, me, { resourceId: s.staff[1].resourceId });
      expect(res.status).to.equal(403);
      const notes = await call('patch', `/bookings/${b.id}`, me, { notes: 'allergic to latex' });
      expect(notes.status).to.equal(200);
      expect(notes.body.data.notes).to.equal('allergic to latex');
    });

    it('when OWNER reassigns to a free colleague then 200; a cancelled booking cannot move (409)', async () => {
      const s = await bookingSalon({ staff: 2 });
      const b = await book(s);
      const res = await call('patch', `/bookings/${b.id}`, s.owner.token, { resourceId: s.staff[1].resourceId });
      expect(res.status).to.equal(200);
      expect(res.body.data.resourceId).to.equal(s.staff[1].resourceId);
      await call('post', `/bookings/${b.id}/cancel`, s.owner.token, {});
      const moved = await call('patch', `/bookings/${b.id}`, s.owner.token, { startTime: at(localDay(3), '10:00') });
      expect(moved.status).to.equal(409);
      expect(moved.body.error.code).to.equal('BOOKING_NOT_MODIFIABLE');
    });

    it('when the body is empty, has unknown fields or wrong types then 400', async () => {
      const s = await bookingSalon();
      const b = await book(s);
      for (const body of [{}, { colour: 'red' }, { startTime: 'later' }, { notes: 'x'.repeat(2001) }, { resourceId: 'abc' }]) {
        expect((await call('patch', `/bookings/${b.id}`, s.owner.token, body)).status, JSON.stringify(body)).to.equal(400);
      }
    });
  });

  describe('cancellation', () => {
    it('when the salon cancels then CANCELLED by SALON with reason, audit and BookingCancelledBySalon; a second cancel is 409', async () => {
      const s = await bookingSalon();
      const b = await book(s);
      const res = await call('post', `/bookings/${b.id}/cancel`, s.owner.token, { bySalon: true, reason: 'stylist ill' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ status: 'CANCELLED', cancelledBy: 'SALON', cancelReason: 'stylist ill', cancellationFee: 0 });
      expect((await signalsFor(b.id)).at(-1)).to.deep.equal({ type: 'BookingCancelledBySalon', entityVersion: 2 });
      const db = await knex();
      expect((await db('booking_items').where({ bookingId: b.id }).first()).isActive).to.equal(false);
      const again = await call('post', `/bookings/${b.id}/cancel`, s.owner.token, {});
      expect(again.status).to.equal(409);
      expect(again.body.error.code).to.equal('BOOKING_INVALID_TRANSITION');
    });

    it('when the customer cancels through the salon then cancelledBy CUSTOMER and BookingCancelled', async () => {
      const s = await bookingSalon();
      const b = await book(s);
      const res = await call('post', `/bookings/${b.id}/cancel`, s.staff[0].user.token, { reason: 'called in' });
      expect(res.body.data.cancelledBy).to.equal('CUSTOMER');
      expect((await signalsFor(b.id)).at(-1)?.type).to.equal('BookingCancelled');
    });

    it('cancel-preview: inside the window free, outside not free, salon always free; writes nothing', async () => {
      const s = await bookingSalon({ settings: { cancellationHours: 24 } });
      const far = await book(s, { date: localDay(5) });
      const p1 = await call('get', `/bookings/${far.id}/cancel-preview`, s.owner.token);
      expect(p1.status).to.equal(200);
      expect(p1.body.data).to.include({
        withinFreeWindow: true,
        action: 'NONE',
        deposit: 'NONE',
        cancelledBy: 'CUSTOMER',
        event: 'BookingCancelled',
        cancellable: true,
        cancellationHours: 24,
      });
      const db = await knex();
      // move the booking to 3 hours from now (directly; the policy only needs start and now)
      const soon = new Date(Date.now() + 3 * 3_600_000);
      await db('bookings')
        .where({ id: far.id })
        .update({ startTime: soon, endTime: new Date(soon.getTime() + 3_600_000) });
      const p2 = await call('get', `/bookings/${far.id}/cancel-preview`, s.owner.token);
      expect(p2.body.data).to.include({ withinFreeWindow: false, action: 'NONE', cancellationFee: 0 });
      const p3 = await call('get', `/bookings/${far.id}/cancel-preview?bySalon=true`, s.owner.token);
      expect(p3.body.data).to.include({ cancelledBy: 'SALON', event: 'BookingCancelledBySalon' });
      expect((await db('bookings').where({ id: far.id }).first()).status).to.equal('CONFIRMED');
      expect((await call('get', `/bookings/${far.id}/cancel-preview?bySalon=maybe`, s.owner.token)).status).to.equal(400);
    });

    it('when the cancel body has unknown fields or a too long reason then 400', async () => {
      const s = await bookingSalon();
      const b = await book(s);
      expect((await call('post', `/bookings/${b.id}/cancel`, s.owner.token, { why: 'x' })).status).to.equal(400);
      expect((await call('post', `/bookings/${b.id}/cancel`, s.owner.token, { reason: 'x'.repeat(501) })).status).to.equal(400);
      expect((await call('post', `/bookings/${b.id}/cancel`, s.owner.token, { reason: 'x'.repeat(500) })).status).to.equal(200);
    });
  });

  describe('POST /bookings/:id/self-pick', () => {
    it('when a qualified staff member picks an unassigned booking then it becomes theirs (audit SELF_PICKED, signal)', async () => {
      const s = await bookingSalon({ staff: 2 });
      const b = await book(s, { resourceId: null });
      const res = await call('post', `/bookings/${b.id}/self-pick`, s.staff[1].user.token);
      expect(res.status).to.equal(200);
      expect(res.body.data.resourceId).to.equal(s.staff[1].resourceId);
      expect(res.body.data.items[0].resourceId).to.equal(s.staff[1].resourceId);
      expect((await signalsFor(b.id)).at(-1)).to.deep.equal({ type: 'BookingReassigned', entityVersion: 2 });
      const again = await call('post', `/bookings/${b.id}/self-pick`, s.staff[0].user.token);
      expect(again.status).to.equal(403);
    });

    it('when the staff member lacks the skill then 403; when busy then 409 BOOKING_CONFLICT', async () => {
      const s = await bookingSalon({ staff: 2 });
      const other = await addService(s.tenant.id);
      const unskilled = await addStaff(s.tenant.id, [other.id]);
      const b = await book(s, { resourceId: null });
      expect((await call('post', `/bookings/${b.id}/self-pick`, unskilled.user.token)).status).to.equal(403);
      await book(s, { resourceId: s.staff[1].resourceId, time: '10:30' });
      const busy = await call('post', `/bookings/${b.id}/self-pick`, s.staff[1].user.token);
      expect(busy.status).to.equal(409);
      expect(busy.body.error.code).to.equal('BOOKING_CONFLICT');
    });

    it('when 6 qualified staff race for one unassigned booking then exactly one gets it', async () => {
      const s = await bookingSalon({ staff: 6 });
      const b = await book(s, { resourceId: null });
      const results = await Promise.all(s.staff.map((st) => call('post', `/bookings/${b.id}/self-pick`, st.user.token)));
      expect(results.filter((r) => r.status === 200)).to.have.length(1);
      expect(results.filter((r) => r.status === 403)).to.have.length(5);
      const winner = results.find((r) => r.status === 200)!.body.data.resourceId;
      const db = await knex();
      expect((await db('bookings').where({ id: b.id }).first()).resourceId).to.equal(winner);
      expect(await db('booking_audit_logs').where({ bookingId: b.id, action: 'SELF_PICKED' })).to.have.length(1);
    });
  });
});
