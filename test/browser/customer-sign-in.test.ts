// A customer who signs in on the booking page (the OpenID Connect provider's own sign-in page, then
// back), books as themselves, sees "my bookings", and is told a voucher code is unknown; from a
// browser in another time zone, so the page says whose zone the times are in.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { chooseUpToContact, closePages, openPage, pageSalon, randomPhone, startBrowserStack, waitForFocus } from './support';
import { knex } from '../support/booking-fixtures';

describe('customer sign-in on the booking page (browser)', function () {
  this.timeout(60_000);
  before(startBrowserStack);
  afterEach(closePages);

  it('when a customer signs in at the identity provider then they come back signed in with their choices kept, book as themselves and find the booking under "Mine timer"', async function () {
    const salon = await pageSalon();
    const opened = await openPage(this, { timezoneId: 'America/New_York' });
    const { page, shot, baseUrl } = opened;
    const email = `signed-in-${crypto.randomUUID()}@example.test`;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[0].name).check();
    await page.getByRole('button', { name: 'Logg inn' }).click();
    // the embedded provider's own page
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Name').fill('Kari Konto');
    await shot('identity-provider');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByText('Innlogget som Kari Konto').waitFor();
    expect(await page.getByLabel(salon.services[0].name).isChecked(), 'the choice survived the trip').to.equal(true);
    await shot('signed-in');

    await page.getByRole('button', { name: 'Neste', exact: true }).click();
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Velg behandler' }));
    await page.getByRole('button', { name: 'Neste', exact: true }).click();
    await page.locator('.times button').first().waitFor();
    expect(await page.locator('.tz-note').innerText()).to.equal('Merk: tidene vises i salongens tidssone (Europe/Oslo), ikke i din (America/New_York).');
    await page.locator('.times button').first().click();
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Dine opplysninger' }));
    expect(await page.getByLabel('Navn').inputValue(), 'prefilled from the account').to.equal('Kari Konto');
    expect(await page.getByLabel('E-post (valgfritt)').inputValue()).to.equal(email);
    await page.getByLabel('Kupongkode (valgfritt)').fill('STAMP-0000-0000');
    await page.getByRole('button', { name: 'Bruk kupong' }).click();
    await page.getByText('Fant ingen kupong med den koden hos denne salongen.').waitFor();
    await page.getByLabel('Mobilnummer').fill(randomPhone().typed);
    await shot('contact');
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/new=1$/);

    const booking = await (await knex())('bookings').where({ tenantId: salon.tenant.id }).first();
    expect(booking.isGuest, 'the booking is the account\'s').to.equal(false);
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByRole('button', { name: 'Mine timer' }).click();
    await page.locator('#my-bookings li').first().waitFor();
    await shot('my-bookings');
    expect(await page.locator('#my-bookings li').first().innerText()).to.contain(salon.services[0].name).and.to.contain('Bekreftet');
  });
});
