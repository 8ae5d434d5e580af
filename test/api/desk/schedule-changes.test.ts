// The live day (docs/rules/front-desk.md#live-updates): GET /schedule/changes reports every
// committed booking change since a cursor once, in whatever order transactions commit, never a
// rolled-back one; a waiting read ends when a change commits on any api process (each with its own
// listening connection); STAFF see only what is theirs.
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { stack } from '../../support/stack';
import { call } from '../../support/http';
import { createAdmin } from '../../support/factories';
import { at, bookingSalon, knex, localDay, type BookingSalon } from '../../support/booking-fixtures';
import { createApp } from '../../../api/app';
import { postgresChangeNotifications } from '../../../integrations/postgres/change-notifications';
import type { ChangeNotifications } from '../../../domain/desk/change-notifications';

type Changes = { cursor: string; bookings: { id: string; version: number; status: string }[]; hidden: number; notices: number; more: boolean };

async function changes(token: string, query = '', app?: Express): Promise<{ status: number; body: { data: Changes; error?: { code: string } } }> {
  const target = app ?? (await stack()).app;
  const res = await request(target).get(`/api/schedule/changes${query}`).set('Authorization', `Bearer ${token}`);
  return { status: res.status, body: res.body };
}

async function cursorOf(token: string): Promise<string> {
  const res = await changes(token);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body.data).to.deep.include({ bookings: [], hidden: 0, notices: 0, more: false });
  return res.body.data.cursor;
}

