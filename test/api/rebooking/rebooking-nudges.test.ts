// Rebooking nudges over HTTP (docs/rules/series.md#rebooking-nudges): a service's typical interval
// and its limits, the salon recording a customer's agreement, the signed-in customer's own switch,
// the unsubscribe link as a page (asks, then turns off) and as an API call, and the manage page of a
// standing appointment's booking showing its next dates. The sending itself is walked through on the
// time-skipping server (test/workflows/rebooking-nudge.workflow.test.ts).
import { expect } from 'chai';
import crypto from 'node:crypto';
import { call, http } from '../../support/http';
import { stack } from '../../support/stack';
import { provePhone, signInCustomer } from '../../support/customers';
import { at, bookingSalon, knex, localDay } from '../../support/booking-fixtures';
import { eventually } from '../../support/eventually';
import { unsubscribeToken } from '../../../domain/rebooking/rebooking-tokens';
import { reissueManageToken } from '../../../domain/booking/manage-link.service';

const phone = () => `+47${crypto.randomInt(40000000, 49999999)}`;

describe('rebooking nudges (HTTP)', () => {
  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  it('when a service gets a typical interval of 1 or 52 weeks then it is stored and shown; 0 and 53 are 400; null removes it', async () => {
    const s = await bookingSalon();
    for (const weeks of [1, 52]) {
      const res = await call('patch', `/services/${s.serviceId}`, s.owner.token, { typicalIntervalWeeks: weeks });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.typicalIntervalWeeks).to.equal(weeks);
    }
    for (const weeks of [0, 53]) {
      const res = await call('patch', `/services/${s.serviceId}`, s.owner.token, { typicalIntervalWeeks: weeks });
      expect([res.status, res.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
    }
    const created = await call('post', '/services', s.owner.token, { name: 'Herreklipp', duration: 30, price: 40000, typicalIntervalWeeks: 5 });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.data.typicalIntervalWeeks).to.equal(5);
    const cleared = await call('patch', `/services/${created.body.data.id}`, s.owner.token, { typicalIntervalWeeks: null });
    expect(cleared.body.data.typicalIntervalWeeks).to.equal(null);
  });

  it('when the salon records that a customer agreed then the customer shows it; a new customer has not agreed', async () => {
    const s = await bookingSalon();
    const created = await call('post', '/customers', s.owner.token, { name: 'Nina', phone: phone() });
    expect(created.body.data.acceptsRebookingNudges).to.equal(false);
    const agreed = await call('patch', `/customers/${created.body.data.id}`, s.owner.token, { acceptsRebookingNudges: true });
    expect(agreed.status).to.equal(200);
    expect(agreed.body.data.acceptsRebookingNudges).to.equal(true);
    expect((await (await knex())('customers').where({ id: created.body.data.id }).first()).acceptsRebookingNudges).to.equal(true);
  });

  it('when a signed-in customer turns nudges on and off then each salon that knows them follows; one salon alone by its slug; a salon that does not know them is 404', async () => {
    const [a, b] = [await bookingSalon(), await bookingSalon()];
    const customer = await signInCustomer();
    // a salon knows the account by a phone the account proved (a typed phone links nothing: docs/rules/security.md)
    const proven = phone();
    await provePhone(customer, proven);
    for (const s of [a, b]) {
      const res = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, customer.accessToken, {
        startTime: at(localDay(2), '10:00'),
        items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
        customer: { name: 'Kari Nordmann', phone: proven },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    const initial = await call('get', '/customer/me/preferences', customer.accessToken);
    expect(initial.status).to.equal(200);
    expect(initial.body.data.salons.map((x: { rebookingNudges: boolean }) => x.rebookingNudges)).to.deep.equal([false, false]);
    const on = await call('put', '/customer/me/preferences', customer.accessToken, { rebookingNudges: true });
    expect(on.body.data.salons.every((x: { rebookingNudges: boolean }) => x.rebookingNudges)).to.equal(true);
    const offAtA = await call('put', '/customer/me/preferences', customer.accessToken, { rebookingNudges: false, tenantSlug: a.tenant.slug });
    const bySlug = Object.fromEntries(offAtA.body.data.salons.map((x: { tenantSlug: string; rebookingNudges: boolean }) => [x.tenantSlug, x.rebookingNudges]));
    expect(bySlug).to.deep.equal({ [a.tenant.slug]: false, [b.tenant.slug]: true });
    const elsewhere = await call('put', '/customer/me/preferences', customer.accessToken, {
      rebookingNudges: true,
      tenantSlug: (await bookingSalon()).tenant.slug,
    });
    expect([elsewhere.status, elsewhere.body.error.code]).to.deep.equal([404, 'TENANT_NOT_FOUND']);
    expect((await call('get', '/customer/me/preferences')).status).to.equal(401);
  });

  it('when the unsubscribe link is opened then the page asks first and changes nothing; its form turns the nudges off; a wrong token is a 404 page', async () => {
    const s = await bookingSalon();
    const customer = (await call('post', '/customers', s.owner.token, { name: 'Ola', phone: phone(), acceptsRebookingNudges: true })).body.data;
    const { config } = await stack();
    const token = unsubscribeToken(config.keys.rebookingUnsubscribe, customer.id);
    const row = async () => (await (await knex())('customers').where({ id: customer.id }).first()).acceptsRebookingNudges;
    const page = await (await http()).get(`/${s.tenant.slug}/nudges/unsubscribe?customer=${customer.id}&token=${encodeURIComponent(token)}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('Vil du ikke lenger få beskjed fra').and.contain('<form method="post"');
    expect(await row()).to.equal(true);
    const done = await (await http()).post(`/${s.tenant.slug}/nudges/unsubscribe`).type('form').send({ customer: customer.id, token });
    expect(done.status).to.equal(200);
    expect(done.text).to.contain('Du får ikke flere påminnelser om neste besøk');
    expect(await row()).to.equal(false);
    const wrong = await (await http()).get(`/${s.tenant.slug}/nudges/unsubscribe?customer=${customer.id}&token=${encodeURIComponent(token.slice(0, -2))}xx`);
    expect(wrong.status).to.equal(404);
  });

  it('when the unsubscribe API is called with the token then 200 and the nudges are off; a wrong token or another salon is 404 CUSTOMER_NOT_FOUND', async () => {
    const s = await bookingSalon();
    const other = await bookingSalon();
    const customer = (await call('post', '/customers', s.owner.token, { name: 'Per', phone: phone(), acceptsRebookingNudges: true })).body.data;
    const { config } = await stack();
    const token = unsubscribeToken(config.keys.rebookingUnsubscribe, customer.id);
    const wrong = await call('post', `/public/tenants/${s.tenant.slug}/rebooking-nudges/unsubscribe`, undefined, {
      customerId: customer.id,
      token: `${token}x`,
    });
    expect([wrong.status, wrong.body.error.code]).to.deep.equal([404, 'CUSTOMER_NOT_FOUND']);
    const elsewhere = await call('post', `/public/tenants/${other.tenant.slug}/rebooking-nudges/unsubscribe`, undefined, { customerId: customer.id, token });
    expect([elsewhere.status, elsewhere.body.error.code]).to.deep.equal([404, 'CUSTOMER_NOT_FOUND']);
    const ok = await call('post', `/public/tenants/${s.tenant.slug}/rebooking-nudges/unsubscribe`, undefined, { customerId: customer.id, token });
    expect(ok.status).to.equal(200);
    expect(ok.body.data).to.deep.equal({ rebookingNudges: false });
    expect((await (await knex())('customers').where({ id: customer.id }).first()).acceptsRebookingNudges).to.equal(false);
  });

  it("when a standing appointment's booking is opened on the manage page then the page shows its interval and next dates", async () => {
    // confirmed at once: a series starts only from a booking the salon would honour (docs/rules/series.md#making-a-series)
    const s = await bookingSalon({ settings: { maxBookingDaysInAdvance: 20, autoConfirm: true } });
    const booked = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(1), '10:00'),
      items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      customer: { name: 'Guro Gjest', phone: phone() },
    });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    const series = await call('post', '/series', s.owner.token, { bookingId: booked.body.data.id, intervalWeeks: 2, occurrenceCount: 3 });
    expect(series.status).to.equal(201);
    const page = await (await http()).get(`/${s.tenant.slug}/bookings/${booked.body.data.id}?token=${encodeURIComponent(booked.body.data.manageToken)}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('Fast time').and.contain('Hver 2. uke med samme behandler.');
    for (const date of series.body.data.nextDates) expect(page.text).to.contain(`<time datetime="${date}">`);
    // the occurrence the worker books has its own manage link (the one its messages carry), with the same section
    const db = await knex();
    const occurrence = await eventually(
      async () => db('booking_series_occurrences').where({ seriesId: series.body.data.id, occurrenceIndex: 1 }).first(),
      'occurrence 1 booked',
    );
    const row = await db('bookings').where({ id: occurrence.bookingId }).first();
    const token = reissueManageToken((await stack()).config.keys.manageLink, row.id, row.manageTokenHash)!;
    const its = await (await http()).get(`/${s.tenant.slug}/bookings/${row.id}?token=${encodeURIComponent(token)}`);
    expect(its.status).to.equal(200);
    expect(its.text).to.contain('Fast time').and.contain(`<time datetime="${series.body.data.nextDates[2]}">`);
  });
});
