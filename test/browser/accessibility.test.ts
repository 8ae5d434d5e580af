// An automated accessibility scan (axe-core, WCAG 2.2 A and AA rules) of every kind of customer
// page: each step of the v2 page, the contact step with errors, the confirmation, the payment return
// page and the v1 steps, at a salon whose colours are hard to read on (yellow and light green): no
// serious or critical finding.
import { expect } from 'chai';
import { chooseUpToContact, closePages, NEXT, openPage, pageSalon, randomPhone, scan, startBrowserStack, useBookingUi } from './support';
import { call } from '../support/http';
import { depositSalon, paymentPage } from '../support/payments';
import { at, localDay } from '../support/booking-fixtures';

describe('accessibility of the customer pages (axe-core in the browser)', function () {
  this.timeout(90_000);
  before(startBrowserStack);
  afterEach(closePages);
  after(() => useBookingUi('v2'));

  const HARD_COLOURS = { primaryColor: '#ffeb3b', secondaryColor: '#b2ff59' };

  it('when the v2 steps, the contact errors and the confirmation are scanned then axe finds nothing serious or critical', async function () {
    const salon = await pageSalon({ branding: HARD_COLOURS });
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    const findings: string[] = [];
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    findings.push(...(await scan(page, 'services')));
    await chooseUpToContact(opened, [salon.services[0].name]);
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.locator('#contact-name-error').waitFor();
    await shot('contact-errors');
    findings.push(...(await scan(page, 'contact with errors')));
    await page.getByRole('button', { name: 'Tilbake' }).click();
    await page.locator('.times button').first().waitFor();
    findings.push(...(await scan(page, 'day and time')));
    await page.locator('.times button').first().click();
    await page.getByLabel('Navn').fill('Kari Skann');
    await page.getByLabel('Mobilnummer').fill(randomPhone().typed);
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/new=1$/);
    await shot('confirmation');
    findings.push(...(await scan(page, 'confirmation')));
    expect(findings).to.deep.equal([]);
  });

  it('when the v1 steps and the payment return page are scanned then axe finds nothing serious or critical', async function () {
    await useBookingUi('v1');
    const salon = await pageSalon({ branding: HARD_COLOURS });
    const { page, shot, baseUrl } = await openPage(this);
    const findings: string[] = [];
    await page.goto(`${baseUrl}/${salon.tenant.slug}?services=${salon.services[0].id}&staff=any`);
    await page.locator('.times-form input[name="time"]').first().waitFor();
    await shot('v1-times');
    findings.push(...(await scan(page, 'v1 day and time')));
    await page.locator('.times-form input[name="time"]').first().check();
    await page.getByRole('button', NEXT).click();
    await page.getByRole('heading', { level: 2, name: 'Dine opplysninger' }).waitFor();
    findings.push(...(await scan(page, 'v1 contact')));
    await useBookingUi('v2');

    const deposit = await depositSalon();
    const created = await call('post', `/public/tenants/${deposit.tenant.slug}/bookings`, undefined, {
      startTime: at(localDay(2), '10:00'),
      items: [{ serviceId: deposit.serviceId, resourceId: deposit.staff[0].resourceId }],
      customer: { name: 'Kari Retur', phone: randomPhone().stored },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const payment = await paymentPage(deposit, {
      id: created.body.data.id,
      token: created.body.data.manageToken,
      status: 'PENDING',
      paymentRequired: true,
      phone: '',
    });
    await page.goto(`${baseUrl}/payments/${payment.paymentId}/return`);
    await shot('return-waiting');
    findings.push(...(await scan(page, 'payment return')));
    expect(findings).to.deep.equal([]);
  });
});
