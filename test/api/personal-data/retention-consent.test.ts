// Retention and consent over HTTP (docs/rules/personal-data.md#retention, #consent): the salon's
// retention setting and its limits, the owner's view of who is due (now, and within some days) and
// of the sweeps; marketing consent recorded with its time and source from the booking page (the API
// and the v1 form; ticked or not), the signed-in customer's switch, the unsubscribe link and the
// salon, in order, in the export.
import { expect } from 'chai';
import { call, http } from '../../support/http';
import { stack } from '../../support/stack';
import { at, bookingSalon, knex, localDay } from '../../support/booking-fixtures';
import { provePhone, signInCustomer } from '../../support/customers';
import { unsubscribeToken } from '../../../domain/rebooking/rebooking-tokens';
import { platformAdmin } from '../../support/billing';
import { newPerson } from './scene';

const DAY = 24 * 60 * 60 * 1000;

function monthsAgo(months: number, plusMs = 0): Date {
  const d = new Date();
  d.setUTCMonth(d.getUTCMonth() - months);
  return new Date(d.getTime() + plusMs);
}

describe('personal data: retention and consent (HTTP)', function () {
  this.timeout(120_000);

  before(async function () {
    this.timeout(180_000);
    await stack();
  });

  it('when the owner sets customerRetentionMonths to 12 or 120 then it is stored; 11 and 121 are 400; a new salon keeps 36', async () => {
    const s = await bookingSalon();
    expect((await call('get', '/tenants/me', s.owner.token)).body.data.settings.customerRetentionMonths).to.equal(36);
    for (const months of [12, 120]) {
      const res = await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { customerRetentionMonths: months } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.settings.customerRetentionMonths).to.equal(months);
    }
    for (const months of [11, 121]) {
      const res = await call('patch', `/tenants/${s.tenant.id}`, s.owner.token, { settings: { customerRetentionMonths: months } });
      expect([res.status, res.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
    }
  });

  it('when the owner asks who is due then it lists the customers past the retention, and within some days those about to be; not one with a booking to come', async () => {
    const s = await bookingSalon({ settings: { customerRetentionMonths: 12 } });
    const db = await knex();
    const customer = async (name: string, lastActivity: Date) => {
      const [row] = await db('customers').insert({ tenantId: s.tenant.id, name, phone: newPerson().phone, createdAt: lastActivity }).returning('id');
      await db('tenant_customers').insert({ tenantId: s.tenant.id, customerId: row.id, lastVisit: lastActivity, createdAt: lastActivity });
      return row.id as string;
    };
    const past = await customer('Forbi', monthsAgo(13));
    const soon = await customer('Snart', monthsAgo(12, 10 * DAY));
    const coming = await customer('Kommer', monthsAgo(20));
    await db('bookings').insert({
      tenantId: s.tenant.id,
      customerId: coming,
      resourceId: s.staff[0].resourceId,
      status: 'CONFIRMED',
      source: 'ADMIN',
      startTime: new Date(at(localDay(3), '10:00')),
      endTime: new Date(at(localDay(3), '11:00')),
    });
    await customer('Fersk', new Date());
    const now = await call('get', '/personal-data/retention/due', s.owner.token);
    expect(now.status, JSON.stringify(now.body)).to.equal(200);
    expect(now.body.data.map((c: { customerId: string }) => c.customerId)).to.deep.equal([past]);
    expect(now.body.data[0]).to.include({ name: 'Forbi' });
    expect(new Date(now.body.data[0].dueAt).getTime()).to.be.below(Date.now());
    const within = await call('get', '/personal-data/retention/due?withinDays=30', s.owner.token);
    expect(within.body.data.map((c: { customerId: string }) => c.customerId)).to.deep.equal([past, soon]);
    expect(within.body.meta.total).to.equal(2);
    for (const days of [-1, 366]) expect((await call('get', `/personal-data/retention/due?withinDays=${days}`, s.owner.token)).status).to.equal(400);
    expect((await call('get', '/personal-data/retention/due', s.staff[0].user.token)).status).to.equal(403);
    const sweeps = await call('get', '/personal-data/retention/sweeps', s.owner.token);
    expect([sweeps.status, sweeps.body.data]).to.deep.equal([200, []]);
  });

  it('when consent is given on the booking page, by the signed-in customer, withdrawn by the unsubscribe link and given to the salon then each is recorded with its source and the export lists them in order', async () => {
    const s = await bookingSalon();
    const customer = await signInCustomer();
    const person = newPerson();
    await provePhone(customer, person.phone);
    const db = await knex();
    // the booking page's checkbox, ticked
    const booked = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, customer.accessToken, {
      startTime: at(localDay(2), '10:00'),
      items: [{ serviceId: s.serviceId, resourceId: s.staff[0].resourceId }],
      customer: { name: person.name, phone: person.phone },
      marketingConsent: true,
    });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    const { customerId } = await db('bookings').where({ id: booked.body.data.id }).first();
    expect((await db('customers').where({ id: customerId }).first()).acceptsRebookingNudges).to.equal(true);
    // the signed-in customer's own switch, off then on
    expect((await call('put', '/customer/me/preferences', customer.accessToken, { rebookingNudges: false })).status).to.equal(200);
    expect((await call('put', '/customer/me/preferences', customer.accessToken, { rebookingNudges: true })).status).to.equal(200);
    // the unsubscribe link
    const key = (await stack()).platform.deps.config.keys.rebookingUnsubscribe;
    const unsubscribed = await call('post', `/public/tenants/${s.tenant.slug}/rebooking-nudges/unsubscribe`, undefined, {
      customerId,
      token: unsubscribeToken(key, customerId),
    });
    expect(unsubscribed.status, JSON.stringify(unsubscribed.body)).to.equal(200);
    // the salon records that the customer agreed again
    expect((await call('patch', `/customers/${customerId}`, s.owner.token, { acceptsRebookingNudges: true })).status).to.equal(200);
    // a PATCH that does not change the answer records nothing
    expect((await call('patch', `/customers/${customerId}`, s.owner.token, { acceptsRebookingNudges: true })).status).to.equal(200);

    const rows = await db('marketing_consents').where({ customerId }).orderBy('recordedAt').orderBy('createdAt');
    expect(rows.map((r: { granted: boolean; source: string }) => [r.granted, r.source])).to.deep.equal([
      [true, 'BOOKING_PAGE'],
      [false, 'SIGN_IN'],
      [true, 'SIGN_IN'],
      [false, 'UNSUBSCRIBE_LINK'],
      [true, 'SALON'],
    ]);
    expect(rows.at(-1).actorUserId).to.equal(s.owner.id);
    expect((await db('customers').where({ id: customerId }).first()).acceptsRebookingNudges).to.equal(true);
    const exported = await call('get', `/customers/${customerId}/personal-data`, s.owner.token);
    expect(exported.body.data.salons[0].consents.map((c: { granted: boolean; source: string }) => `${c.granted}/${c.source}`)).to.deep.equal([
      'true/BOOKING_PAGE',
      'false/SIGN_IN',
      'true/SIGN_IN',
      'false/UNSUBSCRIBE_LINK',
      'true/SALON',
    ]);
  });

  it('when the v1 contact form is posted with the marketing box ticked then the consent is recorded as the booking page’s; unticked, nothing is recorded', async () => {
    const s = await bookingSalon();
    const db = await knex();
    const post = async (time: string, ticked: boolean) => {
      const person = newPerson();
      const form = new URLSearchParams({
        services: s.serviceId,
        staff: s.staff[0].resourceId,
        time: at(localDay(3), time),
        name: person.name,
        phone: person.phone,
        email: '',
        notes: '',
        ...(ticked ? { marketingConsent: 'yes' } : {}),
      });
      const res = await (await http()).post(`/${s.tenant.slug}/book`).type('form').send(form.toString());
      expect(res.status, res.text.slice(0, 300)).to.equal(303);
      return (await db('customers').where({ tenantId: s.tenant.id, phone: person.phone }).first()) as { id: string; acceptsRebookingNudges: boolean };
    };
    const ticked = await post('10:00', true);
    expect(ticked.acceptsRebookingNudges).to.equal(true);
    expect(
      (await db('marketing_consents').where({ customerId: ticked.id })).map((r: { source: string; granted: boolean }) => [r.source, r.granted]),
    ).to.deep.equal([['BOOKING_PAGE', true]]);
    const unticked = await post('12:00', false);
    expect(unticked.acceptsRebookingNudges).to.equal(false);
    expect(await db('marketing_consents').where({ customerId: unticked.id })).to.deep.equal([]);
    // the v1 form shows the box, unticked
    const admin = (await platformAdmin()).token;
    try {
      await call('patch', '/superadmin/platform-settings', admin, { bookingUiVersion: 'v1' });
      const page = await (
        await http()
      ).get(`/${s.tenant.slug}?services=${s.serviceId}&staff=${s.staff[0].resourceId}&time=${encodeURIComponent(at(localDay(3), '14:00'))}`);
      expect(page.text).to.match(
        /<input\s+id="contact-marketing"\s+name="marketingConsent"\s+type="checkbox"\s+value="yes"\s+aria-describedby="contact-marketing-hint"\s*\/>/,
      );
    } finally {
      await call('patch', '/superadmin/platform-settings', admin, { bookingUiVersion: 'v2' });
    }
  });
});
