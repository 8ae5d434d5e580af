// A customer who signs in on the booking page (the OpenID Connect provider's own sign-in page, then
// back), books as themselves, sees "my bookings", and is told a voucher code is unknown; from a
// browser in another time zone, so the page says whose zone the times are in; and one who applies
// the voucher their stamp card earned and books with its discount.
import crypto from 'node:crypto';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { chooseUpToContact, closePages, openPage, pageSalon, randomPhone, startBrowserStack, waitForFocus } from './support';
import { at, knex, localDay } from '../support/booking-fixtures';
import { provePhone, signInCustomer } from '../support/customers';
import { stack } from '../support/stack';
import { call } from '../support/http';
import { issueVoucher } from '../../domain/loyalty/loyalty-voucher.service';
import { findCard } from '../../domain/loyalty/loyalty.repository';

/** From the booking page to the provider's sign-in page and back, signed in. */
async function signIn(page: Page, pageUrl: string, email: string, name: string, shot?: (name: string) => Promise<void>): Promise<void> {
  await page.getByRole('button', { name: 'Logg inn' }).click();
  // the embedded provider's own page
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Name').fill(name);
  await shot?.('identity-provider');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(pageUrl);
  await page.getByText(`Innlogget som ${name}`).waitFor();
}

describe('customer sign-in on the booking page (browser)', function () {
  this.timeout(60_000);
  before(startBrowserStack);
  afterEach(closePages);

  it('when a customer signs in at the identity provider then they come back signed in with their choices kept, book as themselves and find the booking under "Mine timer", where a standing appointment they make shows its interval and next dates', async function () {
    const salon = await pageSalon();
    const opened = await openPage(this, { timezoneId: 'America/New_York' });
    const { page, shot, baseUrl } = opened;
    const email = `signed-in-${crypto.randomUUID()}@example.test`;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[0].name).check();
    await signIn(page, `${baseUrl}/${salon.tenant.slug}`, email, 'Kari Konto', shot);
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
    expect(booking.isGuest, "the booking is the account's").to.equal(false);
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByRole('button', { name: 'Mine timer' }).click();
    await page.locator('#my-bookings li').first().waitFor();
    await shot('my-bookings');
    expect(await page.locator('#my-bookings li').first().innerText())
      .to.contain(salon.services[0].name)
      .and.to.contain('Bekreftet');

    // the customer makes a standing appointment every 4 weeks from a booking with a chosen staff member: "Mine timer" says so, with its next dates
    const account = await signInCustomer({ email, name: 'Kari Konto' });
    const chosen = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, account.accessToken, {
      startTime: at(localDay(5), '12:00'),
      items: [{ serviceId: salon.services[0].id, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Kari Konto', phone: `+47${crypto.randomInt(40000000, 49999999)}` },
    });
    expect(chosen.status, JSON.stringify(chosen.body)).to.equal(201);
    const series = await call('post', '/customer/me/series', account.accessToken, { bookingId: chosen.body.data.id, intervalWeeks: 4, occurrenceCount: 3 });
    expect(series.status, JSON.stringify(series.body)).to.equal(201);
    await page.reload();
    await page.getByRole('button', { name: 'Mine timer' }).click();
    const note = page.locator('#my-bookings li .series-note').first();
    await note.waitFor();
    await shot('my-bookings-series');
    const text = await note.innerText();
    expect(text).to.match(/^Fast time: Hver 4\. uke med samme behandler\. Neste timer: /);
    expect(text.split(', ')).to.have.length(series.body.data.nextDates.length);
  });
  it('when a signed-in customer applies the voucher their stamp card earned then the page shows the discount and what they pay, and the booking is made with it', async function () {
    const salon = await pageSalon();
    const owner = salon.owner.token;
    const digits = String(crypto.randomInt(40000000, 49999999));
    const known = await call('post', '/customers', owner, { name: 'Kari Stempel', phone: `+47${digits}` });
    expect(known.status, JSON.stringify(known.body)).to.equal(201);
    const db = await knex();
    const { id: tenantCustomerId } = await db('tenant_customers').where({ tenantId: salon.tenant.id, customerId: known.body.data.id }).first('id');
    const card = await call('post', '/loyalty-cards', owner, {
      name: 'Stempelkort',
      type: 'VISIT_BASED',
      requiredStamps: 5,
      rewardType: 'DISCOUNT_AMOUNT',
      rewardValue: 20000,
    });
    expect(card.status, JSON.stringify(card.body)).to.equal(201);
    const cardRow = (await findCard(db, salon.tenant.id, card.body.data.id))!;
    const { signaller } = await stack();
    const voucher = await db.transaction((trx) =>
      issueVoucher(trx, signaller, { card: cardRow, tenantCustomerId, cycleNumber: 1, bookingId: null, now: new Date() }),
    );

    // the account has proved the phone the salon knows (a typed phone links nothing: docs/rules/security.md)
    const email = `stamp-${crypto.randomUUID()}@example.test`;
    await provePhone(await signInCustomer({ email, name: 'Kari Stempel' }), `+47${digits}`);

    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[0].name).check();
    await signIn(page, `${baseUrl}/${salon.tenant.slug}`, email, 'Kari Stempel');
    await chooseUpToContact(opened, [salon.services[0].name]);
    await page.getByLabel('Mobilnummer').fill(digits);
    await page.getByLabel('Kupongkode (valgfritt)').fill(voucher.code.toLowerCase());
    await page.getByRole('button', { name: 'Bruk kupong' }).click();
    await page
      .locator('#voucher-result')
      .filter({ hasText: /^Kupong \S+: 200\skr i rabatt\. Du betaler 300\skr\.$/ })
      .waitFor();
    await shot('voucher-applied');
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/new=1$/);
    await shot('confirmation');
    const booking = await db('bookings').where({ tenantId: salon.tenant.id }).first();
    expect(booking).to.include({ isGuest: false, discountAmount: 20000, appliedVoucherId: voucher.id });
    expect(await db('loyalty_vouchers').where({ id: voucher.id }).first()).to.include({ status: 'RESERVED' });
  });
});
