// The customer's manage page, reached as the customer reaches it: from the link in the booking's
// e-mail.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { chooseUpToContact, closePages, openPage, pageSalon, randomPhone, startBrowserStack } from './support';
import { stack } from '../support/stack';
import { eventually } from '../support/eventually';
import { knex } from '../support/booking-fixtures';

describe('manage page (browser)', function () {
  this.timeout(60_000);
  before(startBrowserStack);
  afterEach(closePages);

  it('when the customer opens the link in the confirmation e-mail then the page shows the booking and what cancelling costs, and cancelling there cancels it', async function () {
    const salon = await pageSalon({ settings: { cancellationHours: 0 } });
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    const email = `manage-${crypto.randomUUID()}@example.test`;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await chooseUpToContact(opened, [salon.services[0].name]);
    await page.getByLabel('Navn').fill('Kari Avbestiller');
    await page.getByLabel('Mobilnummer').fill(randomPhone().typed);
    await page.getByLabel('E-post (valgfritt)').fill(email);
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/new=1$/);

    const { platform } = await stack();
    const mail = await eventually(async () => (await platform.mailer.sentTo(email)).find((m) => m.meta?.kind === 'CONFIRMED'), 'the confirmation e-mail');
    const link = /(http:\/\/\S+\/bookings\/\S+)/.exec(mail.text)![1];
    expect(new URL(link).origin).to.equal(baseUrl);
    await page.goto(link);
    await shot('manage');
    expect(await page.getByRole('heading', { level: 2 }).first().innerText()).to.equal(`Din time hos ${salon.tenant.name}`);
    expect(await page.locator('#cancel-terms').innerText()).to.match(/^Gratis avbestilling frem til .+ Avbestillingen koster ingenting\.$/);
    await page.getByLabel('Årsak (valgfritt)').fill('Blitt syk');
    await page.getByRole('button', { name: 'Avbestill timen' }).click();
    await page.getByRole('status').getByText('Timen er avbestilt.').waitFor();
    await shot('cancelled');
    expect(await page.getByRole('button', { name: 'Avbestill timen' }).count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Bestill ny time' }).getAttribute('href')).to.equal(`/${salon.tenant.slug}`);
    const booking = await (await knex())('bookings').where({ tenantId: salon.tenant.id }).first();
    expect(booking).to.include({ status: 'CANCELLED', cancelledBy: 'CUSTOMER', cancelReason: 'Blitt syk' });
  });

  it('when the customer presses Confirm on the manage page then the booking is confirmed by link and the page says so', async function () {
    const salon = await pageSalon({ settings: { cancellationHours: 0 } });
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    const email = `confirm-${crypto.randomUUID()}@example.test`;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await chooseUpToContact(opened, [salon.services[0].name]);
    await page.getByLabel('Navn').fill('Kari Kommer');
    await page.getByLabel('Mobilnummer').fill(randomPhone().typed);
    await page.getByLabel('E-post (valgfritt)').fill(email);
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/new=1$/);

    const { platform } = await stack();
    const mail = await eventually(async () => (await platform.mailer.sentTo(email)).find((m) => m.meta?.kind === 'RECEIVED' || m.meta?.kind === 'CONFIRMED'), 'the booking e-mail');
    await page.goto(/(http:\/\/\S+\/bookings\/\S+)/.exec(mail.text)![1]);
    expect(await page.locator('#confirm-prompt').innerText()).to.equal('Bekreft at du kommer, så vet salongen at timen er din.');
    await page.getByRole('button', { name: 'Bekreft at jeg kommer' }).click();
    await page.waitForURL(/confirmed=1$/);
    await page.locator('#confirmed-note').getByText('Du har bekreftet at du kommer. Takk!').waitFor();
    await shot('confirmed');
    expect(await page.getByRole('button', { name: 'Bekreft at jeg kommer' }).count()).to.equal(0);
    // cancelling is still offered after confirming
    expect(await page.getByRole('button', { name: 'Avbestill timen' }).count()).to.equal(1);
    const booking = await (await knex())('bookings').where({ tenantId: salon.tenant.id }).first();
    expect(booking.confirmedVia).to.equal('LINK');
    expect(booking.confirmedAt).to.be.an.instanceOf(Date);
  });
});
