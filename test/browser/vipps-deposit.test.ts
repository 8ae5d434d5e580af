// A Vipps MobilePay deposit from the booking page, in Chromium (docs/rules/payments.md#vipps-mobilepay):
// the customer books, lands on Vipps' landing page (the suite's Vipps sandbox) with the booking's
// phone number prefilled, approves, and comes back to the platform's return page and manage page.
import { expect } from 'chai';
import { chooseUpToContact, closePages, startBrowserStack, openPage, randomPhone } from './support';
import { stack } from '../support/stack';
import { vippsSalon } from '../support/payments';
import { knex } from '../support/booking-fixtures';

describe('booking page deposits with Vipps MobilePay (browser)', function () {
  this.timeout(60_000);
  before(startBrowserStack);
  afterEach(closePages);

  it('when the customer approves the deposit on the Vipps landing page then the return page shows it reserved, the booking confirmed, and the manage page says the deposit is reserved', async function () {
    const { salon } = await vippsSalon();
    const service = await (await knex())('services').where({ id: salon.serviceId }).first('name');
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    const phone = randomPhone();
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await chooseUpToContact(opened, [service.name]);
    await page.getByLabel('Navn').fill('Kari Vipps');
    await page.getByLabel('Mobilnummer').fill(phone.typed);
    expect(await page.getByText(/Salongen tar et depositum på 200\skr, som du betaler på neste side/).isVisible()).to.equal(true);
    await shot('contact');
    await page.getByRole('button', { name: 'Bestill og betal depositum' }).click();

    // Vipps' landing page, the booking's phone number prefilled
    await page.waitForURL(/\/landing\?token=/);
    await page.getByRole('heading', { name: 'Vipps MobilePay sandbox' }).waitFor();
    expect(await page.getByLabel('Test phone').inputValue()).to.equal(phone.stored);
    await shot('vipps-landing');
    await page.getByRole('button', { name: 'Approve' }).click();

    await page.waitForURL(/\/payments\/[0-9a-f-]+\/return/);
    await page.getByText('Timen: bekreftet av salongen.').waitFor({ timeout: 20_000 });
    expect(await page.locator('#payment-status').innerText()).to.equal('Beløpet er reservert i Vipps og trekkes når du kommer.');
    await shot('return-reserved');
    const booking = await (await knex())('bookings').where({ tenantId: salon.tenant.id }).first();
    expect(booking).to.include({ status: 'CONFIRMED', depositStatus: 'AUTHORIZED' });
    const { vipps } = await stack();
    const [payment] = await (await knex())('payments').where({ bookingId: booking.id });
    expect(vipps.payment(payment.id)!.state).to.equal('AUTHORIZED');

    await page.getByRole('link', { name: 'Lenke for å se eller avbestille timen' }).click();
    await page.waitForURL(/\/bookings\/[0-9a-f-]+\?token=/);
    expect(await page.locator('main').innerText()).to.match(/Depositumet på 200\skr er reservert, og trekkes når du kommer\./);
    await shot('manage-reserved');
  });
});
