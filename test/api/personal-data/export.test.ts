// Access and portability over HTTP (docs/rules/personal-data.md#access-and-portability): the owner's
// export of one customer lists every kind of record the platform holds about them, as JSON and as
// readable text, and each export is recorded; STAFF may not, another salon's owner sees nothing; the
// signed-in customer downloads their own across salons; the routes are rate limited per user.
import { expect } from 'chai';
import request from 'supertest';
import { call } from '../../support/http';
import { appWith, stack } from '../../support/stack';
import { knex } from '../../support/booking-fixtures';
import { depositSalon } from '../../support/payments';
import { provePhone, signInCustomer } from '../../support/customers';
import { at, bookingSalon, localDay } from '../../support/booking-fixtures';
import { customerWithEverything, newPerson } from './scene';

describe('personal data: exports (HTTP)', function () {
  this.timeout(180_000);

  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  it('when the owner exports a customer who has every kind of record then the document lists all of it, the summary reads it out, and the export is recorded', async () => {
    const e = await customerWithEverything();
    const res = await call('get', `/customers/${e.customerId}/personal-data`, e.s.owner.token);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const doc = res.body.data;
    expect(doc).to.include({ requestedBy: 'SALON', account: null });
    const [salon] = doc.salons;
    expect(salon.salon).to.include({ id: e.s.tenant.id, slug: e.s.tenant.slug });
    expect(salon.customer).to.include({
      id: e.customerId,
      name: e.person.name,
      phone: e.person.phone,
      email: e.person.email,
      acceptsMarketing: true,
      erasedAt: null,
    });
    expect(salon.salonRecord).to.include({ notes: 'Ammoniakkfri farge', visitCount: 1 });
    expect(salon.salonRecord.tags).to.deep.equal(['allergi']);
    expect(salon.salonRecord.visits.map((v: { bookingId: string }) => v.bookingId)).to.deep.equal([e.visitId]);
    const bookingIds = salon.bookings.map((b: { id: string }) => b.id);
    expect(bookingIds).to.include.members([e.online.id, e.visitId, e.seriesBookingId]);
    const online = salon.bookings.find((b: { id: string }) => b.id === e.online.id);
    expect(online.contact).to.deep.equal({ name: e.person.name, phone: e.person.phone, email: e.person.email });
    expect(online.notes).to.equal('Allergisk mot ammoniakk');
    expect(online.items[0]).to.include({ price: e.s.service.price });
    expect(salon.payments.map((p: { id: string; status: string }) => [p.id, p.status])).to.deep.include([e.paymentId, 'CAPTURED']);
    expect(salon.loyalty.stamps.map((st: { bookingId: string }) => st.bookingId)).to.deep.equal([e.visitId]);
    expect(salon.loyalty.vouchers).to.have.length(1);
    // every message sent to them, service and marketing told apart, with its address and text
    const kinds = salon.messages.map((m: { about: string; channel: string; category: string }) => `${m.about}/${m.channel}/${m.category}`);
    expect(kinds).to.include.members(['BOOKING/SMS/SERVICE', 'BOOKING/EMAIL/SERVICE', 'VOUCHER/SMS/SERVICE', 'WAITLIST/SMS/SERVICE']);
    const sms = salon.messages.find((m: { about: string; channel: string }) => m.about === 'BOOKING' && m.channel === 'SMS');
    expect(sms.to).to.equal(e.person.phone);
    expect(sms.text).to.be.a('string').and.not.equal('');
    expect(salon.replies).to.have.length(1);
    expect(salon.replies[0]).to.include({ text: 'Hva betyr dette?' });
    expect(salon.replies[0].answer).to.be.a('string').and.not.equal('');
    expect(salon.waitlistEntries.map((w: { id: string }) => w.id)).to.deep.equal([e.entryId]);
    expect(salon.waitlistEntries[0].contact).to.include({ phone: e.person.phone });
    expect(salon.series.map((x: { id: string; status: string }) => [x.id, x.status])).to.deep.equal([[e.seriesId, 'ACTIVE']]);
    expect(salon.rebookingNudges.map((n: { id: string }) => n.id)).to.deep.equal([e.nudgeId]);
    expect(salon.consents.map((c: { granted: boolean; source: string }) => [c.granted, c.source])).to.deep.equal([[true, 'BOOKING_PAGE']]);
    expect(salon.erasure).to.equal(null);

    const summary = await call('get', `/customers/${e.customerId}/personal-data/summary?lang=en`, e.s.owner.token);
    expect(summary.status).to.equal(200);
    expect(summary.headers['content-type']).to.match(/^text\/plain/);
    for (const line of [
      e.person.name,
      e.person.phone,
      'Ammoniakkfri farge',
      'Messages sent to you',
      'Consent to marketing: yes',
      'Waitlist',
      'Standing appointments',
    ])
      expect(summary.text).to.contain(line);

    const records = await (await knex())('personal_data_exports').where({ customerId: e.customerId }).orderBy('createdAt');
    expect(
      records.map((r: { format: string; requestedByUserId: string; requestedByRole: string; tenantId: string }) => [
        r.format,
        r.requestedByUserId,
        r.requestedByRole,
        r.tenantId,
      ]),
    ).to.deep.equal([
      ['JSON', e.s.owner.id, 'OWNER', e.s.tenant.id],
      ['SUMMARY', e.s.owner.id, 'OWNER', e.s.tenant.id],
    ]);
    const listed = await call('get', '/personal-data/exports', e.s.owner.token);
    expect(listed.body.data.filter((r: { customerId: string }) => r.customerId === e.customerId)).to.have.length(2);
  });

  it('when STAFF or the owner of another salon ask for a customer’s export or its erasure then 403 and 404, and nothing is recorded', async () => {
    const a = await bookingSalon();
    const b = await bookingSalon();
    const created = await call('post', '/customers', a.owner.token, { name: 'Kari A', phone: newPerson().phone });
    const id = created.body.data.id;
    expect((await call('get', `/customers/${id}/personal-data`, a.staff[0].user.token)).status).to.equal(403);
    expect((await call('post', `/customers/${id}/erasure`, a.staff[0].user.token)).status).to.equal(403);
    for (const [method, path] of [
      ['get', `/customers/${id}/personal-data`],
      ['get', `/customers/${id}/personal-data/summary`],
      ['post', `/customers/${id}/erasure`],
      ['get', `/customers/${id}/erasure`],
    ] as const) {
      const res = await call(method, path, b.owner.token);
      expect([res.status, res.body.error?.code], `${method} ${path}`).to.deep.equal([404, 'CUSTOMER_NOT_FOUND']);
    }
    const db = await knex();
    expect(await db('personal_data_exports').where({ customerId: id })).to.have.length(0);
    expect(await db('personal_data_erasures').where({ customerId: id })).to.have.length(0);
    expect((await db('customers').where({ id }).first()).name).to.equal('Kari A');
  });

  it('when a signed-in customer downloads their data then it holds the account and every salon that linked their record, and is recorded as theirs', async () => {
    const [a, b] = [await depositSalon(), await bookingSalon()];
    const customer = await signInCustomer();
    const phone = newPerson().phone;
    await provePhone(customer, phone);
    for (const s of [a, b]) {
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, customer.accessToken, {
        startTime: at(localDay(4), '11:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: { name: 'Konto Kunde', phone },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    const res = await call('get', '/customer/me/personal-data', customer.accessToken);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.requestedBy).to.equal('CUSTOMER');
    expect(res.body.data.account).to.include({ id: customer.accountId, phone });
    expect(res.body.data.salons.map((x: { salon: { id: string } }) => x.salon.id).sort()).to.deep.equal([a.tenant.id, b.tenant.id].sort());
    for (const salon of res.body.data.salons) expect(salon.bookings).to.have.length(1);
    const summary = await call('get', '/customer/me/personal-data/summary', customer.accessToken);
    expect(summary.status).to.equal(200);
    expect(summary.text).to.contain('Kundekonto').and.contain(a.tenant.name).and.contain(b.tenant.name);
    const records = await (await knex())('personal_data_exports').where({ customerAccountId: customer.accountId });
    expect(records.map((r: { requestedByRole: string; format: string }) => `${r.requestedByRole}/${r.format}`).sort()).to.deep.equal([
      'CUSTOMER/JSON',
      'CUSTOMER/SUMMARY',
    ]);
    expect((await call('get', '/customer/me/personal-data')).status).to.equal(401);
  });

  it('when a user asks for 10 exports and erasures in a minute they are answered; the 11th is 429 while another user goes on', async () => {
    const s = await bookingSalon();
    const other = await bookingSalon();
    const app = await appWith({ RATE_LIMIT_PERSONAL_DATA: '10' });
    const id = (await call('post', '/customers', s.owner.token, { name: 'Rate Kunde' })).body.data.id;
    const otherId = (await call('post', '/customers', other.owner.token, { name: 'Annen Kunde' })).body.data.id;
    const ask = (token: string, path: string, method: 'get' | 'post' = 'get') => request(app)[method](`/api${path}`).set('Authorization', `Bearer ${token}`);
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await ask(s.owner.token, `/customers/${id}/personal-data`)).status);
    statuses.push((await ask(s.owner.token, `/customers/${id}/erasure`, 'post')).status);
    expect(statuses).to.deep.equal([...Array(9).fill(200), 202]);
    const past = await ask(s.owner.token, `/customers/${id}/personal-data/summary`);
    expect([past.status, past.body.error.code, past.headers['x-ratelimit-limit']]).to.deep.equal([429, 'RATE_LIMIT_EXCEEDED', '10']);
    expect((await ask(other.owner.token, `/customers/${otherId}/personal-data`)).status).to.equal(200);
  });
});
