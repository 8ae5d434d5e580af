// Standing appointments over HTTP (docs/rules/series.md): made by staff from a booking and by a
// signed-in customer from their own, booked by the real worker as the occurrences enter the booking
// window, the limits of interval, count, end date and tolerance, STAFF scoping, ending (with and
// without cancelling what is booked), one occurrence cancelled, and the customer's bookings list.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { call } from '../../support/http';
import request from 'supertest';
import { appWith, stack } from '../../support/stack';
import { signInCustomer } from '../../support/customers';
import { addStaff, at, bookingSalon, knex, localDay, type BookingSalon } from '../../support/booking-fixtures';
import { eventually } from '../../support/eventually';
import { workflowSettled } from '../../support/workflow-barriers';
import { clickCheckout, depositSalon, paymentPage } from '../../support/payments';
import { bookingHooks } from '../../../composition/domain-hooks';
import { bookDueOccurrences } from '../../../domain/series/series-occurrence.service';
import { localToUtc } from '../../../domain/time/salon-time.rules';
import type { RecordingSignaller } from '../../support/recording-signaller';
import { Client, Connection } from '@temporalio/client';

/** Resolves once the workflow's run has closed (the barrier before "nothing more happened"). */
async function workflowEnded(workflowId: string): Promise<void> {
  const { config } = await stack();
  const connection = await Connection.connect({ address: config.temporalAddress! });
  try {
    await new Client({ connection, namespace: config.temporalNamespace }).workflow.getHandle(workflowId).result();
  } finally {
    await connection.close();
  }
}

function phone(): string {
  return `+47${crypto.randomInt(40000000, 49999999)}`;
}

