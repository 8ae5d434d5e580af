// A standing appointment walked through a year (docs/rules/series.md) on the time-skipping test
// server and the real database: every four weeks an occurrence enters the 14-day booking window and
// is booked; the staff member's holiday moves one to the nearest free day, a taken time moves one to
// the nearest free hour, a week away skips one (customer and salon told), a new staff member takes
// the rest, one is cancelled in advance, and ending the series stops it. A server of its own.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { stack } from '../support/stack';
import { unique } from '../support/factories';
import { addStaff, at, bookingSalon, localDay } from '../support/booking-fixtures';
import { eventually } from '../support/eventually';
import { createActivities } from '../../activities';
import { tenantById } from '../../domain/tenant/tenant-context';
import { createStaffBooking } from '../../domain/booking/booking-create.service';
import { cancelOccurrence, createSeries, endSeries, updateSeries } from '../../domain/series/series.service';
import { seriesContract } from '../../domain/series/series-events.rules';
import { addDays } from '../../domain/time/salon-time.rules';
import { bookingHooks } from '../../composition/domain-hooks';
import { platformWorker, testServerSignaller, withOutboxes, withTimeSkipping } from './support/time-skipping';
import type { FolderMailer } from '../../integrations/mail/mailer';
import type { FolderSmsSender } from '../../integrations/sms/sms-sender';
import type { Actor } from '../../domain/booking/booking.types';
import { bookingLinkConfig } from '../../composition/compose';

const DAY = 24 * 60 * 60 * 1000;
const LINKS = { publicBaseUrl: 'https://booking.example.test', platformDomain: 'salon.test', mailFrom: 'Salong <booking@salon.test>' };

