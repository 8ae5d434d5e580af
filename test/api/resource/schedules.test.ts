import { expect } from 'chai';
import { stack } from '../../support/stack';
import { salonWithRoles, type Caller, type RoleSalon } from '../../support/salon-roles';
import { tokenFor, unique } from '../../support/factories';
import { call } from '../../support/http';

async function db() {
  return (await stack()).platform.knex;
}

async function newResource(s: RoleSalon, fields: Record<string, unknown> = {}) {
  const res = await s.as('OWNER', 'post', '/resources', { name: unique('Ola'), ...fields });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data as { id: string; userId: string | null };
}

/** A staff resource linked to a login user, and that user's token. */
async function staffMember(s: RoleSalon): Promise<{ id: string; token: string; userId: string }> {
  const email = `${unique('ansatt')}@example.test`;
  const r = await newResource(s, { login: { email, password: 'sekret-passord', role: 'STAFF' } });
  const user = await (await db())('users').where({ id: r.userId }).first();
  return { id: r.id, token: await tokenFor(user), userId: user.id };
}

const slot = (dayOfWeek: number, startTime: string, endTime: string) => ({ dayOfWeek, startTime, endTime });

describe('schedules, overrides and time-off', () => {
  let s: RoleSalon;
  let other: RoleSalon;
  before(async () => {
    s = await salonWithRoles();
    other = await salonWithRoles();
  });

  describe('weekly schedules', () => {
    it('when the owner bulk-creates several slots per day then they are stored as given and listed by day and time', async () => {
      const r = await newResource(s);
      const res = await s.as('OWNER', 'post', `/resources/${r.id}/schedules/bulk`, {
        schedules: [slot(1, '12:30', '17:00'), slot(1, '08:00', '11:30'), slot(2, '09:00', '17:00'), { ...slot(6, '10:00', '14:00'), isActive: false }],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data).to.have.length(4);
      const list = await s.as('STAFF', 'get', `/resources/${r.id}/schedules`);
      expect(list.status).to.equal(200);
      expect(
        list.body.data.map((x: { dayOfWeek: number; startTime: string; endTime: string; isActive: boolean }) => [
          x.dayOfWeek,
          x.startTime,
          x.endTime,
          x.isActive,
        ]),
      ).to.deep.equal([
        [1, '08:00', '11:30', true],
        [1, '12:30', '17:00', true],
        [2, '09:00', '17:00', true],
        [6, '10:00', '14:00', false],
      ]);
      const rows = await (await db())('resource_schedules').where({ resourceId: r.id });
      expect(rows.every((row: { tenantId: string }) => row.tenantId === s.tenant.id)).to.equal(true);
    });

    it('when a slot is added on a Sunday, when the salon is closed, then it is saved and the answer warns, naming its dayOfWeek; an open day has no warning', async () => {
      const r = await newResource(s);
      const sunday = await s.as('OWNER', 'post', `/resources/${r.id}/schedules`, slot(0, '10:00', '14:00'));
      expect(sunday.status, JSON.stringify(sunday.body)).to.equal(201);
      expect(sunday.body.warnings).to.have.length(1);
      expect(sunday.body.warnings[0]).to.include({ code: 'SCHEDULE_ON_CLOSED_DAY', field: 'dayOfWeek' });
      expect(await (await db())('resource_schedules').where({ resourceId: r.id, dayOfWeek: 0 })).to.have.length(1);
      const bulk = await s.as('OWNER', 'post', `/resources/${r.id}/schedules/bulk`, { schedules: [slot(1, '09:00', '17:00'), slot(0, '15:00', '16:00')] });
      expect(bulk.status, JSON.stringify(bulk.body)).to.equal(201);
      expect(bulk.body.warnings.map((w: { field: string }) => w.field)).to.deep.equal(['schedules[1].dayOfWeek']);
      const monday = await s.as('OWNER', 'post', `/resources/${r.id}/schedules`, slot(2, '09:00', '12:00'));
      expect(monday.body.warnings).to.deep.equal([]);
    });

    it("when the one slot of POST /schedules ends before it starts then 400 names the slot's own endTime, a list's slot schedules[i].endTime", async () => {
      const r = await newResource(s);
      const single = await s.as('OWNER', 'post', `/resources/${r.id}/schedules`, slot(1, '12:00', '11:00'));
      expect([single.status, single.body.error.details.map((d: { field: string }) => d.field)]).to.deep.equal([400, ['endTime']]);
      const list = await s.as('OWNER', 'post', `/resources/${r.id}/schedules/bulk`, { schedules: [slot(1, '08:00', '09:00'), slot(1, '12:00', '11:00')] });
      expect([list.status, list.body.error.details.map((d: { field: string }) => d.field)]).to.deep.equal([400, ['schedules[1].endTime']]);
    });

    it('when bulk replace is sent then the given slots become the whole week', async () => {
      const r = await newResource(s);
      await s.as('OWNER', 'post', `/resources/${r.id}/schedules/bulk`, { schedules: [slot(1, '08:00', '16:00'), slot(3, '08:00', '16:00')] });
      const res = await s.as('OWNER', 'post', `/resources/${r.id}/schedules/bulk`, { schedules: [slot(1, '10:00', '18:00')], replace: true });
      expect(res.status).to.equal(201);
      const list = await s.as('OWNER', 'get', `/resources/${r.id}/schedules`);
      expect(list.body.data.map((x: { startTime: string }) => x.startTime)).to.deep.equal(['10:00']);
    });

    it('when a new slot overlaps a stored one (or one in the same body) then 409 SCHEDULE_OVERLAP and nothing is written; touching slots are fine', async () => {
      const r = await newResource(s);
      expect((await s.as('OWNER', 'post', `/resources/${r.id}/schedules`, slot(1, '09:00', '12:00'))).status).to.equal(201);
      const clash = await s.as('OWNER', 'post', `/resources/${r.id}/schedules`, slot(1, '11:59', '13:00'));
      expect(clash.status).to.equal(409);
      expect(clash.body.error.code).to.equal('SCHEDULE_OVERLAP');
      const inBody = await s.as('OWNER', 'post', `/resources/${r.id}/schedules/bulk`, { schedules: [slot(2, '09:00', '12:00'), slot(2, '10:00', '11:00')] });
      expect(inBody.status).to.equal(409);
      expect((await s.as('OWNER', 'post', `/resources/${r.id}/schedules`, slot(1, '12:00', '13:00'))).status).to.equal(201);
      expect((await s.as('OWNER', 'post', `/resources/${r.id}/schedules`, slot(2, '11:00', '13:00'))).status).to.equal(201);
      expect(await (await db())('resource_schedules').where({ resourceId: r.id })).to.have.length(3);
    });

    const badSlots: [string, unknown][] = [
      ['end equals start', slot(1, '09:00', '09:00')],
      ['end before start', slot(1, '17:00', '09:00')],
      ['a time is not HH:mm', slot(1, '9:00', '17:00')],
      ['24:00 is given', slot(1, '09:00', '24:00')],
      ['dayOfWeek is 7', slot(7, '09:00', '17:00')],
      ['dayOfWeek is -1', slot(-1, '09:00', '17:00')],
      ['a field is unknown', { ...slot(1, '09:00', '17:00'), note: 'x' }],
      ['startTime is missing', { dayOfWeek: 1, endTime: '17:00' }],
    ];
    for (const [when, body] of badSlots) {
      it(`when ${when} then 400 VALIDATION_ERROR`, async () => {
        const r = await newResource(s);
        const res = await s.as('OWNER', 'post', `/resources/${r.id}/schedules`, body);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      });
    }

    it('when boundaries 0 and 6 and 00:00-23:59 are used then they are accepted', async () => {
      const r = await newResource(s);
      const res = await s.as('OWNER', 'post', `/resources/${r.id}/schedules/bulk`, { schedules: [slot(0, '00:00', '23:59'), slot(6, '00:00', '23:59')] });
      expect(res.status).to.equal(201);
    });

    it('when the owner patches a slot into an overlap then 409; a valid patch changes it; delete removes it', async () => {
      const r = await newResource(s);
      const created = await s.as('OWNER', 'post', `/resources/${r.id}/schedules/bulk`, { schedules: [slot(1, '08:00', '10:00'), slot(1, '12:00', '14:00')] });
      const [first, second] = created.body.data;
      const clash = await s.as('OWNER', 'patch', `/resources/${r.id}/schedules/${first.id}`, { endTime: '12:30' });
      expect(clash.status).to.equal(409);
      const reversed = await s.as('OWNER', 'patch', `/resources/${r.id}/schedules/${first.id}`, { startTime: '11:00' });
      expect(reversed.status).to.equal(400);
      const ok = await s.as('OWNER', 'patch', `/resources/${r.id}/schedules/${first.id}`, { endTime: '12:00', isActive: false });
      expect(ok.status).to.equal(200);
      expect(ok.body.data).to.include({ startTime: '08:00', endTime: '12:00', isActive: false });
      expect((await s.as('OWNER', 'patch', `/resources/${r.id}/schedules/${first.id}`, {})).status).to.equal(400);
      expect((await s.as('OWNER', 'delete', `/resources/${r.id}/schedules/${second.id}`)).status).to.equal(204);
      const gone = await s.as('OWNER', 'delete', `/resources/${r.id}/schedules/${second.id}`);
      expect(gone.status).to.equal(404);
      expect(gone.body.error.code).to.equal('SCHEDULE_NOT_FOUND');
    });

    it('when a slot is addressed through another resource or salon then 404', async () => {
      const r = await newResource(s);
      const r2 = await newResource(s);
      const created = await s.as('OWNER', 'post', `/resources/${r.id}/schedules`, slot(1, '08:00', '10:00'));
      expect((await s.as('OWNER', 'patch', `/resources/${r2.id}/schedules/${created.body.data.id}`, { isActive: false })).status).to.equal(404);
      const foreign = await other.as('OWNER', 'get', `/resources/${r.id}/schedules`);
      expect(foreign.status).to.equal(404);
      expect(foreign.body.error.code).to.equal('RESOURCE_NOT_FOUND');
      expect((await other.as('OWNER', 'delete', `/resources/${r.id}/schedules/${created.body.data.id}`)).status).to.equal(404);
    });
  });

  describe('schedule overrides', () => {
    it('when the owner sets hours for a date and a day off for another then both are listed by date', async () => {
      const r = await newResource(s);
      const hours = await s.as('OWNER', 'post', `/resources/${r.id}/schedule-overrides`, {
        date: '2030-05-17',
        startTime: '10:00',
        endTime: '14:00',
        reason: 'Nasjonaldag',
      });
      expect(hours.status, JSON.stringify(hours.body)).to.equal(201);
      expect(hours.body.data).to.include({ date: '2030-05-17', startTime: '10:00', endTime: '14:00', reason: 'Nasjonaldag' });
      const off = await s.as('OWNER', 'post', `/resources/${r.id}/schedule-overrides`, { date: '2030-05-01' });
      expect(off.body.data).to.include({ startTime: null, endTime: null });
      const list = await s.as('STAFF', 'get', `/resources/${r.id}/schedule-overrides`);
      expect(list.body.data.map((o: { date: string }) => o.date)).to.deep.equal(['2030-05-01', '2030-05-17']);
      const ranged = await s.as('STAFF', 'get', `/resources/${r.id}/schedule-overrides?dateFrom=2030-05-02&dateTo=2030-05-31`);
      expect(ranged.body.data.map((o: { date: string }) => o.date)).to.deep.equal(['2030-05-17']);
    });

    it('when a second override is created for the same date then 409 SCHEDULE_OVERRIDE_EXISTS', async () => {
      const r = await newResource(s);
      await s.as('OWNER', 'post', `/resources/${r.id}/schedule-overrides`, { date: '2030-06-01' });
      const res = await s.as('OWNER', 'post', `/resources/${r.id}/schedule-overrides`, { date: '2030-06-01', startTime: '09:00', endTime: '10:00' });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('SCHEDULE_OVERRIDE_EXISTS');
    });

    for (const [when, body] of [
      ['only startTime is given', { date: '2030-06-02', startTime: '09:00' }],
      ['end is before start', { date: '2030-06-02', startTime: '10:00', endTime: '09:00' }],
      ['the date is malformed', { date: '02.06.2030' }],
      ['the date is missing', { startTime: '09:00', endTime: '10:00' }],
      ['the reason has 201 characters', { date: '2030-06-02', reason: 'x'.repeat(201) }],
      ['a field is unknown', { date: '2030-06-02', dayOff: true }],
    ] as [string, unknown][]) {
      it(`when ${when} then 400`, async () => {
        const r = await newResource(s);
        const res = await s.as('OWNER', 'post', `/resources/${r.id}/schedule-overrides`, body);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
      });
    }

    it('when an override is patched to a day off and deleted then it follows; another salon gets 404', async () => {
      const r = await newResource(s);
      const created = (await s.as('OWNER', 'post', `/resources/${r.id}/schedule-overrides`, { date: '2030-07-01', startTime: '09:00', endTime: '12:00' })).body
        .data;
      const patched = await s.as('OWNER', 'patch', `/resources/${r.id}/schedule-overrides/${created.id}`, { startTime: null, endTime: null, reason: 'Syk' });
      expect(patched.status).to.equal(200);
      expect(patched.body.data).to.include({ startTime: null, endTime: null, reason: 'Syk' });
      const half = await s.as('OWNER', 'patch', `/resources/${r.id}/schedule-overrides/${created.id}`, { startTime: '09:00' });
      expect(half.status).to.equal(400);
      expect((await other.as('OWNER', 'patch', `/resources/${r.id}/schedule-overrides/${created.id}`, { reason: 'x' })).status).to.equal(404);
      expect((await s.as('OWNER', 'delete', `/resources/${r.id}/schedule-overrides/${created.id}`)).status).to.equal(204);
      const again = await s.as('OWNER', 'delete', `/resources/${r.id}/schedule-overrides/${created.id}`);
      expect(again.body.error.code).to.equal('SCHEDULE_OVERRIDE_NOT_FOUND');
    });
  });

  describe('time-off', () => {
    it('when the owner creates multi-day, partial-day and several same-day entries then all are approved and stored as given', async () => {
      const r = await newResource(s);
      const base = `/resources/${r.id}/time-offs`;
      const multi = await s.as('OWNER', 'post', base, { type: 'vacation', startDate: '2030-07-01', endDate: '2030-07-21', description: 'Sommerferie' });
      expect(multi.status, JSON.stringify(multi.body)).to.equal(201);
      expect(multi.body.data).to.include({
        type: 'vacation',
        startDate: '2030-07-01',
        endDate: '2030-07-21',
        startTime: null,
        endTime: null,
        isApproved: true,
        createdBy: s.owner.id,
      });
      const a = await s.as('OWNER', 'post', base, { type: 'personal', startDate: '2030-08-01', endDate: '2030-08-01', startTime: '09:00', endTime: '10:00' });
      const b = await s.as('OWNER', 'post', base, { type: 'other', startDate: '2030-08-01', endDate: '2030-08-01', startTime: '14:00', endTime: '15:30' });
      expect([a.status, b.status]).to.deep.equal([201, 201]);
      const unapproved = await s.as('OWNER', 'post', base, { type: 'sick', startDate: '2030-08-02', endDate: '2030-08-02', isApproved: false });
      expect(unapproved.body.data.isApproved).to.equal(false);
      const list = await s.as('STAFF', 'get', `${base}?sort=startDate&order=asc`);
      expect(list.body.data.map((t: { startDate: string }) => t.startDate)).to.deep.equal(['2030-07-01', '2030-08-01', '2030-08-01', '2030-08-02']);
      expect(list.body.meta.total).to.equal(4);
    });

    it('when the description has 100 characters then it is accepted; 101 is 400', async () => {
      const r = await newResource(s);
      const ok = await s.as('OWNER', 'post', `/resources/${r.id}/time-offs`, {
        type: 'other',
        startDate: '2030-01-01',
        endDate: '2030-01-01',
        description: 'x'.repeat(100),
      });
      expect(ok.status).to.equal(201);
      const bad = await s.as('OWNER', 'post', `/resources/${r.id}/time-offs`, {
        type: 'other',
        startDate: '2030-01-01',
        endDate: '2030-01-01',
        description: 'x'.repeat(101),
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.error.details[0].field).to.equal('description');
    });

    for (const [when, body] of [
      ['the type is unknown', { type: 'holiday', startDate: '2030-01-01', endDate: '2030-01-01' }],
      ['endDate is before startDate', { type: 'sick', startDate: '2030-01-02', endDate: '2030-01-01' }],
      ['the date does not exist', { type: 'sick', startDate: '2030-02-30', endDate: '2030-03-01' }],
      ['only startTime is given', { type: 'sick', startDate: '2030-01-01', endDate: '2030-01-01', startTime: '10:00' }],
      ['endTime is not after startTime', { type: 'sick', startDate: '2030-01-01', endDate: '2030-01-01', startTime: '10:00', endTime: '10:00' }],
      ['a time is malformed', { type: 'sick', startDate: '2030-01-01', endDate: '2030-01-01', startTime: '10', endTime: '11:00' }],
      ['startDate is missing', { type: 'sick', endDate: '2030-01-01' }],
      ['a field is unknown', { type: 'sick', startDate: '2030-01-01', endDate: '2030-01-01', paid: true }],
    ] as [string, unknown][]) {
      it(`when ${when} then 400 VALIDATION_ERROR`, async () => {
        const r = await newResource(s);
        const res = await s.as('OWNER', 'post', `/resources/${r.id}/time-offs`, body);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      });
    }

    describe('STAFF on their own time-off', () => {
      let me: { id: string; token: string; userId: string };
      before(async () => {
        me = await staffMember(s);
      });

      it('when STAFF creates time-off for themselves (even asking for approval) then it is stored unapproved', async () => {
        const res = await call('post', `/resources/${me.id}/time-offs`, me.token, {
          type: 'personal',
          startDate: '2030-09-01',
          endDate: '2030-09-01',
          isApproved: true,
        });
        expect(res.status).to.equal(201);
        expect(res.body.data).to.include({ isApproved: false, createdBy: me.userId });
      });

      it('when STAFF edits or cancels their unapproved entry then it works', async () => {
        const created = (await call('post', `/resources/${me.id}/time-offs`, me.token, { type: 'sick', startDate: '2030-09-02', endDate: '2030-09-02' })).body
          .data;
        const patched = await call('patch', `/resources/${me.id}/time-offs/${created.id}`, me.token, { endDate: '2030-09-03', description: 'Influensa' });
        expect(patched.status).to.equal(200);
        expect(patched.body.data).to.include({ endDate: '2030-09-03', description: 'Influensa', isApproved: false });
        expect((await call('delete', `/resources/${me.id}/time-offs/${created.id}`, me.token)).status).to.equal(204);
      });

      it('when STAFF tries to approve their own entry then 403 and it stays unapproved', async () => {
        const created = (await call('post', `/resources/${me.id}/time-offs`, me.token, { type: 'sick', startDate: '2030-09-04', endDate: '2030-09-04' })).body
          .data;
        const res = await call('patch', `/resources/${me.id}/time-offs/${created.id}`, me.token, { isApproved: true });
        expect(res.status).to.equal(403);
        expect((await (await db())('time_offs').where({ id: created.id }).first()).isApproved).to.equal(false);
      });

      it('when the owner approves the entry then STAFF can neither edit nor cancel it (409 TIME_OFF_ALREADY_APPROVED); the owner can reject it', async () => {
        const created = (await call('post', `/resources/${me.id}/time-offs`, me.token, { type: 'vacation', startDate: '2030-10-01', endDate: '2030-10-05' }))
          .body.data;
        const approved = await s.as('OWNER', 'patch', `/resources/${me.id}/time-offs/${created.id}`, { isApproved: true });
        expect(approved.status).to.equal(200);
        expect(approved.body.data.isApproved).to.equal(true);
        const edit = await call('patch', `/resources/${me.id}/time-offs/${created.id}`, me.token, { description: 'lengre' });
        expect(edit.status).to.equal(409);
        expect(edit.body.error.code).to.equal('TIME_OFF_ALREADY_APPROVED');
        expect((await call('delete', `/resources/${me.id}/time-offs/${created.id}`, me.token)).status).to.equal(409);
        const rejected = await s.as('OWNER', 'patch', `/resources/${me.id}/time-offs/${created.id}`, { isApproved: false });
        expect(rejected.body.data.isApproved).to.equal(false);
      });

      it('when STAFF creates, edits or deletes time-off of a colleague then 403', async () => {
        const colleague = await newResource(s);
        const res = await call('post', `/resources/${colleague.id}/time-offs`, me.token, { type: 'sick', startDate: '2030-09-01', endDate: '2030-09-01' });
        expect(res.status).to.equal(403);
        const theirs = (
          await s.as('OWNER', 'post', `/resources/${colleague.id}/time-offs`, {
            type: 'sick',
            startDate: '2030-09-01',
            endDate: '2030-09-01',
            isApproved: false,
          })
        ).body.data;
        expect((await call('patch', `/resources/${colleague.id}/time-offs/${theirs.id}`, me.token, { description: 'x' })).status).to.equal(403);
        expect((await call('delete', `/resources/${colleague.id}/time-offs/${theirs.id}`, me.token)).status).to.equal(403);
      });

      it('when a STAFF user without a resource creates time-off then 403', async () => {
        const r = await newResource(s);
        const res = await s.as('STAFF', 'post', `/resources/${r.id}/time-offs`, { type: 'sick', startDate: '2030-09-01', endDate: '2030-09-01' });
        expect(res.status).to.equal(403);
      });
    });

    describe('GET /time-offs', () => {
      let fresh: RoleSalon;
      let r1: { id: string };
      let r2: { id: string };
      before(async () => {
        fresh = await salonWithRoles();
        r1 = await newResource(fresh);
        r2 = await newResource(fresh);
        const add = (r: { id: string }, startDate: string, endDate: string, extra: Record<string, unknown> = {}) =>
          fresh.as('OWNER', 'post', `/resources/${r.id}/time-offs`, { type: 'vacation', startDate, endDate, ...extra });
        await add(r1, '2030-01-01', '2030-01-10');
        await add(r1, '2030-02-01', '2030-02-01', { type: 'sick', isApproved: false });
        await add(r2, '2030-01-09', '2030-01-12');
        await add(r2, '2030-03-01', '2030-03-02');
      });

      it('when listed with a date range then entries overlapping it come back across resources', async () => {
        const res = await fresh.as('STAFF', 'get', '/time-offs?dateFrom=2030-01-10&dateTo=2030-01-31&sort=startDate&order=asc');
        expect(res.status).to.equal(200);
        expect(res.body.data.map((t: { startDate: string }) => t.startDate)).to.deep.equal(['2030-01-01', '2030-01-09']);
        const edge = await fresh.as('STAFF', 'get', '/time-offs?dateFrom=2030-01-13&dateTo=2030-02-28');
        expect(edge.body.data.map((t: { startDate: string }) => t.startDate)).to.deep.equal(['2030-02-01']);
        const fromOnly = await fresh.as('STAFF', 'get', '/time-offs?dateFrom=2030-02-02');
        expect(fromOnly.body.data.map((t: { startDate: string }) => t.startDate)).to.deep.equal(['2030-03-01']);
      });

      it('when filtered by resourceId, isApproved and type then only matches come back', async () => {
        const res = await fresh.as('OWNER', 'get', `/time-offs?resourceId=${r2.id}&sort=startDate&order=asc`);
        expect(res.body.data.map((t: { resourceId: string }) => t.resourceId)).to.deep.equal([r2.id, r2.id]);
        const pending = await fresh.as('OWNER', 'get', '/time-offs?isApproved=false');
        expect(pending.body.data.map((t: { type: string }) => t.type)).to.deep.equal(['sick']);
        const sick = await fresh.as('OWNER', 'get', '/time-offs?type=sick&isApproved=true');
        expect(sick.body.data).to.deep.equal([]);
        expect((await fresh.as('OWNER', 'get', `/time-offs?resourceId=${r1.id}&limit=1`)).body.meta).to.deep.equal({
          total: 2,
          page: 1,
          limit: 1,
          totalPages: 2,
        });
      });

      it('when the range is reversed or malformed then 400', async () => {
        expect((await fresh.as('OWNER', 'get', '/time-offs?dateFrom=2030-02-01&dateTo=2030-01-01')).status).to.equal(400);
        expect((await fresh.as('OWNER', 'get', '/time-offs?dateFrom=1.1.2030')).status).to.equal(400);
        expect((await fresh.as('OWNER', 'get', '/time-offs?limit=101')).status).to.equal(400);
      });

      it('when another salon lists time-off (even naming these resources) then it sees nothing', async () => {
        const res = await other.as('OWNER', 'get', `/time-offs?resourceId=${r1.id}`);
        expect(res.status).to.equal(200);
        expect(res.body.data).to.deep.equal([]);
        expect((await other.as('OWNER', 'get', `/resources/${r1.id}/time-offs`)).status).to.equal(404);
      });
    });
  });

  describe('access matrix', () => {
    let r: { id: string };
    let scheduleId: string;
    let overrideId: string;
    let timeOffId: string;
    before(async () => {
      r = await newResource(s);
      scheduleId = (await s.as('OWNER', 'post', `/resources/${r.id}/schedules`, slot(3, '08:00', '09:00'))).body.data.id;
      overrideId = (await s.as('OWNER', 'post', `/resources/${r.id}/schedule-overrides`, { date: '2031-01-01' })).body.data.id;
      timeOffId = (await s.as('OWNER', 'post', `/resources/${r.id}/time-offs`, { type: 'sick', startDate: '2031-01-01', endDate: '2031-01-01' })).body.data.id;
    });
    const cases: [Caller, number, number][] = [
      ['NONE', 401, 401],
      ['CUSTOMER', 401, 401],
      ['STAFF', 200, 403],
      ['OWNER', 200, 0],
      ['IMPERSONATOR', 200, 0],
      ['ADMIN', 403, 403],
    ];
    for (const [caller, read, write] of cases) {
      it(`when ${caller} calls then reads are ${read} and owner-only writes are ${write || 'allowed'}`, async () => {
        for (const path of [`/resources/${r.id}/schedules`, `/resources/${r.id}/schedule-overrides`, `/resources/${r.id}/time-offs`, '/time-offs']) {
          expect((await s.as(caller, 'get', path)).status, path).to.equal(read);
        }
        const day = { NONE: 0, CUSTOMER: 0, STAFF: 1, OWNER: 2, IMPERSONATOR: 4, ADMIN: 5 }[caller];
        const writes: [string, string, unknown][] = [
          ['post', `/resources/${r.id}/schedules`, slot(day, '10:00', '11:00')],
          ['post', `/resources/${r.id}/schedules/bulk`, { schedules: [slot(day, '12:00', '13:00')] }],
          ['patch', `/resources/${r.id}/schedules/${scheduleId}`, { isActive: true }],
          ['post', `/resources/${r.id}/schedule-overrides`, { date: `2031-02-0${day + 1}` }],
          ['patch', `/resources/${r.id}/schedule-overrides/${overrideId}`, { reason: caller }],
          ['patch', `/resources/${r.id}/time-offs/${timeOffId}`, { isApproved: true }],
        ];
        for (const [method, path, body] of writes) {
          const res = await s.as(caller, method as 'post', path, body);
          if (write) expect(res.status, `${method} ${path}`).to.equal(write);
          else expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).to.be.oneOf([200, 201]);
        }
      });
    }

    it('when STAFF deletes a slot, an override or an owner-created time-off of a resource that is not theirs then 403', async () => {
      expect((await s.as('STAFF', 'delete', `/resources/${r.id}/schedules/${scheduleId}`)).status).to.equal(403);
      expect((await s.as('STAFF', 'delete', `/resources/${r.id}/schedule-overrides/${overrideId}`)).status).to.equal(403);
      expect((await s.as('STAFF', 'delete', `/resources/${r.id}/time-offs/${timeOffId}`)).status).to.equal(403);
      expect((await s.as('NONE', 'delete', `/resources/${r.id}/time-offs/${timeOffId}`)).status).to.equal(401);
    });
  });

  describe('business hours applied to staff (PATCH /tenants/:id applyToStaff)', () => {
    it('when the owner saves business hours with applyToStaff then every staff schedule is replaced by the open slots; rooms are untouched', async () => {
      const fresh = await salonWithRoles();
      const a = await newResource(fresh);
      const b = await newResource(fresh, { isActive: false });
      const room = await newResource(fresh, { type: 'room' });
      await fresh.as('OWNER', 'post', `/resources/${a.id}/schedules`, slot(0, '06:00', '07:00'));
      await fresh.as('OWNER', 'post', `/resources/${room.id}/schedules`, slot(0, '06:00', '07:00'));
      const other2 = await newResource(other);
      await other.as('OWNER', 'post', `/resources/${other2.id}/schedules`, slot(0, '06:00', '07:00'));
      const businessHours = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) =>
        dayOfWeek === 0
          ? { dayOfWeek, isOpen: false, slots: [{ startTime: '10:00', endTime: '12:00' }] }
          : dayOfWeek === 2
            ? {
                dayOfWeek,
                isOpen: true,
                slots: [
                  { startTime: '09:00', endTime: '11:30' },
                  { startTime: '12:00', endTime: '18:00' },
                ],
              }
            : { dayOfWeek, isOpen: true, slots: [{ startTime: '09:00', endTime: '17:00' }] },
      );
      const res = await fresh.as('OWNER', 'patch', `/tenants/${fresh.tenant.id}`, { settings: { businessHours }, applyToStaff: true });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      for (const staff of [a, b]) {
        const list = (await fresh.as('OWNER', 'get', `/resources/${staff.id}/schedules`)).body.data;
        expect(list.map((x: { dayOfWeek: number; startTime: string; endTime: string }) => `${x.dayOfWeek} ${x.startTime}-${x.endTime}`)).to.deep.equal([
          '1 09:00-17:00',
          '2 09:00-11:30',
          '2 12:00-18:00',
          '3 09:00-17:00',
          '4 09:00-17:00',
          '5 09:00-17:00',
          '6 09:00-17:00',
        ]);
      }
      expect((await fresh.as('OWNER', 'get', `/resources/${room.id}/schedules`)).body.data.map((x: { startTime: string }) => x.startTime)).to.deep.equal([
        '06:00',
      ]);
      expect((await other.as('OWNER', 'get', `/resources/${other2.id}/schedules`)).body.data).to.have.length(1);
    });

    it('when applyToStaff is not sent then staff schedules are left alone', async () => {
      const fresh = await salonWithRoles();
      const a = await newResource(fresh);
      await fresh.as('OWNER', 'post', `/resources/${a.id}/schedules`, slot(0, '06:00', '07:00'));
      const res = await fresh.as('OWNER', 'patch', `/tenants/${fresh.tenant.id}`, { settings: { walkInEnabled: false } });
      expect(res.status).to.equal(200);
      expect((await fresh.as('OWNER', 'get', `/resources/${a.id}/schedules`)).body.data).to.have.length(1);
    });
  });

  describe('GET /auth/me', () => {
    it('when a staff user with a resource asks then resourceId is that resource; the owner without one gets null', async () => {
      const me = await staffMember(s);
      const res = await call('get', '/auth/me', me.token);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.resourceId).to.equal(me.id);
      expect((await call('get', '/auth/me', s.owner.token)).body.data.resourceId).to.equal(null);
    });
  });
});
