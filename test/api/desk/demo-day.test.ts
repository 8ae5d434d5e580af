// The demo salon's day for the front desk (npm start; docs/rules/front-desk.md): on an empty
// database with the demo salon, its next open day gets the bookings of a real day through the booking
// services (phone bookings, a colour with a cut inside its processing time, online bookings waiting
// for approval), and running it again adds nothing.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { stack } from '../../support/stack';
import { emptyDatabase, type EmptyDatabase } from '../../support/empty-database';
import { seedDemoSalon } from '../../../domain/demo/demo-salon';
import { seedDemoDay } from '../../../domain/demo/demo-day';
import { RecordingSignaller } from '../../support/recording-signaller';
import { bookingHooks } from '../../../composition/domain-hooks';

describe('seedDemoDay (npm start demo data for the front desk)', () => {
  let db: EmptyDatabase;
  let empty: Knex;

  before(async function () {
    this.timeout(60_000);
    db = await emptyDatabase('demo_day');
    empty = db.knex;
  });

  after(async () => {
    await db?.drop();
  });

  it("when the demo salon has no booking on its next open day then that day gets a real day's bookings by its three stylists, and a second run adds nothing", async function () {
    this.timeout(60_000);
    const { config } = await stack();
    const seeded = await seedDemoSalon(empty, { passwordHashRounds: 4 });
    expect(seeded.created).to.equal(true);
    // a Wednesday at 08:00 in Oslo: all three stylists work, nothing has started yet
    const now = () => new Date('2030-01-09T07:00:00.000Z');
    const deps = { knex: empty, signaller: new RecordingSignaller(), manageLinkKey: config.keys.manageLink, now, bookingHooks };
    const day = await seedDemoDay(deps);
    expect(day).to.deep.equal({ date: '2030-01-09', bookings: 17 });
    const bookings = await empty('bookings').select('status', 'source', 'resourceId');
    expect(bookings).to.have.length(17);
    expect(new Set(bookings.map((b) => b.resourceId)).size).to.equal(3);
    expect(bookings.filter((b) => b.status === 'PENDING' && b.source === 'ONLINE')).to.have.length(2);
    // the cut inside the colour's processing time: the stylist holds both at once
    const processing = await empty('booking_segments').where({ kind: 'PROCESSING', resourceType: 'staff' }).select('startTime');
    expect(processing.length).to.be.at.least(2);
    expect(await seedDemoDay(deps)).to.equal(null);
    expect(await empty('bookings').count('* as n').first()).to.deep.equal({ n: 17 });
  });

  it('when the morning is over then its visits are completed and the one under way is in progress', async function () {
    this.timeout(60_000);
    const { config } = await stack();
    await empty('bookings').delete();
    // 11:00 in Oslo, the same Wednesday a week later
    const now = () => new Date('2030-01-16T10:00:00.000Z');
    const day = await seedDemoDay({ knex: empty, signaller: new RecordingSignaller(), manageLinkKey: config.keys.manageLink, now, bookingHooks });
    expect(day!.date).to.equal('2030-01-16');
    const statuses = (await empty('bookings').select('status', 'startTime', 'endTime')).map((b) => ({
      status: b.status,
      start: new Date(b.startTime).getTime(),
      end: new Date(b.endTime).getTime(),
    }));
    const at = now().getTime();
    for (const b of statuses) {
      if (b.end <= at) expect(b.status).to.equal('COMPLETED');
      else if (b.start <= at) expect(b.status).to.equal('IN_PROGRESS');
      else expect(b.status).to.be.oneOf(['CONFIRMED', 'PENDING']);
    }
    expect(statuses.filter((b) => b.status === 'COMPLETED').length).to.be.at.least(3);
  });
});
