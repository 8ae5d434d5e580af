// The booking page's marketing checkbox (docs/rules/personal-data.md#consent) in Chromium: on the v2
// page and on the v1 form without JavaScript it stands unticked below the contact fields, labelled
// and described; ticked, the booking records the customer's consent with source BOOKING_PAGE, and the
// contact step still passes axe-core; unticked, nothing is recorded.
import { expect } from 'chai';
import { chooseUpToContact, closePages, NEXT, openPage, pageSalon, randomPhone, scan, startBrowserStack, useBookingUi } from './support';
import { knex } from '../support/booking-fixtures';

async function consentsOf(tenantId: string, phone: string) {
  const db = await knex();
  const customer = await db('customers').where({ tenantId, phone }).first();
  return { accepts: customer.acceptsRebookingNudges as boolean, rows: await db('marketing_consents').where({ customerId: customer.id }) };
}

describe('the booking page’s marketing consent (browser)', function () {
  this.timeout(60_000);
  before(startBrowserStack);
  afterEach(closePages);

  it('when a guest ticks the box on the v2 page then the booking records the consent as the booking page’s; the box starts unticked and the step passes axe', async function () {
    await useBookingUi('v2');
    const salon = await pageSalon();
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await chooseUpToContact(opened, [salon.services[0].name]);
    const box = page.getByLabel('Ja takk, salongen kan sende meg påminnelser om å bestille igjen', { exact: false });
    expect(await box.isChecked()).to.equal(false);
    expect(await scan(page, 'contact with the consent box')).to.deep.equal([]);
    const phone = randomPhone();
    await page.getByLabel('Navn').fill('Samtykke Kunde');
    await page.getByLabel('Mobilnummer').fill(phone.typed);
    await box.check();
    await shot('consent-ticked');
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/new=1$/);
    const { accepts, rows } = await consentsOf(salon.tenant.id, phone.stored);
    expect(accepts).to.equal(true);
    expect(rows.map((r: { source: string; granted: boolean }) => [r.source, r.granted])).to.deep.equal([['BOOKING_PAGE', true]]);
  });

  it('when a guest books on the v1 form without JavaScript and leaves the box unticked then nothing is recorded; ticked, the consent is', async function () {
    await useBookingUi('v1');
    try {
      const salon = await pageSalon();
      for (const ticked of [false, true]) {
        const { page, shot, baseUrl } = await openPage(this, { javaScript: false });
        await page.goto(`${baseUrl}/${salon.tenant.slug}`);
        await page.getByLabel(salon.services[0].name).check();
        await page.getByRole('button', NEXT).click();
        await page.getByRole('heading', { level: 2, name: 'Velg behandler' }).waitFor();
        await page.getByRole('button', NEXT).click();
        await page.getByRole('heading', { level: 2, name: 'Velg dag og tid' }).waitFor();
        await page
          .locator('.times-form input[name="time"]')
          .nth(ticked ? 1 : 0)
          .check();
        await page.getByRole('button', NEXT).click();
        await page.getByRole('heading', { level: 2, name: 'Dine opplysninger' }).waitFor();
        const phone = randomPhone();
        await page.getByLabel('Navn').fill('Skjema Kunde');
        await page.getByLabel('Mobilnummer').fill(phone.typed);
        const box = page.getByLabel('Ja takk, salongen kan sende meg påminnelser om å bestille igjen', { exact: false });
        expect(await box.isChecked()).to.equal(false);
        if (ticked) await box.check();
        await shot(ticked ? 'v1-ticked' : 'v1-unticked');
        await page.getByRole('button', { name: 'Bestill', exact: true }).click();
        await page.waitForURL(/new=1$/);
        const { accepts, rows } = await consentsOf(salon.tenant.id, phone.stored);
        expect(accepts).to.equal(ticked);
        expect(rows.map((r: { source: string }) => r.source)).to.deep.equal(ticked ? ['BOOKING_PAGE'] : []);
      }
    } finally {
      await useBookingUi('v2');
    }
  });
});
