// Deposits from the booking page: the provider's hosted checkout (the sandbox's page) and back to
// the platform's return page, in Chromium.
import { expect } from 'chai';
import { chooseUpToContact, closePages, startBrowserStack, openPage, randomPhone, type OpenedPage } from './support';
import { stack } from '../support/stack';
import { eventually } from '../support/eventually';
import { depositSalon, paymentRows } from '../support/payments';
import { knex } from '../support/booking-fixtures';

async function bookWithDeposit(opened: OpenedPage, slug: string, service: string): Promise<void> {
  const { page, shot, baseUrl } = opened;
  await page.goto(`${baseUrl}/${slug}`);
  await chooseUpToContact(opened, [service]);
  await page.getByLabel('Navn').fill('Kari Depositum');
  await page.getByLabel('Mobilnummer').fill(randomPhone().typed);
  expect(await page.getByText(/Salongen tar et depositum på 100\skr/).isVisible()).to.equal(true);
  await shot('contact');
  await page.getByRole('button', { name: 'Bestill og betal depositum' }).click();
  await page.waitForURL(/\/checkout\/cs_/);
  await shot('checkout');
}

describe('booking page deposits (browser)', function () {
  this.timeout(60_000);
  before(startBrowserStack);
  afterEach(closePages);

  it('when the customer pays the deposit on the provider page then the return page shows it paid and the booking confirmed', async function () {
    const salon = await depositSalon();
    const service = await (await knex())('services').where({ id: salon.serviceId }).first('name');
    const opened = await openPage(this);
    const { page, shot } = opened;
    await bookWithDeposit(opened, salon.tenant.slug, service.name);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/payments\/[0-9a-f-]+\/return/);
    await page.getByText('Timen: bekreftet av salongen.').waitFor({ timeout: 20_000 });
    await shot('return-paid');
    expect(await page.locator('#payment-status').innerText()).to.equal('Betalingen er mottatt.');
    expect(await page.locator('#payment-booking').innerText()).to.match(new RegExp(`^${service.name} · .+, \\d\\d:\\d\\d–\\d\\d:\\d\\d$`));
    // this browser made the booking: the return page links to its manage page
    await page.getByRole('link', { name: 'Lenke for å se eller avbestille timen' }).click();
    await page.waitForURL(/\/bookings\/[0-9a-f-]+\?token=/);
    await shot('manage');
    // the first free time is inside the salon's 24 hours: the page says what cancelling now would cost
    expect(await page.locator('main').innerText()).to.match(/Fristen for gratis avbestilling gikk ut .+ Salongen beholder da depositumet på 100\skr\./);
    expect(await page.getByRole('link', { name: 'Avbestill timen' }).count()).to.equal(0);
    const booking = await (await knex())('bookings').where({ tenantId: salon.tenant.id }).first();
    expect(booking).to.include({ status: 'CONFIRMED', depositStatus: 'PAID' });
  });

  it('when the payment is in but the platform has not yet confirmed the booking then the return page says only that the payment is received, never beside "waiting for the deposit", and names the service and time', async function () {
    const salon = await depositSalon();
    const service = await (await knex())('services').where({ id: salon.serviceId }).first('name');
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    await bookWithDeposit(opened, salon.tenant.slug, service.name);
    const booking = await (await knex())('bookings').where({ tenantId: salon.tenant.id }).first();
    const [payment] = await paymentRows(booking.id);
    // the moment between the provider's answer and the booking's workflow acting on it, held still
    await (await knex())('payments').where({ id: payment.id }).update({ status: 'CAPTURED' });
    await page.goto(`${baseUrl}/payments/${payment.id}/return`);
    await shot('return-settling');
    expect(await page.locator('#payment-status').innerText()).to.equal('Betalingen er mottatt.');
    const status = await page.getByRole('status').innerText();
    expect(status).to.not.match(/venter på at depositumet/i);
    expect(status).to.not.match(/^Timen:/m);
    const start = new Date(booking.startTime).toLocaleTimeString('nb-NO', { timeZone: 'Europe/Oslo', hour: '2-digit', minute: '2-digit' });
    expect(await page.locator('#payment-booking').innerText())
      .to.contain(service.name)
      .and.contain(`, ${start}–`);
    await page.goto(`${baseUrl}/payments/${payment.id}/return?lang=en`);
    expect(await page.getByRole('status').innerText()).to.not.match(/Waiting for the deposit/i);
  });

  it('when the card is declined then the return page says so and offers a retry, and paying on the retry confirms the booking, whose manage page offers the deposit back on cancelling', async function () {
    const salon = await depositSalon({ settings: { cancellationHours: 0 } });
    const service = await (await knex())('services').where({ id: salon.serviceId }).first('name');
    const opened = await openPage(this);
    const { page, shot } = opened;
    await bookWithDeposit(opened, salon.tenant.slug, service.name);
    await page.getByRole('button', { name: 'Decline (card refused)' }).click();
    await page.waitForURL(/\/payments\/[0-9a-f-]+\/return/);
    const retry = page.getByRole('button', { name: 'Prøv å betale igjen' });
    await retry.waitFor({ timeout: 20_000 });
    expect(await page.locator('#payment-status').innerText()).to.equal('Kortet ble avvist, og betalingen er ikke gjennomført.');
    expect(await page.locator('[role="status"]').innerText()).to.match(
      /Timen holdes av til deg til \S+ \d+\. \S+ kl\. \d\d:\d\d\. Prøv igjen før det; ellers blir timen avbestilt\./,
    );
    await shot('return-declined');
    await retry.click();
    await page.waitForURL(/\/checkout\/cs_/);
    await shot('checkout-again');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/payments\/[0-9a-f-]+\/return/);
    await page.getByText('Timen: bekreftet av salongen.').waitFor({ timeout: 20_000 });
    await shot('return-paid');
    await page.getByRole('link', { name: 'Lenke for å se eller avbestille timen' }).click();
    await page.waitForURL(/\/bookings\/[0-9a-f-]+\?token=/);
    expect(await page.locator('#cancel-terms').innerText()).to.match(/^Gratis avbestilling frem til .+ Depositumet på 100\skr betales tilbake\.$/);
    await shot('manage-refund');
    const booking = await (await knex())('bookings').where({ tenantId: salon.tenant.id }).first();
    const payments = await paymentRows(booking.id);
    expect(payments.map((p: { status: string }) => p.status)).to.deep.equal(['FAILED', 'CAPTURED']);
    expect(booking).to.include({ status: 'CONFIRMED', depositStatus: 'PAID' });
  });
  it('when the card is declined on every attempt then after the third the return page says the booking is cancelled, offers no retry and links to booking again', async function () {
    const salon = await depositSalon();
    const service = await (await knex())('services').where({ id: salon.serviceId }).first('name');
    const opened = await openPage(this);
    const { page, shot } = opened;
    await bookWithDeposit(opened, salon.tenant.slug, service.name);
    const retry = page.getByRole('button', { name: 'Prøv å betale igjen' });
    for (let attempt = 1; attempt <= 3; attempt++) {
      if (attempt > 1) {
        await retry.click();
        await page.waitForURL(/\/checkout\/cs_/);
      }
      await page.getByRole('button', { name: 'Decline (card refused)' }).click();
      await page.waitForURL(/\/payments\/[0-9a-f-]+\/return/);
      if (attempt < 3) await retry.waitFor({ timeout: 20_000 });
    }
    await page.getByText('Timen: avbestilt.').waitFor({ timeout: 20_000 });
    await shot('return-cancelled');
    expect(await page.locator('#payment-status').innerText()).to.equal('Betalingen er avvist for mange ganger, og timen er avbestilt.');
    expect(await retry.count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Bestill ny time' }).getAttribute('href')).to.equal(`/${salon.tenant.slug}`);
    const booking = await (await knex())('bookings').where({ tenantId: salon.tenant.id }).first();
    expect(booking.status).to.equal('CANCELLED');
    expect((await paymentRows(booking.id)).map((p: { status: string }) => p.status)).to.deep.equal(['FAILED', 'FAILED', 'FAILED']);
  });

  it('when the provider fails rather than the card then the return page says the provider did not answer and until when the time is held, and the manage page says the booking waits for its deposit, not for the salon', async function () {
    const salon = await depositSalon();
    const service = await (await knex())('services').where({ id: salon.serviceId }).first('name');
    const opened = await openPage(this);
    const { page, shot } = opened;
    await bookWithDeposit(opened, salon.tenant.slug, service.name);
    await page.getByRole('button', { name: 'Fail (provider error, try again)' }).click();
    await page.waitForURL(/\/payments\/[0-9a-f-]+\/return/);
    await page.getByRole('button', { name: 'Prøv å betale igjen' }).waitFor({ timeout: 20_000 });
    await shot('return-provider-error');
    expect(await page.locator('#payment-status').innerText()).to.equal(
      'Betalingsleverandøren svarte ikke, så betalingen ble ikke gjennomført. Kortet ditt er ikke belastet.',
    );
    expect(await page.locator('main').innerText()).to.not.contain('avvist');
    const booking = await (await knex())('bookings').where({ tenantId: salon.tenant.id }).first();
    const [failed] = await paymentRows(booking.id);
    const heldUntil = new Intl.DateTimeFormat('nb-NO', { timeZone: 'Europe/Oslo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(failed.expiresAt),
    );
    expect(new Date(failed.expiresAt).getTime() - new Date(failed.updatedAt).getTime(), 'held 30 minutes from the failure').to.be.within(
      29 * 60_000,
      30 * 60_000 + 5_000,
    );
    expect(await page.locator('[role="status"]').innerText())
      .to.contain(`kl. ${heldUntil}. Prøv igjen før det`)
      .and.contain('Timen: venter på at depositumet blir betalt.');

    const token = await page
      .context()
      .cookies()
      .then((all) => all.find((c) => c.name === `salon_bp_${booking.id}`)!.value);
    await page.goto(`${opened.baseUrl}/${salon.tenant.slug}/bookings/${booking.id}?token=${token}`);
    await shot('manage-unpaid');
    const card = await page.locator('.card dl').innerText();
    expect(card).to.contain('Venter på at depositumet blir betalt').and.not.contain('Venter på bekreftelse fra salongen');
    expect(await page.locator('main').innerText())
      .to.contain(`Depositumet på 100\u00a0kr er ikke betalt ennå. Timen holdes av til deg til`)
      .and.contain(`kl. ${heldUntil}`);
    await page.getByRole('link', { name: 'Betal depositumet' }).click();
    await page.waitForURL(/\/payments\/[0-9a-f-]+\/return/);
    await page.getByRole('button', { name: 'Prøv å betale igjen' }).click();
    await page.waitForURL(/\/checkout\/cs_/);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByText('Timen: bekreftet av salongen.').waitFor({ timeout: 20_000 });
  });

  it('when a paid booking is cancelled inside the free window then the cancelled page and the cancellation e-mail say the deposit is refunded, in kr', async function () {
    const salon = await depositSalon({ settings: { cancellationHours: 0 } });
    const service = await (await knex())('services').where({ id: salon.serviceId }).first('name');
    const opened = await openPage(this);
    const { page, shot } = opened;
    const email = `refund-${Date.now()}@example.test`;
    await page.goto(`${opened.baseUrl}/${salon.tenant.slug}`);
    await chooseUpToContact(opened, [service.name]);
    await page.getByLabel('Navn').fill('Kari Refusjon');
    await page.getByLabel('Mobilnummer').fill(randomPhone().typed);
    await page.getByLabel('E-post (valgfritt)').fill(email);
    await page.getByRole('button', { name: 'Bestill og betal depositum' }).click();
    await page.waitForURL(/\/checkout\/cs_/);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByText('Timen: bekreftet av salongen.').waitFor({ timeout: 20_000 });
    await page.getByRole('link', { name: 'Lenke for å se eller avbestille timen' }).click();
    await page.getByRole('link', { name: 'Avbestill timen' }).click();
    await page.getByRole('button', { name: 'Ja, avbestill timen' }).click();
    await page.waitForURL(/cancelled=1$/);
    await shot('cancelled');
    expect(await page.locator('[role="status"]').innerText())
      .to.contain('Timen er avbestilt.')
      .and.contain('Depositumet på 100\u00a0kr betales tilbake til deg.');
    const { platform } = await stack();
    const mail = await eventually(async () => (await platform.mailer.sentTo(email)).find((m) => m.meta?.kind === 'CANCELLED'), 'the cancellation e-mail');
    expect(mail.text).to.contain('Depositumet på 100 kr betales tilbake til deg').and.not.contain('NOK');
  });
});
