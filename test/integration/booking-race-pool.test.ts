// Racing bookings on a pool the size production gives an 8-core host (2 per core, 16): more
// transactions insert the parts of one visit (stylist, station) at once, and Postgres ends some of
// their waits on the overlap constraint as deadlocks. The booking's transaction runs again then
// (domain/booking/booking-lock.service.ts), so the losers still hear 409 BOOKING_CONFLICT, never a
// "try again" (docs/rules/booking.md#creating-a-booking).
import { expect } from 'chai';
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { stack } from '../support/stack';
import { at, colourSalon, knex, localDay } from '../support/booking-fixtures';
import { tenantById } from '../../domain/tenant/tenant-context';
import { createStaffBooking } from '../../domain/booking/booking-create.service';
import { bookingHooks } from '../../composition/domain-hooks';
import type { EntitySignaller } from '../../domain/workflow-signals/entity-signaller';
import type { Actor } from '../../domain/booking/booking.types';

const quiet: EntitySignaller = { signal: async () => undefined };

describe('booking races on a production-sized pool (real database)', () => {
  let wide: Knex;
  before(async () => {
    const { platform } = await stack();
    wide = knexFactory({ ...platform.knex.client.config, pool: { min: 0, max: 16 } });
  });
  after(async () => {
    await wide?.destroy();
  });

  it('when 100 colours at 10:00 race over four stylists and the only station on 16 connections then one is booked and 99 get 409 BOOKING_CONFLICT', async function () {
    this.timeout(120_000);
    const { platform } = await stack();
    const s = await colourSalon(4);
    const tenant = await tenantById(platform.knex, s.tenant.id);
    const deps = { knex: wide, signaller: quiet, manageLinkKey: platform.deps.config.keys.manageLink, bookingHooks };
    const owner: Actor = { userId: s.owner.id, role: 'OWNER', resourceId: null };
    const day = localDay(6);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        createStaffBooking(deps, tenant, owner, {
          startTime: at(day, '10:00'),
          items: [{ serviceId: s.colourId, resourceId: s.staff[i % 4].resourceId }],
          customer: { name: 'Kari Kunde', phone: `+47${crypto.randomInt(40000000, 49999999)}` },
        }),
      ),
    );
    const codes = outcomes
      .filter((o): o is PromiseRejectedResult => o.status === 'rejected')
      .map((o) => (o.reason as { code?: string }).code ?? String(o.reason));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
    expect(
      codes.filter((c) => c !== 'BOOKING_CONFLICT'),
      'codes other than BOOKING_CONFLICT',
    ).to.deep.equal([]);
    expect(await (await knex())('bookings').where({ tenantId: s.tenant.id })).to.have.length(1);
    expect(await (await knex())('booking_segments').where({ tenantId: s.tenant.id })).to.have.length(4);
  });
});
