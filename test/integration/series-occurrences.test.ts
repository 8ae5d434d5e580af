// Booking a series' occurrences (docs/rules/series.md#booking-an-occurrence), the domain function
// the series workflow's step runs, called directly on the real database: five occurrences a step at
// most, each occurrence once when two steps run at once, and the tolerance at its limit and past it.
// A signaller that only records: no workflow runs beside these calls.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { stack } from '../support/stack';
import { addStaff, at, bookingSalon, colourSalon, knex, localDay } from '../support/booking-fixtures';
import { tenantById } from '../../domain/tenant/tenant-context';
import { createStaffBooking } from '../../domain/booking/booking-create.service';
import { createSeries } from '../../domain/series/series.service';
import { bookDueOccurrences, OCCURRENCES_PER_STEP } from '../../domain/series/series-occurrence.service';
import { addDays } from '../../domain/time/salon-time.rules';
import { bookingHooks } from '../../composition/domain-hooks';
import type { EntitySignaller } from '../../domain/workflow-signals/entity-signaller';
import type { Actor } from '../../domain/booking/booking.types';
import type { TenantSettings } from '../../domain/tenant/tenant-settings.rules';

const quiet: EntitySignaller = { signal: async () => undefined };

async function seriesScene(settings: Partial<TenantSettings>, occurrenceCount: number) {
  const { platform } = await stack();
  const s = await bookingSalon({ settings });
  const tenant = await tenantById(platform.knex, s.tenant.id);
  const deps = { knex: platform.knex, signaller: quiet, manageLinkKey: platform.deps.config.keys.manageLink, bookingHooks };
  const owner: Actor = { userId: s.owner.id, role: 'OWNER', resourceId: null };
  const first = await createStaffBooking(deps, tenant, owner, {
    startTime: at(localDay(1), '10:00'),
    items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
    customer: { name: 'Sofie Serie', phone: `+47${crypto.randomInt(40000000, 49999999)}` },
  });
  const series = await createSeries(deps, tenant, owner, { bookingId: first.id, intervalWeeks: 1, occurrenceCount });
  return { s, deps, series, first };
}