describe('series workflow through a year (time skipping, real database)', function () {
  this.timeout(600_000);
  const t = withTimeSkipping();
  let sms: FolderSmsSender;
  let mail: FolderMailer;

  withOutboxes('series-workflow-test', (o) => ({ sms, mail } = o));

  it('when a four-weekly series runs for a year then each occurrence is booked once as it enters the window, moved or skipped as the rules say, follows a new staff member, skips a cancelled one and stops when ended', async () => {
    const { platform } = await stack();
    const db = platform.knex;
    const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 14, seriesToleranceDays: 2 } });
    const b = await addStaff(s.tenant.id, [s.serviceId]);
    const tenant = await tenantById(db, s.tenant.id);
    const taskQueue = unique('series-wf');
    const deps = { knex: db, signaller: testServerSignaller(t.env, taskQueue), manageLinkKey: platform.deps.config.keys.manageLink, bookingHooks };
    const owner: Actor = { userId: s.owner.id, role: 'OWNER', resourceId: null };
    const phone = `+47${crypto.randomInt(40000000, 49999999)}`;
    const a = s.staff[0].resourceId;
    const day = (k: number) => addDays(localDay(1), 28 * k);

    const first = await createStaffBooking(deps, tenant, owner, {
      startTime: at(localDay(1), '10:00'),
      items: [{ serviceId: s.serviceId, resourceId: a }],
      customer: { name: 'Stine Fast', phone },
    });
    // occurrence 2: the staff member's holiday on its day; occurrence 4: away the whole tolerance either side
    await db('time_offs').insert([
      { tenantId: s.tenant.id, resourceId: a, type: 'vacation', startDate: day(2), endDate: day(2), isApproved: true },
      { tenantId: s.tenant.id, resourceId: a, type: 'vacation', startDate: addDays(day(4), -2), endDate: addDays(day(4), 2), isApproved: true },
    ]);
    // occurrence 3: its time is taken by another customer (booked by the salon on a clock inside the window)
    const taker = await createStaffBooking({ ...deps, now: () => new Date(Date.parse(at(day(3), '08:00')) - 5 * DAY) }, tenant, owner, {
      startTime: at(day(3), '10:00'),
      items: [{ serviceId: s.serviceId, resourceId: a }],
      customer: { name: 'Annen Kunde', phone: `+47${crypto.randomInt(40000000, 49999999)}` },
    });
    expect(taker.status).to.equal('CONFIRMED');

    const series = await createSeries(deps, tenant, owner, { bookingId: first.id, intervalWeeks: 4, untilDate: addDays(localDay(1), 364) });
    expect(series.nextDates[1]).to.equal(at(day(1), '10:00'));

    const occurrence = (index: number) =>
      eventually(async () => db('booking_series_occurrences').where({ seriesId: series.id, occurrenceIndex: index }).first(), `occurrence ${index}`);
    const bookingOf = async (index: number) =>
      db('bookings')
        .where({ id: (await occurrence(index)).bookingId })
        .first();
    const seriesKinds = async () => (await sms.sentTo(phone)).map((m) => String(m.meta?.kind)).filter((k) => k.startsWith('SERIES_'));
    /** to the end of day `k`'s occurrence entering the window, plus a margin */
    const untilBookable = async (k: number) => {
      const due = Date.parse(at(addDays(day(k), -14), '00:00')) + 2 * 60 * 60 * 1000;
      const now = await t.env.currentTimeMs();
      if (due > now) await t.env.sleep(due - now);
    };

    const activities = createActivities({ knex: db, mailer: mail, sms, bookingHooks, links: { ...bookingLinkConfig(platform.deps.config), ...LINKS } });
    const worker = await platformWorker(t, { taskQueue, activities });
    await worker.runUntil(async () => {
      // nothing is inside the window at first but the booking it was made from
      await t.env.sleep(DAY);
      expect(await db('booking_series_occurrences').where({ seriesId: series.id })).to.have.length(1);

      await untilBookable(1);
      expect(await occurrence(1)).to.include({ status: 'BOOKED' });
      expect(await bookingOf(1)).to.deep.include({ source: 'ADMIN', status: 'CONFIRMED', resourceId: a, customerId: first.customerId });
      expect(new Date((await bookingOf(1)).startTime).toISOString()).to.equal(at(day(1), '10:00'));

      // the holiday: the nearest free time with the same staff member is the day before, same hour
      await untilBookable(2);
      expect(await occurrence(2)).to.include({ status: 'MOVED', reason: 'NOT_FREE' });
      expect(new Date((await bookingOf(2)).startTime).toISOString()).to.equal(at(addDays(day(2), -1), '10:00'));
      await eventually(async () => ((await seriesKinds()).includes('SERIES_MOVED') ? true : undefined), 'the MOVED message');
      const moved = (await sms.sentTo(phone)).find((m) => m.meta?.kind === 'SERIES_MOVED')!;
      expect(moved.text).to.contain('Hei Stine Fast!').and.contain('var ikke ledig').and.contain('https://booking.example.test/');

      // the taken time: the nearest free start is an hour earlier (09:00 and 11:00 are as near; the earlier wins)
      await untilBookable(3);
      expect(await occurrence(3)).to.include({ status: 'MOVED' });
      expect(new Date((await bookingOf(3)).startTime).toISOString()).to.equal(at(day(3), '09:00'));

      // away for the whole tolerance: skipped, the customer and the salon's owner told
      await untilBookable(4);
      expect(await occurrence(4)).to.include({ status: 'SKIPPED', reason: 'NO_FREE_TIME', bookingId: null });
      await eventually(
        async () => ((await seriesKinds()).filter((k) => k === 'SERIES_SKIPPED').length === 1 ? true : undefined),
        'the SKIPPED message to the customer',
      );
      const toSalon = await eventually(
        async () => (await mail.sentTo(s.owner.email)).find((m) => m.meta?.kind === 'SERIES_SKIPPED_SALON'),
        'the SKIPPED message to the salon',
      );
      expect(toSalon.subject).to.contain('Stine Fast');

      // a new staff member for what is not booked yet; occurrence 6 cancelled in advance
      await updateSeries(deps, tenant, owner, series.id, { resourceId: b.resourceId });
      await cancelOccurrence(deps, tenant, owner, series.id, 6);
      await untilBookable(5);
      expect(await occurrence(5)).to.include({ status: 'BOOKED' });
      expect((await bookingOf(5)).resourceId).to.equal(b.resourceId);
      await untilBookable(7);
      expect(await occurrence(6)).to.include({ status: 'CANCELLED', bookingId: null });
      expect(await occurrence(7)).to.include({ status: 'BOOKED' });
      expect((await bookingOf(7)).resourceId).to.equal(b.resourceId);

      for (const k of [8, 9, 10, 11]) {
        await untilBookable(k);
        expect(await occurrence(k)).to.include({ status: 'BOOKED' });
      }
      // ended before occurrence 12 enters the window: nothing more is booked, what is booked stays
      await endSeries(deps, tenant, owner, series.id, {});
      await t.env.client.workflow.getHandle(seriesContract.workflowId(series.id)).result();
      await t.env.sleep(60 * DAY);
      const rows = await db('booking_series_occurrences').where({ seriesId: series.id }).orderBy('occurrenceIndex');
      expect(rows.map((r) => [r.occurrenceIndex, r.status])).to.deep.equal([
        [0, 'BOOKED'],
        [1, 'BOOKED'],
        [2, 'MOVED'],
        [3, 'MOVED'],
        [4, 'SKIPPED'],
        [5, 'BOOKED'],
        [6, 'CANCELLED'],
        [7, 'BOOKED'],
        [8, 'BOOKED'],
        [9, 'BOOKED'],
        [10, 'BOOKED'],
        [11, 'BOOKED'],
      ]);
      const booked = await db('bookings').whereIn(
        'id',
        rows.filter((r) => r.occurrenceIndex > 0 && r.bookingId).map((r) => r.bookingId),
      );
      expect(booked).to.have.length(9);
      expect(booked.every((x) => x.status === 'CONFIRMED')).to.equal(true);
      // one message per event, never repeated
      expect(await seriesKinds()).to.deep.equal(['SERIES_MOVED', 'SERIES_MOVED', 'SERIES_SKIPPED']);
      expect((await db('booking_series').where({ id: series.id }).first()).status).to.equal('ENDED');
    });
  });
});
