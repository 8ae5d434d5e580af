// The owner's notices and the customers (docs/rules/front-desk.md), in Chromium: a booking waiting
// for approval reaches the owner's list (and the count in the menu), is approved from there and
// marked read, a customer's own cancellation is listed too, and the owner turns the notices' e-mail
// off and on; a customer's card shows visits, spend, stamps and vouchers, and a stylist edits only its
// notes and tags.
import { expect } from 'chai';
import { closeDesks, deskSalon, openDesk, signIn, startDeskStack } from './support';
import { at, knex, localDay } from '../../support/booking-fixtures';
import { call } from '../../support/http';
import { uniquePhone } from '../../support/factories';
import { scan } from '../support';

describe('the front desk: notices and customers (Chromium)', function () {
  this.timeout(120_000);
  before(startDeskStack);
  afterEach(closeDesks);

  it('when a customer books at a salon that approves its bookings then the open desk counts a notice, lists it, and the owner approves the booking from it and marks it read', async function () {
    const s = await deskSalon({ autoConfirm: false });
    const day = localDay(2);
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, s.owner, `/desk?date=${day}`);
    const booked = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
      startTime: at(day, '11:00'),
      items: [{ serviceId: s.cut.id, resourceId: s.stylists[0].resourceId }],
      customer: { name: 'Vente Kunde', phone: uniquePhone() },
    });
    expect(booked.status).to.equal(201);
    await page.getByRole('link', { name: /Varsler.*1 uleste/ }).waitFor({ timeout: 10_000 });
    await page.getByRole('link', { name: /Varsler/ }).click();
    await page.getByRole('heading', { level: 2, name: 'Varsler' }).waitFor();
    await page.getByText('Venter på godkjenning').waitFor();
    await page.getByText(/Vente Kunde: Klipp .*, .* kl\. 11:00/).waitFor();
    await shot('notices');
    expect(await scan(page, 'notices')).to.deep.equal([]);
    await page.getByRole('button', { name: 'Åpne' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Godkjenn' }).click();
    await page
      .getByRole('dialog')
      .getByText(/^Bekreftet/)
      .waitFor();
    expect((await (await knex())('bookings').where({ id: booked.body.data.id }).first()).status).to.equal('CONFIRMED');
    await page.getByRole('dialog').getByRole('button', { name: 'Lukk' }).click();
    await page.getByRole('button', { name: 'Merk som lest' }).click();
    await page.getByText('lest', { exact: true }).waitFor();
    await page
      .getByRole('link', { name: /Varsler/ })
      .filter({ hasNotText: 'uleste' })
      .waitFor();
  });

  it('when a customer cancels on their own then the open notices list it without a reload, and the card shows the booking cancelled', async function () {
    const s = await deskSalon({ autoConfirm: true });
    const booked = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(2), '14:00'),
      items: [{ serviceId: s.cut.id, resourceId: s.stylists[1].resourceId }],
      customer: { name: 'Angre Kunde', phone: uniquePhone() },
    });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, s.owner, '/desk?view=notices');
    await page.getByText('Ingen varsler.').waitFor();
    const { id, manageToken: token } = booked.body.data;
    expect((await call('post', `/public/tenants/${s.tenant.slug}/bookings/${id}/cancel`, undefined, { token })).status).to.equal(200);
    await page.getByText('Avbestilt av kunden').waitFor({ timeout: 10_000 });
    await page.getByText(/Angre Kunde: Klipp .*, .* kl\. 14:00/).waitFor();
    await shot('cancelled-notice');
    await page.getByRole('button', { name: 'Åpne' }).click();
    await page
      .getByRole('dialog')
      .getByText(/^Avbestilt/)
      .first()
      .waitFor();
  });

  it("when the owner turns the notices' e-mail off and on again then the salon's setting follows, and the box shows it after a reload", async function () {
    const s = await deskSalon({ autoConfirm: false });
    const db = await knex();
    const stored = async () => (await db('tenants').where({ id: s.tenant.id }).first()).settings.notifyOwnerByEmail;
    expect(await stored()).to.equal(true);
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, s.owner, '/desk?view=notices');
    const box = page.getByRole('checkbox', { name: 'Send meg også hvert varsel på e-post' });
    expect(await box.isChecked()).to.equal(true);
    await box.uncheck();
    await page.getByRole('status').filter({ hasText: 'Varslene kommer ikke lenger på e-post' }).waitFor();
    expect(await stored()).to.equal(false);
    await shot('notices-email-off');
    expect(await scan(page, 'notices e-mail off')).to.deep.equal([]);
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Varsler' }).waitFor();
    expect(await box.isChecked()).to.equal(false);
    await box.check();
    await page.getByRole('status').filter({ hasText: 'Varslene kommer nå også på e-post.' }).waitFor();
    expect(await stored()).to.equal(true);
  });

  it("when a stylist opens a customer's card then it shows visits, spend, last visit, stamps and vouchers, and the stylist saves notes and tags", async function () {
    const s = await deskSalon();
    const db = await knex();
    const card = await call('post', '/loyalty-cards', s.owner.token, {
      name: 'Klippekort',
      type: 'VISIT_BASED',
      requiredStamps: 4,
      rewardType: 'DISCOUNT_AMOUNT',
      rewardValue: 10000,
    });
    expect(card.status).to.equal(201);
    const customer = await call('post', '/customers', s.owner.token, { name: 'Trofast Kunde', phone: uniquePhone() });
    const tc = await db('tenant_customers').where({ tenantId: s.tenant.id, customerId: customer.body.data.id }).first();
    await db('tenant_customers')
      .where({ id: tc.id })
      .update({ visitCount: 7, totalSpent: 420000, lastVisit: new Date(at(localDay(-10), '12:00')) });
    await db('loyalty_vouchers').insert({
      tenantId: s.tenant.id,
      loyaltyCardId: card.body.data.id,
      tenantCustomerId: tc.id,
      code: 'STAMP-TEST-DESK',
      rewardType: 'DISCOUNT_AMOUNT',
      rewardValue: 10000,
      issuedFromCycleNumber: 1,
    });
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, { email: s.stylists[0].user.email, password: s.stylists[0].user.password });
    await page.getByRole('link', { name: 'Kunder' }).click();
    await page.getByLabel('Søk etter kunde').fill('Trofast');
    await page.getByRole('button', { name: /^Trofast Kunde/ }).click();
    const article = page.getByRole('article');
    await article.getByText('Klippekort: 0 av 4 stempler').waitFor();
    await article.getByText('STAMP-TEST-DESK (ACTIVE)').waitFor();
    const facts = (await article.locator('dd').allTextContents()).map((t) => t.replace(/\s/g, ' '));
    expect(facts).to.include.members(['7', '4 200 kr']);
    await article.getByLabel('Notater').fill('Liker kort hår');
    await article.getByLabel('Merker (skill med komma)').fill('vip, farge');
    await article.getByRole('button', { name: 'Lagre' }).click();
    await article.getByText('Lagret.').waitFor();
    await shot('customer');
    const saved = await db('tenant_customers').where({ id: tc.id }).first();
    expect(saved.notes).to.equal('Liker kort hår');
    expect(saved.tags).to.deep.equal(['vip', 'farge']);
    expect(await scan(page, 'customers')).to.deep.equal([]);
  });
});