describe("booking a series' occurrences (real database)", function () {
  this.timeout(60_000);

  it(`when ${OCCURRENCES_PER_STEP + 2} occurrences are inside the window then a step books ${OCCURRENCES_PER_STEP}, says to ask again at once, and the next step books the rest and finishes`, async () => {
    const { deps, series } = await seriesScene({ maxBookingDaysInAdvance: 60 }, OCCURRENCES_PER_STEP + 3);
    const now = new Date();
    const first = await bookDueOccurrences(deps, series.id, now, 0);
    expect(first.handled.map((h) => h.index)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(first).to.include({ done: false, nextDueAt: now.getTime() });
    const second = await bookDueOccurrences(deps, series.id, now, 5);
    expect(second.handled.map((h) => [h.index, h.status])).to.deep.equal([
      [6, 'BOOKED'],
      [7, 'BOOKED'],
    ]);
    expect(second).to.include({ done: true, nextDueAt: null });
    expect((await (await knex())('booking_series').where({ id: series.id }).first()).status).to.equal('FINISHED');
  });

  it('when two steps of one series run at once then each occurrence is booked once', async () => {
    const { deps, series, first } = await seriesScene({ maxBookingDaysInAdvance: 40 }, 5);
    const now = new Date();
    await Promise.all([bookDueOccurrences(deps, series.id, now, 0), bookDueOccurrences(deps, series.id, now, 0), bookDueOccurrences(deps, series.id, now, 0)]);
    const rows = await (await knex())('booking_series_occurrences').where({ seriesId: series.id }).orderBy('occurrenceIndex');
    expect(rows.map((r) => r.occurrenceIndex)).to.deep.equal([0, 1, 2, 3, 4]);
    const bookings = await (await knex())('bookings').where({ customerId: first.customerId }).whereNot({ id: first.id });
    expect(bookings).to.have.length(4);
    expect(new Set(bookings.map((b) => new Date(b.startTime).toISOString())).size).to.equal(4);
  });

  it('when seriesToleranceDays is 1 then an occurrence moves to a free day one day away, and is skipped when the nearest free day is two away', async () => {
    const { s, deps, series } = await seriesScene({ maxBookingDaysInAdvance: 30, seriesToleranceDays: 1 }, 3);
    const db = await knex();
    const a = s.staff[0].resourceId;
    const day = (k: number) => addDays(localDay(1), 7 * k);
    await db('time_offs').insert([
      // occurrence 1: away on its day only, free the day before
      { tenantId: s.tenant.id, resourceId: a, type: 'vacation', startDate: day(1), endDate: addDays(day(1), 1), isApproved: true },
      // occurrence 2: away one day either side too, free two days away
      { tenantId: s.tenant.id, resourceId: a, type: 'vacation', startDate: addDays(day(2), -1), endDate: addDays(day(2), 1), isApproved: true },
    ]);
    // a second staff member is free every day: the series keeps its own
    await addStaff(s.tenant.id, [s.serviceId]);
    const step = await bookDueOccurrences(deps, series.id, new Date(), 0);
    expect(step.handled.map((h) => [h.index, h.status, h.reason])).to.deep.equal([
      [1, 'MOVED', 'NOT_FREE'],
      [2, 'SKIPPED', 'NO_FREE_TIME'],
    ]);
    const moved = await db('booking_series_occurrences').where({ seriesId: series.id, occurrenceIndex: 1 }).first();
    expect(new Date(moved.startTime).toISOString()).to.equal(at(addDays(day(1), -1), '10:00'));
    expect((await db('bookings').where({ id: moved.bookingId }).first()).resourceId).to.equal(a);
  });
  it("when the salon's one colour station is taken during the processing the next occurrence would need then the occurrence moves to the nearest start whose processing finds the station free, and no station segments overlap", async () => {
    const { platform } = await stack();
    const s = await colourSalon(2, { settings: { maxBookingDaysInAdvance: 30, seriesToleranceDays: 1 } });
    const tenant = await tenantById(platform.knex, s.tenant.id);
    const deps = { knex: platform.knex, signaller: quiet, manageLinkKey: platform.deps.config.keys.manageLink, bookingHooks };
    const owner: Actor = { userId: s.owner.id, role: 'OWNER', resourceId: null };
    const colour = (resourceId: string, date: string, time: string) =>
      createStaffBooking(deps, tenant, owner, {
        startTime: at(date, time),
        items: [{ serviceId: s.colourId, resourceId }],
        customer: { name: 'Frida Farge', phone: `+47${crypto.randomInt(40000000, 49999999)}` },
      });
    const [a, b] = s.staff.map((m) => m.resourceId);
    const first = await colour(a, localDay(1), '10:00');
    const series = await createSeries(deps, tenant, owner, { bookingId: first.id, intervalWeeks: 1, occurrenceCount: 2 });
    // the other stylist's colour at 10:00 a week later holds the station 10:30-11:05; the series' stylist is free all day
    const other = await colour(b, localDay(8), '10:00');
    const step = await bookDueOccurrences(deps, series.id, new Date(), 0);
    expect(step.handled.map((h) => [h.index, h.status, h.reason])).to.deep.equal([[1, 'MOVED', 'NOT_FREE']]);
    const db = await knex();
    const moved = await db('booking_series_occurrences').where({ seriesId: series.id, occurrenceIndex: 1 }).first();
    // nearest start: processing must end by 10:30 (09:15) or start at 11:05 (10:45 with 15-minute slots); the earlier of two as near
    expect(new Date(moved.startTime).toISOString()).to.equal(at(localDay(8), '09:15'));
    expect((await db('bookings').where({ id: moved.bookingId }).first()).resourceId).to.equal(a);
    const station = await db('booking_segments').where({ resourceId: s.stationId }).whereIn('bookingId', [moved.bookingId, other.id]).orderBy('startTime');
    expect(station.map((x) => [x.bookingId, new Date(x.startTime).toISOString(), new Date(x.endTime).toISOString()])).to.deep.equal([
      [moved.bookingId, at(localDay(8), '09:45'), at(localDay(8), '10:20')],
      [other.id, at(localDay(8), '10:30'), at(localDay(8), '11:05')],
    ]);
  });
});
