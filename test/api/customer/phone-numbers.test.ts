// Phone numbers through the HTTP API (docs/rules/conventions.md#phone-numbers): every number the
// platform takes is stored in E.164, read in the salon's country when typed without a country
// code; one phone typed three ways is one person; a number that is none is 400 naming the field;
// SMS go to E.164.
import { expect } from 'chai';
import crypto from 'node:crypto';
import { call } from '../../support/http';
import { stack } from '../../support/stack';
import { at, bookingSalon, knex, localDay } from '../../support/booking-fixtures';
import { eventually } from '../../support/eventually';

/** A Norwegian mobile number's eight digits (4xxxxxxx). */
function digits(): string {
  return String(crypto.randomInt(40000000, 49999999));
}

describe('phone numbers (HTTP)', function () {
  this.timeout(60_000);
  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  it('when a guest books three times as 98765433, +4798765433 and 004798765433 then it is one customer, every booking keeps +4798765433 and the SMS go to +4798765433', async () => {
    const salon = await bookingSalon({ settings: { autoConfirm: true } });
    const { sms } = await stack();
    const d = digits();
    const typed = [`${d.slice(0, 3)} ${d.slice(3, 5)} ${d.slice(5)}`, `+47${d}`, `0047${d}`];
    for (const [i, phone] of typed.entries()) {
      const res = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
        startTime: at(localDay(2 + i), '10:00'),
        items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
        customer: { name: `Kari ${i}`, phone },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    const db = await knex();
    const customers = await db('customers').where({ tenantId: salon.tenant.id });
    expect(customers.map((c: { phone: string }) => c.phone)).to.deep.equal([`+47${d}`]);
    const bookings = await db('bookings').where({ tenantId: salon.tenant.id });
    expect(bookings.map((b: { contactPhone: string; customerId: string }) => [b.contactPhone, b.customerId])).to.deep.equal(
      typed.map(() => [`+47${d}`, customers[0].id]),
    );
    const sent = await eventually(async () => {
      const all = await sms.sentTo(`+47${d}`);
      return all.length >= 3 ? all : undefined;
    }, 'three confirmations');
    expect(sent.map((m) => m.to)).to.deep.equal([`+47${d}`, `+47${d}`, `+47${d}`]);
  });

  it('when one person joins the waitlist as 98765433, then as +4798765433 and 004798765433 over the same dates then the second and third are the same phone: answered as any join, and no second waiting entry is written (only decoys)', async () => {
    const salon = await bookingSalon();
    const d = digits();
    const join = (phone: string) =>
      call('post', `/public/tenants/${salon.tenant.slug}/waitlist`, undefined, {
        serviceIds: [salon.serviceId],
        fromDate: localDay(1),
        toDate: localDay(5),
        customer: { name: 'Vera', phone },
      });
    const first = await join(d);
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.body.data.customer.phone).to.equal(`+47${d}`);
    for (const phone of [`+47${d}`, `0047 ${d}`]) {
      // the phone already waits: nothing tells it (docs/rules/waitlist.md#joining)
      const again = await join(phone);
      expect([again.status, again.body.data.customer.phone], phone).to.deep.equal([201, `+47${d}`]);
    }
    expect(await (await knex())('waitlist_entries').where({ tenantId: salon.tenant.id, decoy: false })).to.have.length(1);
  });

  it('when a number is no valid phone number then booking, joining the waitlist, adding a customer and a staff login are 400 VALIDATION_ERROR naming the field, and nothing is written', async () => {
    const salon = await bookingSalon();
    const slug = salon.tenant.slug;
    const booking = await call('post', `/public/tenants/${slug}/bookings`, undefined, {
      startTime: at(localDay(2), '11:00'),
      items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Kari', phone: '1234' },
    });
    const waitlist = await call('post', `/public/tenants/${slug}/waitlist`, undefined, {
      serviceIds: [salon.serviceId],
      fromDate: localDay(1),
      toDate: localDay(2),
      customer: { name: 'Vera', phone: '+47 123 45 6789' },
    });
    const customer = await call('post', '/customers', salon.owner.token, { name: 'Ola', phone: '9876 543' });
    const resource = await call('post', '/resources', salon.owner.token, {
      name: 'Ny frisør',
      login: { phone: '0047 1', password: 'secret-passphrase', role: 'STAFF' },
    });
    for (const [res, field] of [
      [booking, 'customer.phone'],
      [waitlist, 'customer.phone'],
      [customer, 'phone'],
      [resource, 'login.phone'],
    ] as const) {
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).to.include(field);
    }
    const db = await knex();
    expect(await db('bookings').where({ tenantId: salon.tenant.id })).to.have.length(0);
    expect(await db('waitlist_entries').where({ tenantId: salon.tenant.id })).to.have.length(0);
    expect(await db('customers').where({ tenantId: salon.tenant.id })).to.have.length(0);
  });

  it('when staff add a customer and a login with numbers as typed then both are stored in E.164, the customer is found by another spelling of it, and the login signs in with any spelling', async () => {
    const salon = await bookingSalon();
    const c = digits();
    const created = await call('post', '/customers', salon.owner.token, { name: 'Ola Nordmann', phone: `${c.slice(0, 3)} ${c.slice(3, 5)} ${c.slice(5)}` });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.data.phone).to.equal(`+47${c}`);
    const duplicate = await call('post', '/customers', salon.owner.token, { name: 'Ola igjen', phone: `0047${c}` });
    expect(duplicate.status).to.equal(409);
    expect(duplicate.body.error.code).to.equal('CUSTOMER_PHONE_EXISTS');
    const found = await call('get', `/customers?search=${encodeURIComponent(`${c.slice(0, 3)} ${c.slice(3, 5)}`)}`, salon.owner.token);
    expect(found.body.data.map((x: { id: string }) => x.id)).to.deep.equal([created.body.data.id]);

    const l = digits();
    const resource = await call('post', '/resources', salon.owner.token, {
      name: 'Ny frisør',
      login: { phone: `${l.slice(0, 3)} ${l.slice(3, 5)} ${l.slice(5)}`, password: 'secret-passphrase', role: 'STAFF' },
    });
    expect(resource.status, JSON.stringify(resource.body)).to.equal(201);
    const user = await (
      await knex()
    )('users')
      .where({ tenantId: salon.tenant.id, phone: `+47${l}` })
      .first();
    expect(user, 'the login is stored in E.164').to.not.equal(undefined);
    const login = await call('post', '/auth/login', undefined, { phone: `0047 ${l}`, password: 'secret-passphrase', tenantSlug: salon.tenant.slug });
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
  });

  it('when the salon is in Sweden then a number typed without a country code is Swedish, and a guest proves a booking with it typed either way', async () => {
    const salon = await bookingSalon();
    await (
      await knex()
    )('tenants')
      .where({ id: salon.tenant.id })
      .update({ address: { street: 'Storgatan 1', city: 'Malmö', country: 'Sverige' } });
    const res = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(3), '12:00'),
      items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Sven', phone: '070-123 45 67' },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const booking = await (await knex())('bookings').where({ id: res.body.data.id }).first();
    expect(booking.contactPhone).to.equal('+46701234567');
    const read = await call('get', `/public/tenants/${salon.tenant.slug}/bookings/${booking.id}?phone=${encodeURIComponent('0046 70 123 45 67')}`);
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
  });
});
