// The day the front desk draws (docs/rules/front-desk.md#the-day): GET /schedule with the salon's
// hours, each row's working time and time-off, and each booking block's booking as a whole; a
// booking's next statuses and what a PENDING one waits for; the times a booking could move to.
import { expect } from 'chai';
import { stack } from '../../support/stack';
import { apiClient, expectOk } from '../../support/api-client';
import { call } from '../../support/http';
import { addRoom, addPhasedService, at, bookingSalon, knex, localDay } from '../../support/booking-fixtures';
import { bookOnline, depositSalon } from '../../support/payments';

describe('the front desk: the day (HTTP)', function () {
  this.timeout(60_000);
  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  it('when the day is read then it has the business hours, each staff row its working time less time-off and the time-off itself, and rooms the hours', async () => {
    const day = localDay(3);
    const s = await bookingSalon({ staff: 2 });
    const db = await knex();
    await db('time_offs').insert({
      tenantId: s.tenant.id,
      resourceId: s.staff[0].resourceId,
      type: 'other',
      startDate: day,
      endDate: day,
      startTime: '12:00',
      endTime: '13:00',
      isApproved: true,
    });
    await db('resource_schedule_overrides').insert({
      tenantId: s.tenant.id,
      resourceId: s.staff[1].resourceId,
      date: day,
      startTime: '10:00',
      endTime: '14:00',
    });
    const room = await addRoom(s.tenant.id, [], { type: 'room', name: 'Rom 1' });
    const api = await apiClient(s.owner.token);
    const schedule = expectOk(await api.GET('/schedule', { params: { query: { date: day } } }), 200).data;
    expect(schedule.open).to.deep.equal([{ start: at(day, '09:00'), end: at(day, '17:00') }]);
    const [first, second] = schedule.staff;
    expect(first.working).to.deep.equal([
      { start: at(day, '09:00'), end: at(day, '12:00') },
      { start: at(day, '13:00'), end: at(day, '17:00') },
    ]);
    expect(first.timeOff).to.deep.equal([{ start: at(day, '12:00'), end: at(day, '13:00') }]);
    expect(second.working).to.deep.equal([{ start: at(day, '10:00'), end: at(day, '14:00') }]);
    expect(second.timeOff).to.deep.equal([]);
    const roomRow = schedule.resources.find((r) => r.resourceId === room)!;
    expect(roomRow.working).to.deep.equal([{ start: at(day, '09:00'), end: at(day, '17:00') }]);
  });

  it('when a booking with processing time is on the day then every block carries its booking as a whole: time, staff, version, source, deposit and nothing to wait for', async () => {
    const day = localDay(3);
    const s = await bookingSalon();
    const colour = await addPhasedService(s.tenant.id);
    const db = await knex();
    await db('resource_skills').insert({ tenantId: s.tenant.id, resourceId: s.staff[0].resourceId, serviceId: colour.id });
    await addRoom(s.tenant.id, [colour.id]);
    const created = await call('post', '/bookings', s.owner.token, {
      startTime: at(day, '10:00'),
      items: [{ serviceId: colour.id, resourceId: s.staff[0].resourceId }],
      source: 'PHONE',
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const api = await apiClient(s.owner.token);
    const schedule = expectOk(await api.GET('/schedule', { params: { query: { date: day } } }), 200).data;
    const blocks = [...schedule.staff[0].blocks, ...schedule.resources.flatMap((r) => r.blocks)];
    expect(blocks.map((b) => b.kind)).to.include.members(['WORK', 'PROCESSING']);
    for (const block of blocks) {
      expect(block.booking).to.deep.equal({
        startTime: at(day, '10:00'),
        endTime: at(day, '11:30'),
        resourceId: s.staff[0].resourceId,
        version: 1,
        source: 'PHONE',
        depositStatus: null,
        waitingFor: null,
      });
    }
  });

  it('when a customer books at a salon that approves its bookings then the block and the booking wait for the SALON; with a deposit to pay they wait for the DEPOSIT', async () => {
    const approving = await bookingSalon({ settings: { autoConfirm: false } });
    const pending = await bookOnline(approving, 3, '10:00');
    const withDeposit = await depositSalon();
    const unpaid = await bookOnline(withDeposit, 3, '11:00');
    const dayOf = async (token: string) => expectOk(await (await apiClient(token)).GET('/schedule', { params: { query: { date: localDay(3) } } }), 200).data;
    expect((await dayOf(approving.owner.token)).staff[0].blocks[0].booking!.waitingFor).to.equal('SALON');
    expect((await dayOf(withDeposit.owner.token)).staff[0].blocks[0].booking!.waitingFor).to.equal('DEPOSIT');
    const booking = expectOk(await (await apiClient(approving.owner.token)).GET('/bookings/{id}', { params: { path: { id: pending.id } } }), 200).data;
    expect(booking.status).to.equal('PENDING');
    expect(booking.waitingFor).to.equal('SALON');
    expect(booking.nextStatuses).to.deep.equal(['CONFIRMED', 'CANCELLED']);
    const deposit = expectOk(await (await apiClient(withDeposit.owner.token)).GET('/bookings/{id}', { params: { path: { id: unpaid.id } } }), 200).data;
    expect(deposit.waitingFor).to.equal('DEPOSIT');
  });

  it('when a booking moves along its statuses then nextStatuses says exactly what the status machine allows, and nothing once it is final', async () => {
    const s = await bookingSalon();
    const created = await call('post', '/bookings', s.owner.token, {
      startTime: at(localDay(0), '09:00'),
      items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
    });
    const id = created.body.data.id as string;
    expect(created.body.data.nextStatuses).to.deep.equal(['ARRIVED', 'IN_PROGRESS', 'NO_SHOW', 'CANCELLED']);
    expect(created.body.data.waitingFor).to.equal(null);
    // 09:00 may be still to come when the test runs: the owner marks it with a reason (docs/rules/booking.md#statuses)
    const EARLY = { force: true, reason: 'the walk through the statuses' };
    const arrived = await call('post', `/bookings/${id}/status/ARRIVED`, s.owner.token, EARLY);
    expect(arrived.body.data.nextStatuses).to.deep.equal(['IN_PROGRESS', 'NO_SHOW', 'CANCELLED']);
    const started = await call('post', `/bookings/${id}/status/IN_PROGRESS`, s.owner.token, EARLY);
    expect(started.body.data.nextStatuses).to.deep.equal(['COMPLETED', 'CANCELLED']);
    const completed = await call('post', `/bookings/${id}/status/COMPLETED`, s.owner.token, EARLY);
    expect(completed.body.data.nextStatuses).to.deep.equal([]);
  });

  it('when the times a booking could move to are asked for with excludeBookingId then its own time counts as free; without it that time is taken', async () => {
    const day = localDay(3);
    const s = await bookingSalon();
    const created = await call('post', '/bookings', s.owner.token, {
      startTime: at(day, '10:00'),
      items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
    });
    const api = await apiClient(s.owner.token);
    const query = { serviceId: s.serviceId, resourceId: s.staff[0].resourceId, date: day };
    const taken = expectOk(await api.GET('/availability', { params: { query } }), 200).data.slots.map((slot) => slot.start);
    expect(taken).to.not.include(at(day, '10:00'));
    expect(taken).to.not.include(at(day, '10:30'));
    const free = expectOk(await api.GET('/availability', { params: { query: { ...query, excludeBookingId: created.body.data.id } } }), 200).data.slots.map(
      (slot) => slot.start,
    );
    expect(free).to.include.members([at(day, '10:00'), at(day, '10:30')]);
  });
});
