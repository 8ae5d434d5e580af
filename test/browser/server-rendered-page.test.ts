// bookingUiVersion v1: the server-rendered page books with JavaScript disabled (plain forms and
// redirects); and v2 without JavaScript carries on with the same steps after its first form.
import { expect } from 'chai';
import { bookingsOf, closePages, NEXT, openPage, pageSalon, processingSalon, randomPhone, startBrowserStack, useBookingUi } from './support';

describe('the server-rendered booking page (v1) and the page without JavaScript (browser)', function () {
  this.timeout(60_000);
  before(startBrowserStack);
  afterEach(closePages);
  after(() => useBookingUi('v2'));

  it('when the platform serves v1 and the browser runs no JavaScript then a guest books through plain forms and redirects', async function () {
    await useBookingUi('v1');
    const salon = await pageSalon();
    const { page, shot, baseUrl } = await openPage(this, { javaScript: false });
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    expect(await page.locator('script').count(), 'v1 sends no script').to.equal(0);
    await page.getByRole('button', NEXT).click();
    expect(await page.getByRole('alert').innerText()).to.equal('Velg minst én tjeneste.');
    await shot('nothing-chosen');
    await page.getByLabel(salon.services[0].name).check();
    await page.getByRole('button', NEXT).click();
    await page.getByRole('heading', { level: 2, name: 'Velg behandler' }).waitFor();
    expect(await page.getByLabel('Hvem som helst').isChecked()).to.equal(true);
    await shot('staff');
    await page.getByRole('button', NEXT).click();
    await page.getByRole('heading', { level: 2, name: 'Velg dag og tid' }).waitFor();
    // the first day with free times is open; its day link says how many
    expect(await page.locator('li:has(a.day[aria-current="date"]) [hidden]').textContent()).to.match(/^[A-ZÆØÅ]\S+ \d+\. \S+: \d+ ledige tider?\.$/);
    await shot('times');
    await page.locator('.times-form input[name="time"]').first().check();
    await page.getByRole('button', NEXT).click();
    await page.getByRole('heading', { level: 2, name: 'Dine opplysninger' }).waitFor();
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    expect(await page.locator('#contact-name-error').innerText()).to.equal('Må fylles ut.');
    expect(await page.getByLabel('Navn').getAttribute('aria-invalid')).to.equal('true');
    await shot('contact-errors');
    const phone = randomPhone();
    await page.getByLabel('Navn').fill('Kari Uten Skript');
    await page.getByLabel('Mobilnummer').fill(phone.typed);
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/\/bookings\/[0-9a-f-]+\?token=.*&new=1$/);
    await shot('confirmation');
    expect(await page.getByRole('heading', { level: 2 }).first().innerText()).to.equal('Takk for bestillingen!');
    const [booking] = await bookingsOf(salon.tenant.id);
    expect(booking).to.include({ contactName: 'Kari Uten Skript', contactPhone: phone.stored, status: 'CONFIRMED' });
  });

  it('when the stylist has a colour at 10:00 then the server-rendered times offer a 30-minute service inside its processing but not over its application or finish, and the summary shows the whole appointment', async function () {
    await useBookingUi('v1');
    const salon = await processingSalon();
    const { page, shot, baseUrl } = await openPage(this, { javaScript: false });
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[1].name).check();
    await page.getByRole('button', NEXT).click();
    await page.getByRole('heading', { level: 2, name: 'Velg behandler' }).waitFor();
    await page.getByRole('button', NEXT).click();
    await page.getByRole('heading', { level: 2, name: 'Velg dag og tid' }).waitFor();
    await shot('times-around-the-colour');
    const times = await page.locator('.times-form label').allInnerTexts();
    expect(times).to.include.members(['09:30', '10:30', '11:30']);
    for (const taken of ['09:45', '10:00', '10:15', '10:45', '11:00', '11:15']) expect(times, taken).to.not.include(taken);
    await page.getByLabel('10:30', { exact: true }).check();
    await page.getByRole('button', NEXT).click();
    await page.getByRole('heading', { level: 2, name: 'Dine opplysninger' }).waitFor();
    expect(await page.locator('.summary').innerText()).to.contain('kl. 10:30–11:00');
  });

  it('when the platform serves v2 but the browser runs no JavaScript then the first form still works and the steps continue server-rendered', async function () {
    await useBookingUi('v2');
    const salon = await pageSalon();
    const { page, shot, baseUrl } = await openPage(this, { javaScript: false });
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[0].name).check();
    await page.getByRole('button', NEXT).click();
    await page.getByRole('heading', { level: 2, name: 'Velg behandler' }).waitFor();
    await shot('staff-without-javascript');
    expect(await page.locator('script').count()).to.equal(0);
  });
});
