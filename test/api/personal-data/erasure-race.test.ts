// An erasure racing a new booking with the same phone, over HTTP with the real worker
// (docs/rules/personal-data.md#erasure-racing-a-booking): whichever reaches the database first, the
// end is one of three consistent states - the booking was the erased person's (cancelled, without
// identity), or it belongs to a new customer record with that phone (untouched), or it was refused
// with 409 CUSTOMER_ERASED and nothing of it exists - and never a live booking of an erased record.
// The orders themselves are forced one by one on the database in test/integration/erasure-race.test.ts.
import { expect } from 'chai';
import { call } from '../../support/http';
import { stack } from '../../support/stack';
import { at, bookingSalon, knex, localDay } from '../../support/booking-fixtures';
import { eventually } from '../../support/eventually';
import { newPerson } from './scene';

describe('personal data: erasure racing a booking with the same phone (HTTP and worker)', function () {
  this.timeout(240_000);

  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  it('when an erasure and a booking with the same phone race five times then each ends in one of the consistent states and no erased record keeps a live booking', async () => {
    const s = await bookingSalon({ settings: { autoConfirm: true } });
    const db = await knex();
    const book = (person: ReturnType<typeof newPerson>, day: number, time: string) =>
      call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
        startTime: at(localDay(day), time),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: person,
      });
    const seen = new Set<string>();
    for (let round = 0; round < 5; round++) {
      const person = newPerson();
      const first = await book(person, 2 + round, '09:00');
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      const { customerId } = await db('bookings').where({ id: first.body.data.id }).first();

      const [erasure, racing] = await Promise.all([call('post', `/customers/${customerId}/erasure`, s.owner.token), book(person, 2 + round, '13:00')]);
      expect(erasure.status, JSON.stringify(erasure.body)).to.equal(202);
      await eventually(async () => (await db('personal_data_erasures').where({ id: erasure.body.data.id }).first()).status === 'COMPLETED', 'the erasure');

      if (racing.status === 201) {
        const row = await db('bookings').where({ id: racing.body.data.id }).first();
        if (row.customerId === customerId) {
          // it reached the database before the moment: the person's, erased with them
          expect(row).to.include({ status: 'CANCELLED', contactPhone: null, customerErased: true });
          seen.add('erased with the person');
        } else {
          // after it: a new record with the phone, which the erasure does not touch
          const fresh = await db('customers').where({ id: row.customerId }).first();
          expect(fresh).to.include({ phone: person.phone, erased: false });
          expect(row).to.include({ status: 'CONFIRMED', contactPhone: person.phone, customerErased: false });
          seen.add('a new customer');
        }
      } else {
        // it had found the record as it was: refused whole
        expect([racing.status, racing.body.error.code]).to.deep.equal([409, 'CUSTOMER_ERASED']);
        expect(await db('bookings').where({ tenantId: s.tenant.id, startTime: new Date(at(localDay(2 + round), '13:00')) })).to.deep.equal([]);
        seen.add('refused');
      }
      // never a live booking of the erased record, never an erased record's booking with a contact
      const open = await db('bookings').where({ customerId }).whereIn('status', ['PENDING', 'CONFIRMED']);
      expect(open, 'live bookings of the erased record').to.deep.equal([]);
      expect(await db('bookings').where({ customerId }).whereNotNull('contactPhone')).to.deep.equal([]);
    }
    expect(seen.size).to.be.at.least(1);
  });
});