/** A staff booking `days` from today at `time`, with a new customer. */
async function booking(s: BookingSalon, days = 1, time = '10:00', token = s.owner.token, resourceId = s.staff[0].resourceId) {
  const res = await call('post', '/bookings', token, {
    startTime: at(localDay(days), time),
    items: [{ serviceId: s.serviceId, resourceId }],
    customer: { name: 'Fast Kunde', phone: phone() },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data as { id: string; customerId: string; startTime: string };
}

/** A signed-in customer's own booking on the booking page, `days` from today at `time`. */
async function customerBooking(s: BookingSalon, customer: { accessToken: string }, days: number, time: string) {
  const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, customer.accessToken, {
    startTime: at(localDay(days), time),
    items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
    customer: { name: 'Kari Nordmann', phone: phone() },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data as { id: string; manageToken: string; status: string; paymentRequired: boolean };
}

/** The series worker's step as it runs on salon-local `day` at midnight (its clock then): what has entered the window by then is booked. */
async function workerStepOn(seriesId: string, day: string) {
  const { platform } = await stack();
  const deps = { knex: platform.knex, signaller: platform.deps.signaller, manageLinkKey: platform.deps.config.keys.manageLink, bookingHooks };
  return bookDueOccurrences(deps, seriesId, localToUtc(day, '00:00', 'Europe/Oslo'), 0);
}

async function makeSeries(s: BookingSalon, body: Record<string, unknown>, token = s.owner.token) {
  return call('post', '/series', token, body);
}

/** The series' occurrences as the worker booked them (rows), once `count` exist. */
async function occurrences(seriesId: string, count: number) {
  const db = await knex();
  return eventually(async () => {
    const rows = await db('booking_series_occurrences').where({ seriesId }).orderBy('occurrenceIndex');
    return rows.length >= count ? rows : undefined;
  }, `${count} occurrences of series ${seriesId}`);
}

describe('standing appointments (HTTP)', () => {
  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  it("when staff make a weekly series of 3 from a booking then 201, its workflow is told, and the worker books the next two as the salon's bookings with the same staff member and service", async () => {
    const s = await bookingSalon();
    const first = await booking(s);
    const res = await makeSeries(s, { bookingId: first.id, intervalWeeks: 1, occurrenceCount: 3 });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const series = res.body.data;
    expect(series).to.include({
      status: 'ACTIVE',
      intervalWeeks: 1,
      occurrenceCount: 3,
      untilDate: null,
      firstBookingId: first.id,
      resourceId: s.staff[0].resourceId,
      customerId: first.customerId,
      createdVia: 'STAFF',
    });
    expect(series.serviceIds).to.deep.equal([s.serviceId]);
    expect(series.nextDates).to.deep.equal([at(localDay(1), '10:00'), at(localDay(8), '10:00'), at(localDay(15), '10:00')]);
    const signalled = ((await stack()).platform.deps.signaller as RecordingSignaller).sent.filter((x) => x.ref.workflowId === `series:${series.id}`);
    expect(signalled.map((x) => [x.ref.workflowType, x.event.type, x.event.entityVersion])).to.deep.equal([['seriesWorkflow', 'SeriesCreated', 1]]);

    const rows = await occurrences(series.id, 3);
    expect(rows.map((r) => [r.occurrenceIndex, r.status])).to.deep.equal([
      [0, 'BOOKED'],
      [1, 'BOOKED'],
      [2, 'BOOKED'],
    ]);
    const db = await knex();
    const booked = await db('bookings').whereIn('id', [rows[1].bookingId, rows[2].bookingId]).orderBy('startTime');
    expect(booked.map((b) => [b.source, b.status, b.resourceId, b.customerId, new Date(b.startTime).toISOString()])).to.deep.equal([
      ['ADMIN', 'CONFIRMED', s.staff[0].resourceId, first.customerId, at(localDay(8), '10:00')],
      ['ADMIN', 'CONFIRMED', s.staff[0].resourceId, first.customerId, at(localDay(15), '10:00')],
    ]);
    // the occurrence's booking has a manage link (its own manage token)
    expect(booked.every((b) => typeof b.manageTokenHash === 'string')).to.equal(true);
    await eventually(
      async () => ((await db('booking_series').where({ id: series.id }).first()).status === 'FINISHED' ? true : undefined),
      'the series finished',
    );
    const read = await call('get', `/series/${series.id}`, s.owner.token);
    expect(read.status).to.equal(200);
    expect(read.body.data.status).to.equal('FINISHED');
    expect(read.body.data.occurrences.map((o: { index: number; status: string; bookingStatus: string }) => [o.index, o.status, o.bookingStatus])).to.deep.equal(
      [
        [0, 'BOOKED', 'CONFIRMED'],
        [1, 'BOOKED', 'CONFIRMED'],
        [2, 'BOOKED', 'CONFIRMED'],
      ],
    );
    const app = await appWith({ METRICS_TOKEN: 'metrics-token-for-tests-0123' });
    const metrics = await request(app).get('/api/metrics').set('Authorization', 'Bearer metrics-token-for-tests-0123');
    expect(metrics.status).to.equal(200);
    expect(metrics.text).to.match(/series\{status="FINISHED"\} [1-9]/);
    expect(metrics.text).to.match(/series_occurrences\{outcome="booked"\} [1-9]/);
    expect(metrics.text).to.match(/series_occurrences\{outcome="moved"\} \d/);
    expect(metrics.text).to.match(/rebooking_nudges\{outcome="sent"\} \d/);
    expect(metrics.text).to.match(/rebooking_nudges\{outcome="booked"\} \d/);
  });

  it('when an occurrence lies beyond the booking window then it is not booked yet and the series shows it as a next date', async () => {
    const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 10 } });
    const first = await booking(s);
    const series = (await makeSeries(s, { bookingId: first.id, intervalWeeks: 1, occurrenceCount: 4 })).body.data;
    const rows = await occurrences(series.id, 2);
    expect(rows.map((r) => r.occurrenceIndex)).to.deep.equal([0, 1]);
    // the workflow waits on a timer for occurrence 2 (day 15 enters a 10-day window on day 5)
    const read = await call('get', `/series/${series.id}`, s.owner.token);
    expect(read.body.data.status).to.equal('ACTIVE');
    expect(read.body.data.nextDates).to.deep.equal([at(localDay(1), '10:00'), at(localDay(8), '10:00'), at(localDay(15), '10:00'), at(localDay(22), '10:00')]);
  });

  it('when intervalWeeks is 1 or 26, occurrenceCount 2 or 52, untilDate 730 days on then 201; 0, 27, 1, 53, 731 days, neither or both are 400', async () => {
    const s = await bookingSalon();
    let hour = 9;
    const nextBooking = async (days: number) => booking(s, days, `${String(hour++).padStart(2, '0')}:00`);
    for (const body of [
      { intervalWeeks: 1, occurrenceCount: 2 },
      { intervalWeeks: 26, occurrenceCount: 52 },
      { intervalWeeks: 4, untilDate: localDay(2 + 730) },
    ]) {
      const first = await nextBooking(2);
      const res = await makeSeries(s, { bookingId: first.id, ...body });
      expect(res.status, JSON.stringify([body, res.body])).to.equal(201);
    }
    for (const body of [
      { intervalWeeks: 0, occurrenceCount: 3 },
      { intervalWeeks: 27, occurrenceCount: 3 },
      { intervalWeeks: 1, occurrenceCount: 1 },
      { intervalWeeks: 1, occurrenceCount: 53 },
      { intervalWeeks: 1, untilDate: localDay(3 + 731) },
      { intervalWeeks: 1 },
      { intervalWeeks: 1, occurrenceCount: 3, untilDate: localDay(60) },
    ]) {
      if (hour > 16) hour = 9;
      const first = await nextBooking(3);
      const res = await makeSeries(s, { bookingId: first.id, ...body });
      expect([res.status, res.body.error?.code], JSON.stringify(body)).to.deep.equal([400, 'VALIDATION_ERROR']);
    }
  });

  it('when seriesToleranceDays is 0 or 7 then it is stored (default 2); -1 and 8 are 400', async () => {
    const s = await bookingSalon();
    expect(s.tenant.settings.seriesToleranceDays).to.equal(2);
    for (const days of [0, 7]) {
      const res = await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { seriesToleranceDays: days } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.settings.seriesToleranceDays).to.equal(days);
    }
    for (const days of [-1, 8]) {
      const res = await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { seriesToleranceDays: days } });
      expect([res.status, res.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
    }
  });

  it('when a series is made twice from one booking, or from a cancelled one, then 409 SERIES_ALREADY_EXISTS and 422 SERIES_BOOKING_NOT_USABLE', async () => {
    const s = await bookingSalon();
    const first = await booking(s);
    expect((await makeSeries(s, { bookingId: first.id, intervalWeeks: 2, occurrenceCount: 2 })).status).to.equal(201);
    const again = await makeSeries(s, { bookingId: first.id, intervalWeeks: 2, occurrenceCount: 2 });
    expect([again.status, again.body.error.code]).to.deep.equal([409, 'SERIES_ALREADY_EXISTS']);
    const other = await booking(s, 2);
    expect((await call('post', `/bookings/${other.id}/cancel`, s.owner.token, { bySalon: true })).status).to.equal(200);
    const cancelled = await makeSeries(s, { bookingId: other.id, intervalWeeks: 2, occurrenceCount: 2 });
    expect([cancelled.status, cancelled.body.error.code]).to.deep.equal([422, 'SERIES_BOOKING_NOT_USABLE']);
  });

  it("when STAFF make a series from another staff member's booking then 403; they list and read only their own, and may not move one to someone else", async () => {
    const s = await bookingSalon({ staff: 2 });
    const [mine, theirs] = s.staff;
    const ownBooking = await booking(s, 1, '10:00', mine.user.token, mine.resourceId);
    const otherBooking = await booking(s, 1, '12:00', s.owner.token, theirs.resourceId);
    const forbidden = await makeSeries(s, { bookingId: otherBooking.id, intervalWeeks: 2, occurrenceCount: 2 }, mine.user.token);
    expect([forbidden.status, forbidden.body.error.code]).to.deep.equal([403, 'FORBIDDEN']);
    const own = await makeSeries(s, { bookingId: ownBooking.id, intervalWeeks: 2, occurrenceCount: 10 }, mine.user.token);
    expect(own.status).to.equal(201);
    const others = (await makeSeries(s, { bookingId: otherBooking.id, intervalWeeks: 2, occurrenceCount: 2 })).body.data;
    const list = await call('get', '/series', mine.user.token);
    expect(list.body.data.map((x: { id: string }) => x.id)).to.deep.equal([own.body.data.id]);
    expect((await call('get', `/series/${others.id}`, mine.user.token)).status).to.equal(403);
    const move = await call('patch', `/series/${own.body.data.id}`, mine.user.token, { resourceId: theirs.resourceId });
    expect([move.status, move.body.error.code]).to.deep.equal([403, 'FORBIDDEN']);
    expect((await call('get', '/series', s.owner.token)).body.meta.total).to.equal(2);
  });

  it('when a series is ended then what is booked stays and nothing more is booked; with cancelBooked its bookings still to come are cancelled by the salon; a second end is 409 SERIES_NOT_ACTIVE', async () => {
    const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 10 } });
    const keep = (await makeSeries(s, { bookingId: (await booking(s, 1, '09:00')).id, intervalWeeks: 1, occurrenceCount: 4 })).body.data;
    const kept = await occurrences(keep.id, 2);
    const ended = await call('post', `/series/${keep.id}/end`, s.owner.token, {});
    expect(ended.status, JSON.stringify(ended.body)).to.equal(200);
    expect(ended.body.data).to.include({ status: 'ENDED' });
    expect(ended.body.data.nextDates).to.deep.equal([at(localDay(1), '09:00'), at(localDay(8), '09:00')]);
    await workflowEnded(`series:${keep.id}`);
    const db = await knex();
    expect(
      (
        await db('bookings').whereIn(
          'id',
          kept.map((r) => r.bookingId),
        )
      ).map((b) => b.status),
    ).to.deep.equal(['CONFIRMED', 'CONFIRMED']);
    expect(await db('booking_series_occurrences').where({ seriesId: keep.id })).to.have.length(2);

    const cancel = (await makeSeries(s, { bookingId: (await booking(s, 2, '11:00')).id, intervalWeeks: 1, occurrenceCount: 4 })).body.data;
    const rows = await occurrences(cancel.id, 2);
    const end = await call('post', `/series/${cancel.id}/end`, s.owner.token, { cancelBooked: true });
    expect(end.status, JSON.stringify(end.body)).to.equal(200);
    expect(end.body.data.status).to.equal('ENDED');
    expect(end.body.data.nextDates).to.deep.equal([]);
    expect(
      (
        await db('bookings').whereIn(
          'id',
          rows.map((r) => r.bookingId),
        )
      ).map((b) => b.status),
    ).to.deep.equal(['CANCELLED', 'CANCELLED']);
    const again = await call('post', `/series/${cancel.id}/end`, s.owner.token, {});
    expect([again.status, again.body.error.code]).to.deep.equal([409, 'SERIES_NOT_ACTIVE']);
  });

  it('when one occurrence is cancelled then the series goes on: a booked one is cancelled, a future one is never booked, twice is 409 SERIES_OCCURRENCE_NOT_OPEN, beyond the series 404', async () => {
    const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 10 } });
    const series = (await makeSeries(s, { bookingId: (await booking(s)).id, intervalWeeks: 1, occurrenceCount: 4 })).body.data;
    const [, one] = await occurrences(series.id, 2);
    const cancelBooked = await call('post', `/series/${series.id}/occurrences/1/cancel`, s.owner.token);
    expect(cancelBooked.status, JSON.stringify(cancelBooked.body)).to.equal(200);
    expect(cancelBooked.body.data.occurrences[1]).to.include({ index: 1, status: 'BOOKED', bookingId: one.bookingId, bookingStatus: 'CANCELLED' });
    const cancelFuture = await call('post', `/series/${series.id}/occurrences/3/cancel`, s.owner.token);
    expect(cancelFuture.status).to.equal(200);
    expect(cancelFuture.body.data.status).to.equal('ACTIVE');
    expect(cancelFuture.body.data.occurrences.map((o: { index: number; status: string }) => [o.index, o.status])).to.deep.equal([
      [0, 'BOOKED'],
      [1, 'BOOKED'],
      [3, 'CANCELLED'],
    ]);
    expect(cancelFuture.body.data.nextDates).to.deep.equal([at(localDay(1), '10:00'), at(localDay(15), '10:00')]);
    const twice = await call('post', `/series/${series.id}/occurrences/3/cancel`, s.owner.token);
    expect([twice.status, twice.body.error.code]).to.deep.equal([409, 'SERIES_OCCURRENCE_NOT_OPEN']);
    const beyond = await call('post', `/series/${series.id}/occurrences/4/cancel`, s.owner.token);
    expect([beyond.status, beyond.body.error.code]).to.deep.equal([404, 'SERIES_OCCURRENCE_NOT_FOUND']);
  });

  it('when the interval or staff member changes then occurrences not yet booked follow it from the last one handled', async () => {
    const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 10 } });
    const other = await addStaff(s.tenant.id, [s.serviceId]);
    const series = (await makeSeries(s, { bookingId: (await booking(s)).id, intervalWeeks: 1, occurrenceCount: 4 })).body.data;
    await occurrences(series.id, 2);
    const res = await call('patch', `/series/${series.id}`, s.owner.token, { intervalWeeks: 2, resourceId: other.resourceId });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.include({ intervalWeeks: 2, resourceId: other.resourceId });
    // occurrence 1 stays on day 8; 2 and 3 are two and four weeks after it
    expect(res.body.data.nextDates).to.deep.equal([at(localDay(1), '10:00'), at(localDay(8), '10:00'), at(localDay(22), '10:00'), at(localDay(36), '10:00')]);
    const bad = await call('patch', `/series/${series.id}`, s.owner.token, { intervalWeeks: 27 });
    expect([bad.status, bad.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
  });

  it('when the salon widens its booking window then the series books the occurrences now inside it at once', async () => {
    const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 10 } });
    const series = (await makeSeries(s, { bookingId: (await booking(s)).id, intervalWeeks: 1, occurrenceCount: 4 })).body.data;
    await occurrences(series.id, 2);
    expect((await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { maxBookingDaysInAdvance: 30 } })).status).to.equal(200);
    const rows = await occurrences(series.id, 4);
    expect(rows.map((r) => [r.occurrenceIndex, r.status])).to.deep.equal([
      [0, 'BOOKED'],
      [1, 'BOOKED'],
      [2, 'BOOKED'],
      [3, 'BOOKED'],
    ]);
  });

  it("when a signed-in customer makes a series from their own upcoming booking then 201 and their bookings list shows it with its next dates; someone else's booking is 404", async () => {
    const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 10 } });
    const customer = await signInCustomer();
    const own = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, customer.accessToken, {
      startTime: at(localDay(2), '14:00'),
      items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      customer: { name: 'Kari Nordmann', phone: phone() },
    });
    expect(own.status, JSON.stringify(own.body)).to.equal(201);
    // a series starts from a booking the salon has approved
    expect((await call('post', `/bookings/${own.body.data.id}/status/CONFIRMED`, s.owner.token)).status).to.equal(200);
    const someoneElses = await booking(s);
    const refused = await call('post', '/customer/me/series', customer.accessToken, { bookingId: someoneElses.id, intervalWeeks: 3, occurrenceCount: 3 });
    expect([refused.status, refused.body.error.code]).to.deep.equal([404, 'BOOKING_NOT_FOUND']);
    const made = await call('post', '/customer/me/series', customer.accessToken, { bookingId: own.body.data.id, intervalWeeks: 3, occurrenceCount: 3 });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body.data).to.include({ createdVia: 'CUSTOMER', intervalWeeks: 3 });
    const list = await call('get', '/customer/me/bookings', customer.accessToken);
    expect(list.status).to.equal(200);
    const shown = list.body.data.find((b: { id: string }) => b.id === own.body.data.id);
    expect(shown.series).to.deep.equal({
      id: made.body.data.id,
      intervalWeeks: 3,
      status: 'ACTIVE',
      nextDates: [at(localDay(2), '14:00'), at(localDay(23), '14:00'), at(localDay(44), '14:00')],
    });
  });

  it('when a signed-in customer makes a series from their completed booking then 201; from their cancelled one 422 SERIES_BOOKING_NOT_USABLE', async () => {
    const s = await bookingSalon();
    const customer = await signInCustomer();
    const book = async (time: string) => {
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, customer.accessToken, {
        startTime: at(localDay(3), time),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: { name: 'Kari Nordmann', phone: phone() },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.data.id as string;
    };
    const done = await book('09:00');
    expect((await call('post', `/bookings/${done}/status/COMPLETED`, s.owner.token, { force: true, reason: 'came early' })).status).to.equal(200);
    const fromCompleted = await call('post', '/customer/me/series', customer.accessToken, { bookingId: done, intervalWeeks: 6, occurrenceCount: 2 });
    expect(fromCompleted.status, JSON.stringify(fromCompleted.body)).to.equal(201);
    const cancelled = await book('12:00');
    expect((await call('post', `/bookings/${cancelled}/cancel`, s.owner.token, { bySalon: true })).status).to.equal(200);
    const refused = await call('post', '/customer/me/series', customer.accessToken, { bookingId: cancelled, intervalWeeks: 6, occurrenceCount: 2 });
    expect([refused.status, refused.body.error.code]).to.deep.equal([422, 'SERIES_BOOKING_NOT_USABLE']);
  });
  it('when the first booking was made in English on the booking page then the occurrences are booked in English and the customer is told of a move in English, with the manage link in English', async () => {
    const s = await bookingSalon({ settings: { autoConfirm: true } });
    const { sms } = await stack();
    const number = phone();
    const created = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(1), '10:00'),
      items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      customer: { name: 'Emma', phone: number },
      language: 'en',
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    // the next occurrence's planned time is taken: it moves
    await booking(s, 8, '10:00');
    const res = await makeSeries(s, { bookingId: created.body.data.id, intervalWeeks: 1, occurrenceCount: 2 });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const [, moved] = await occurrences(res.body.data.id, 2);
    expect(moved.status).to.equal('MOVED');
    expect((await (await knex())('bookings').where({ id: moved.bookingId }).first()).language).to.equal('en');
    const message = await eventually(async () => (await sms.sentTo(number)).find((m) => m.meta?.kind === 'SERIES_MOVED'), 'the move SMS');
    expect(message.text).to.match(
      /^Hi Emma! Your standing appointment \(.+ with .+\) \w+day \d+ \w+ at 10:00 was not free, so we have booked the nearest free time: /,
    );
    expect(message.text).to.match(/See or cancel the appointment: \S+\/bookings\/[0-9a-f-]+\?token=\S+&lang=en$/);
  });
  it("when a booking waits for the salon's approval or for its deposit then no series starts from it, by the customer or by staff: 422 SERIES_BOOKING_NOT_CONFIRMED, SERIES_BOOKING_NOT_PAID; approved and paid, it does", async () => {
    const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 10 } });
    const customer = await signInCustomer();
    const pending = await customerBooking(s, customer, 2, '10:00');
    expect(pending.status).to.equal('PENDING');
    const plan = { bookingId: pending.id, intervalWeeks: 1, occurrenceCount: 4 };
    for (const refused of [await call('post', '/customer/me/series', customer.accessToken, plan), await makeSeries(s, plan)]) {
      expect([refused.status, refused.body.error?.code]).to.deep.equal([422, 'SERIES_BOOKING_NOT_CONFIRMED']);
    }
    expect(await (await knex())('booking_series').where({ firstBookingId: pending.id })).to.deep.equal([]);

    // confirmed at once (autoConfirm), but its deposit is still to pay
    const deposits = await depositSalon({ settings: { autoConfirm: true } });
    const payer = await signInCustomer();
    const unpaid = await customerBooking(deposits, payer, 2, '10:00');
    expect([unpaid.status, unpaid.paymentRequired]).to.deep.equal(['CONFIRMED', true]);
    const notPaid = await call('post', '/customer/me/series', payer.accessToken, { bookingId: unpaid.id, intervalWeeks: 1, occurrenceCount: 4 });
    expect([notPaid.status, notPaid.body.error?.code]).to.deep.equal([422, 'SERIES_BOOKING_NOT_PAID']);
    await clickCheckout(
      (await paymentPage(deposits, { id: unpaid.id, token: unpaid.manageToken, status: unpaid.status, paymentRequired: true, phone: '' })).redirectUrl!,
      'pay',
    );
    await eventually(
      async () => ((await (await knex())('bookings').where({ id: unpaid.id }).first()).depositStatus === 'PAID' ? true : undefined),
      'the deposit paid',
    );
    const paid = await call('post', '/customer/me/series', payer.accessToken, { bookingId: unpaid.id, intervalWeeks: 1, occurrenceCount: 4 });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
  });

  it("when a customer's series books an occurrence where autoConfirm is off and deposits are on then it is the customer's own booking waiting for the salon's approval and its deposit, as any online booking; staff's series books the salon's own", async () => {
    const s = await depositSalon();
    const customer = await signInCustomer();
    const first = await customerBooking(s, customer, 3, '10:00');
    await clickCheckout(
      (await paymentPage(s, { id: first.id, token: first.manageToken, status: first.status, paymentRequired: true, phone: '' })).redirectUrl!,
      'pay',
    );
    // the paid deposit confirms the booking (docs/rules/payments.md#booking-deposit-status)
    await eventually(async () => {
      const row = await (await knex())('bookings').where({ id: first.id }).first();
      return row.depositStatus === 'PAID' && row.status === 'CONFIRMED' ? true : undefined;
    }, 'the deposit paid and the booking confirmed');
    const made = await call('post', '/customer/me/series', customer.accessToken, { bookingId: first.id, intervalWeeks: 1, occurrenceCount: 4 });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    await workerStepOn(made.body.data.id, localDay(3));
    const [, one] = await occurrences(made.body.data.id, 2);
    const db = await knex();
    const booked = await db('bookings').where({ id: one.bookingId }).first();
    // occurrence 1 (day 10) is a week ahead: its deposit is owed, and asked for 6 days before it, as any
    // online booking's that far ahead (docs/rules/payments.md#deposits-at-any-distance)
    expect(booked).to.include({
      status: 'PENDING',
      source: 'ONLINE',
      paymentMode: 'ONLINE',
      depositStatus: 'SCHEDULED',
      customerAccountId: customer.accountId,
    });
    expect(await db('payments').where({ bookingId: booked.id })).to.deep.equal([]);
    expect((await call('get', '/customer/me/bookings', customer.accessToken)).body.data.map((b: { id: string }) => b.id)).to.include(booked.id);

    const staffFirst = await booking(s, 3, '13:00');
    const staffSeries = (await makeSeries(s, { bookingId: staffFirst.id, intervalWeeks: 1, occurrenceCount: 2 })).body.data;
    await workerStepOn(staffSeries.id, localDay(3));
    const [, salonOwn] = await occurrences(staffSeries.id, 2);
    expect(await db('bookings').where({ id: salonOwn.bookingId }).first()).to.include({
      status: 'CONFIRMED',
      source: 'ADMIN',
      paymentMode: 'IN_PERSON',
      depositStatus: null,
    });
  });

  it('when the salon cancels the booking a series was made from then the series ends (FIRST_BOOKING_CANCELLED) and its workflow cancels the bookings still to come; when the customer cancels it the series goes on', async () => {
    const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 10, autoConfirm: true } });
    const customer = await signInCustomer();
    const first = await customerBooking(s, customer, 1, '10:00');
    const series = (await call('post', '/customer/me/series', customer.accessToken, { bookingId: first.id, intervalWeeks: 1, occurrenceCount: 4 })).body.data;
    const [, one] = await occurrences(series.id, 2);
    const cancelled = await call('post', `/bookings/${first.id}/cancel`, s.owner.token, { bySalon: true, reason: 'Vi kan ikke ta imot deg' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    const ended = await call('get', `/series/${series.id}`, s.owner.token);
    expect(ended.body.data).to.include({ status: 'ENDED', endReason: 'FIRST_BOOKING_CANCELLED' });
    const signalled = ((await stack()).platform.deps.signaller as RecordingSignaller).sent.filter((x) => x.ref.workflowId === `series:${series.id}`);
    expect(signalled.map((x) => x.event.type)).to.include('SeriesFirstBookingCancelled');
    const db = await knex();
    const gone = await eventually(async () => {
      const row = await db('bookings').where({ id: one.bookingId }).first();
      return row.status === 'CANCELLED' ? row : undefined;
    }, 'the occurrence cancelled by the series workflow');
    expect(gone.cancelledBy, 'the platform, as the salon: its refund policy').to.equal('SYSTEM');
    const audit = await db('booking_audit_logs').where({ bookingId: one.bookingId, action: 'CANCELLED' }).first();
    expect(audit.changes.bySalon).to.equal(true);

    const kept = await customerBooking(s, customer, 2, '12:00');
    const goesOn = (await call('post', '/customer/me/series', customer.accessToken, { bookingId: kept.id, intervalWeeks: 1, occurrenceCount: 4 })).body.data;
    const [, next] = await occurrences(goesOn.id, 2);
    const own = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${kept.id}/cancel`, customer.accessToken, {});
    expect(own.status, JSON.stringify(own.body)).to.equal(200);
    await workflowSettled(`series:${goesOn.id}`);
    expect((await call('get', `/series/${goesOn.id}`, s.owner.token)).body.data).to.include({ status: 'ACTIVE', endReason: null });
    expect((await db('bookings').where({ id: next.bookingId }).first()).status).to.equal('CONFIRMED');
  });
});