async function book(s: BookingSalon, time: string, staff = 0): Promise<string> {
  const res = await call('post', '/bookings', s.owner.token, {
    startTime: at(localDay(2), time),
    items: [{ serviceId: s.serviceId, resourceId: s.staff[staff].resourceId }],
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data.id;
}

describe('the front desk: live changes (HTTP)', function () {
  this.timeout(60_000);
  const opened: ChangeNotifications[] = [];
  before(async function () {
    this.timeout(180_000);
    await stack();
  });
  after(async () => {
    for (const c of opened) await c.close();
  });

  it('when bookings are made, moved and cancelled after a cursor then each is reported once with its version, and the next cursor has nothing', async () => {
    const s = await bookingSalon();
    const start = await cursorOf(s.owner.token);
    const a = await book(s, '10:00');
    const b = await book(s, '12:00');
    expect((await call('patch', `/bookings/${a}`, s.owner.token, { startTime: at(localDay(2), '11:00') })).status).to.equal(200);
    expect((await call('post', `/bookings/${b}/cancel`, s.owner.token, { bySalon: true })).status).to.equal(200);
    const first = await changes(s.owner.token, `?after=${start}`);
    expect(first.status).to.equal(200);
    expect(first.body.data.bookings.map((x) => [x.id, x.version, x.status]).sort()).to.deep.equal(
      [
        [a, 2, 'CONFIRMED'],
        [b, 2, 'CANCELLED'],
      ].sort(),
    );
    const again = await changes(s.owner.token, `?after=${first.body.data.cursor}`);
    expect(again.body.data.bookings).to.deep.equal([]);
    // another salon's changes are never reported
    const other = await bookingSalon();
    await book(other, '10:00');
    expect((await changes(s.owner.token, `?after=${first.body.data.cursor}`)).body.data.bookings).to.deep.equal([]);
  });

  it('when an older transaction commits after a younger one then neither change is lost: the younger waits until the older has finished, then both are reported', async () => {
    const s = await bookingSalon();
    const [a, b] = [await book(s, '10:00'), await book(s, '12:00')];
    const start = await cursorOf(s.owner.token);
    const db = await knex();
    const older = await db.transaction();
    try {
      await older('bookings').where({ id: a }).update({ notes: 'older' });
      await db('bookings').where({ id: b }).update({ notes: 'younger' }); // commits at once
      const meanwhile = await changes(s.owner.token, `?after=${start}`);
      expect(meanwhile.body.data.bookings.map((x) => x.id)).to.not.include(a);
      const cursor = meanwhile.body.data.cursor;
      const reported = new Set(meanwhile.body.data.bookings.map((x) => x.id));
      await older.commit();
      const later = await changes(s.owner.token, `?after=${cursor}`);
      for (const x of later.body.data.bookings) reported.add(x.id);
      expect([...reported].sort()).to.deep.equal([a, b].sort());
    } finally {
      if (!older.isCompleted()) await older.rollback();
    }
  });

  it('when a change rolls back then it is never reported', async () => {
    const s = await bookingSalon();
    const a = await book(s, '10:00');
    const start = await cursorOf(s.owner.token);
    const db = await knex();
    await db
      .transaction(async (trx) => {
        await trx('bookings').where({ id: a }).update({ notes: 'never' });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    const after = await changes(s.owner.token, `?after=${start}`);
    expect(after.body.data.bookings).to.deep.equal([]);
  });

  it('when a read waits and a booking is made through another api process then the wait ends within a second with it, though that process has its own listening connection', async () => {
    const { platform } = await stack();
    const listening = postgresChangeNotifications(platform.knex);
    opened.push(listening);
    const other = createApp({ ...platform.deps, changes: listening }, { validateResponses: true });
    const s = await bookingSalon();
    const start = await cursorOf(s.owner.token);
    const began = Date.now();
    const waiting = changes(s.owner.token, `?after=${start}&wait=25`, other);
    await new Promise((r) => setTimeout(r, 300));
    const id = await book(s, '10:00');
    const booked = Date.now();
    const answer = await waiting;
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body.data.bookings.map((x) => x.id)).to.deep.equal([id]);
    // the front desk's promise: a change shows on an open day within 5 seconds
    expect(Date.now() - booked, 'answered soon after the booking').to.be.lessThan(5000);
    expect(Date.now() - began).to.be.lessThan(25_000);
  });

  it('when nothing changes then a read with wait=1 answers empty after about a second, and wait=0 at once', async () => {
    const s = await bookingSalon();
    const start = await cursorOf(s.owner.token);
    const began = Date.now();
    const waited = await changes(s.owner.token, `?after=${start}&wait=1`);
    expect(waited.body.data.bookings).to.deep.equal([]);
    expect(Date.now() - began).to.be.at.least(900);
    const now = await changes(s.owner.token, `?after=${start}&wait=0`);
    expect(now.status).to.equal(200);
  });

  it('when wait is 25 (the limit) it is taken, and 26 is 400 VALIDATION_ERROR naming it; a cursor that is no number is 400 too', async () => {
    const s = await bookingSalon();
    const start = await cursorOf(s.owner.token);
    const waiting = changes(s.owner.token, `?after=${start}&wait=25`);
    await new Promise((r) => setTimeout(r, 200));
    await book(s, '10:00');
    expect((await waiting).status).to.equal(200);
    const past = await changes(s.owner.token, `?after=${start}&wait=26`);
    expect(past.status).to.equal(400);
    expect(past.body.error!.code).to.equal('VALIDATION_ERROR');
    expect((await changes(s.owner.token, `?after=abc`)).status).to.equal(400);
  });

  it('when a cursor is ahead of the database then the answer is the current cursor, with nothing', async () => {
    const s = await bookingSalon();
    const res = await changes(s.owner.token, '?after=99999999999999999');
    expect(res.status).to.equal(200);
    expect(BigInt(res.body.data.cursor) < 99999999999999999n).to.equal(true);
    expect(res.body.data.bookings).to.deep.equal([]);
  });

  it("when another staff member's booking changes then STAFF get only a count of it, while their own and unassigned bookings are listed", async () => {
    const s = await bookingSalon({ staff: 2 });
    const staff = s.staff[0].user;
    const start = await cursorOf(staff.token);
    const own = await book(s, '10:00', 0);
    await book(s, '10:00', 1);
    const unassigned = await call('post', '/bookings', s.owner.token, {
      startTime: at(localDay(2), '14:00'),
      items: [{ serviceId: s.serviceId, resourceId: null }],
    });
    expect(unassigned.status, JSON.stringify(unassigned.body)).to.equal(201);
    const seen = await changes(staff.token, `?after=${start}`);
    expect(seen.body.data.bookings.map((x) => x.id).sort()).to.deep.equal([own, unassigned.body.data.id].sort());
    expect(seen.body.data.hidden).to.equal(1);
    expect(seen.body.data.notices).to.equal(0);
  });

  it("when no token asks then 401, and the platform admin's own token 403", async () => {
    expect((await request((await stack()).app).get('/api/schedule/changes')).status).to.equal(401);
    const admin = await createAdmin();
    expect((await changes(admin.token)).status).to.equal(403);
  });
});
