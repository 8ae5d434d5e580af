// Logs carry ids, never a name, a phone or an e-mail (docs/rules/personal-data.md#what-is-kept): an
// app logging at info level books for a person, searches for them, exports and erases them, and
// fails on a page and on a database constraint that quotes their number; none of it reaches the log,
// whose lines still say what happened (the request lines, the ids). The logger itself redacts the
// fields that may carry them wherever they turn up.
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../../api/app';
import { createLogger } from '../../../integrations/logger';
import { stack } from '../../support/stack';
import { at, bookingSalon, knex, localDay } from '../../support/booking-fixtures';
import { eventually } from '../../support/eventually';
import { mentioned } from '../../support/personal-data';
import { needlesOf, newPerson } from './scene';

function memoryLogger() {
  const lines: string[] = [];
  return { lines, logger: createLogger('info', { write: (line: string) => void lines.push(line) }) };
}

describe('personal data: logs (HTTP)', function () {
  this.timeout(120_000);

  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  it('when an app at info level books, searches, exports, erases and fails for a person then its log holds their ids and none of their name, phone or e-mail', async () => {
    const { platform } = await stack();
    const { lines, logger } = memoryLogger();
    const app = createApp({ ...platform.deps, logger }, { validateResponses: true });
    const s = await bookingSalon();
    const person = newPerson();
    const auth = { Authorization: `Bearer ${s.owner.token}` };
    const booked = await request(app)
      .post(`/api/public/tenants/${s.tenant.slug}/bookings`)
      .send({
        startTime: at(localDay(2), '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: { ...person, notes: 'Allergi' },
      });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    const { customerId } = await (await knex())('bookings').where({ id: booked.body.data.id }).first();
    expect(
      (
        await request(app)
          .get(`/api/customers?search=${encodeURIComponent(person.phone)}`)
          .set(auth)
      ).status,
    ).to.equal(200);
    // a customer with the same phone: the unique index refuses it (409), its detail quoting the number
    expect((await request(app).post('/api/customers').set(auth).send({ name: person.name, phone: person.phone })).status).to.equal(409);
    // a guest's proof by phone on the manage page that does not match
    await request(app).get(`/${s.tenant.slug}/bookings/${booked.body.data.id}?phone=${encodeURIComponent(person.phone)}`);
    expect((await request(app).get(`/api/customers/${customerId}/personal-data`).set(auth)).status).to.equal(200);
    expect((await request(app).post(`/api/customers/${customerId}/erasure`).set(auth)).status).to.equal(202);
    await eventually(async () => (await (await knex())('customers').where({ id: customerId }).first()).erased, 'the erasure');
    // a database error with a detail, logged as the error handler logs a failure
    const db = await knex();
    await db('customers').insert({ tenantId: s.tenant.id, name: 'Dobbel', phone: '+4790000001' });
    const duplicate = await db('customers')
      .insert({ tenantId: s.tenant.id, name: person.name, phone: '+4790000001' })
      .then(
        () => undefined,
        (err: Error & { detail?: string }) => err,
      );
    expect(duplicate?.detail, 'Postgres quotes the key').to.contain('+4790000001');
    logger.error({ err: duplicate, customer: { name: person.name, phone: person.phone }, phone: person.phone, email: person.email }, 'request failed');
    logger.flush();
    const log = lines.join('');
    expect(log).to.contain('"msg":"request"').and.contain(booked.body.data.id).and.contain('request failed');
    expect(mentioned(log, [...needlesOf(person), '+4790000001'])).to.deep.equal([]);
  });
});
