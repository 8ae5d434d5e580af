// Migration 140 (docs/rules/booking.md#the-parts-of-a-booking): every service that existed before it
// is one work phase of its duration, with no buffers and nothing else needed; every existing booking
// keeps its times, each item becoming one WORK segment of its staff member with its flags, so the
// double-booking guarantee still holds for it; a waitlist hold moves to a segment of its round.
// Run on a database of its own, migrated to just before 140 and then up.
import crypto from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrateLatest } from '../../db/knex';
import { databaseBefore } from '../support/migration-database';

describe('migration 140: services as phases, bookings as segments', function () {
  this.timeout(120_000);
  let db: Knex;
  let drop: () => Promise<void>;

  before(async () => {
    ({ db, drop } = await databaseBefore('140', 'segments_migration'));
  });

  after(() => drop?.());

  it('when bookings, a cancelled one and a waitlist hold exist then each keeps its times as one WORK segment with its flags, the services are one work phase, and the guarantee holds on the segments', async () => {
    const [tenant] = await db('tenants')
      .insert({ name: 'Gammel salong', slug: `gammel-${crypto.randomBytes(4).toString('hex')}`, settings: {} })
      .returning('id');
    const tenantId = tenant.id;
    const [stylist] = await db('resources').insert({ tenantId, name: 'Ingrid' }).returning('id');
    const [cut] = await db('services').insert({ tenantId, name: 'Klipp', duration: 45, price: 50000, currency: 'NOK' }).returning('id');
    const start = new Date('2030-03-04T09:00:00.000Z');
    const end = new Date('2030-03-04T09:45:00.000Z');
    const later = { start: new Date('2030-03-04T11:00:00.000Z'), end: new Date('2030-03-04T11:45:00.000Z') };
    const hold = { start: new Date('2030-03-05T09:00:00.000Z'), end: new Date('2030-03-05T09:45:00.000Z') };
    const book = async (status: string, s: Date, e: Date, isActive: boolean) => {
      const [b] = await db('bookings').insert({ tenantId, resourceId: stylist.id, startTime: s, endTime: e, status, source: 'ADMIN' }).returning('id');
      const [item] = await db('booking_items')
        .insert({ tenantId, bookingId: b.id, serviceId: cut.id, resourceId: stylist.id, startTime: s, endTime: e, duration: 45, price: 50000, isActive })
        .returning('id');
      return { bookingId: b.id as string, itemId: item.id as string };
    };
    const confirmed = await book('CONFIRMED', start, end, true);
    const cancelled = await book('CANCELLED', later.start, later.end, false);
    const [round] = await db('waitlist_rounds').insert({ tenantId, windowStart: hold.start, windowEnd: hold.end, cause: 'CANCELLED' }).returning('id');
    await db('booking_items').insert({
      tenantId,
      waitlistRoundId: round.id,
      serviceId: cut.id,
      resourceId: stylist.id,
      startTime: hold.start,
      endTime: hold.end,
      duration: 45,
      price: 50000,
    });

    await migrateLatest(db);

    const service = await db('services').where({ id: cut.id }).first();
    expect(service).to.deep.include({ duration: 45, phases: null, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, resourceRequirements: [] });
    const bookings = await db('bookings').where({ tenantId }).orderBy('startTime');
    expect(bookings.map((b: { startTime: Date; endTime: Date }) => [b.startTime.toISOString(), b.endTime.toISOString()])).to.deep.equal([
      [start.toISOString(), end.toISOString()],
      [later.start.toISOString(), later.end.toISOString()],
    ]);
    const segments = await db('booking_segments').where({ tenantId }).orderBy('startTime');
    const seen = segments.map((s: Record<string, unknown>) => ({
      bookingId: s.bookingId,
      bookingItemId: s.bookingItemId,
      waitlistRoundId: s.waitlistRoundId,
      resourceType: s.resourceType,
      resourceId: s.resourceId,
      kind: s.kind,
      phaseIndex: s.phaseIndex,
      startTime: (s.startTime as Date).toISOString(),
      endTime: (s.endTime as Date).toISOString(),
      isActive: s.isActive,
      blocks: s.blocks,
    }));
    const staffWork = { resourceType: 'staff', resourceId: stylist.id, kind: 'WORK', phaseIndex: 0, blocks: true };
    expect(seen).to.deep.equal([
      {
        ...staffWork,
        bookingId: confirmed.bookingId,
        bookingItemId: confirmed.itemId,
        waitlistRoundId: null,
        startTime: start.toISOString(),
        endTime: end.toISOString(),
        isActive: true,
      },
      {
        ...staffWork,
        bookingId: cancelled.bookingId,
        bookingItemId: cancelled.itemId,
        waitlistRoundId: null,
        startTime: later.start.toISOString(),
        endTime: later.end.toISOString(),
        isActive: false,
      },
      {
        ...staffWork,
        bookingId: null,
        bookingItemId: null,
        waitlistRoundId: round.id,
        startTime: hold.start.toISOString(),
        endTime: hold.end.toISOString(),
        isActive: true,
      },
    ]);
    expect(await db('booking_items').where({ tenantId }).count({ n: '*' }), 'the hold is a segment now, not an item').to.deep.equal([{ n: 2 }]);

    // the guarantee: another booking over the confirmed one's time is refused; over the cancelled one's it is not
    const [other] = await db('bookings')
      .insert({ tenantId, resourceId: stylist.id, startTime: start, endTime: end, status: 'CONFIRMED', source: 'ADMIN' })
      .returning('id');
    const [otherItem] = await db('booking_items')
      .insert({ tenantId, bookingId: other.id, serviceId: cut.id, resourceId: stylist.id, startTime: start, endTime: end, duration: 45, price: 50000 })
      .returning('id');
    const over = (s: Date, e: Date) =>
      db('booking_segments').insert({
        tenantId,
        bookingId: other.id,
        bookingItemId: otherItem.id,
        resourceType: 'staff',
        resourceId: stylist.id,
        kind: 'WORK',
        phaseIndex: 0,
        startTime: s,
        endTime: e,
      });
    const refused = await over(new Date('2030-03-04T09:30:00.000Z'), new Date('2030-03-04T10:00:00.000Z')).then(
      () => null,
      (e: { code?: string; constraint?: string }) => e,
    );
    expect(refused, 'overlapping the confirmed booking').to.include({ code: '23P01', constraint: 'booking_segments_no_overlap' });
    await over(later.start, later.end);
  });
});
