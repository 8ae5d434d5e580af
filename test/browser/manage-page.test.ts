// The customer's manage page, reached as the customer reaches it: from the link in the booking's
// e-mail: cancelling, and moving the appointment to another time.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { chooseUpToContact, closePages, openPage, pageSalon, randomPhone, scan, startBrowserStack, waitForFocus } from './support';
import { stack } from '../support/stack';
import { call } from '../support/http';
import { eventually } from '../support/eventually';
import { at, knex, localDay } from '../support/booking-fixtures';

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
    // cancelling takes a second step: the first only asks, and "Nei" keeps the appointment
    await page.getByRole('link', { name: 'Avbestill timen' }).click();
    await page.getByText(/^Vil du avbestille timen .+, \d\d:\d\d\?$/).waitFor();
    await shot('cancel-question');
    expect(await scan(page, 'the cancel question')).to.deep.equal([]);
    await page.getByRole('link', { name: 'Nei, behold timen' }).click();
    await page.getByRole('link', { name: 'Avbestill timen' }).waitFor();
    expect((await (await knex())('bookings').where({ tenantId: salon.tenant.id }).first()).status, 'asking cancels nothing').to.equal('CONFIRMED');
    // by keyboard: Enter on the link, the question has the focus, Tab to the reason, then to "Ja"
    await page.getByRole('link', { name: 'Avbestill timen' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Ja, avbestill timen' }).waitFor();
    await waitForFocus(page.locator('#cancel-question'));
    await page.keyboard.press('Tab');
    await waitForFocus(page.getByLabel('Årsak (valgfritt)'));
    await page.keyboard.type('Blitt syk');
    await page.keyboard.press('Tab');
    await waitForFocus(page.getByRole('button', { name: 'Ja, avbestill timen' }));
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Timen er avbestilt.').waitFor();
    await shot('cancelled');
    expect(await page.getByRole('link', { name: 'Avbestill timen' }).count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Bestill ny time' }).getAttribute('href')).to.equal(`/${salon.tenant.slug}`);
    const booking = await (await knex())('bookings').where({ tenantId: salon.tenant.id }).first();
    expect(booking).to.include({ status: 'CANCELLED', cancelledBy: 'CUSTOMER', cancelReason: 'Blitt syk' });
  });

  it('when the customer presses "Jeg lover å komme" on the manage page then their promise to come is recorded by link and the page says so, beside the status the salon set', async function () {
    const salon = await pageSalon({ settings: { cancellationHours: 0 } });
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    const email = `promise-${crypto.randomUUID()}@example.test`;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await chooseUpToContact(opened, [salon.services[0].name]);
    await page.getByLabel('Navn').fill('Kari Kommer');
    await page.getByLabel('Mobilnummer').fill(randomPhone().typed);
    await page.getByLabel('E-post (valgfritt)').fill(email);
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/new=1$/);

    const { platform } = await stack();
    const mail = await eventually(
      async () => (await platform.mailer.sentTo(email)).find((m) => m.meta?.kind === 'RECEIVED' || m.meta?.kind === 'CONFIRMED'),
      'the booking e-mail',
    );
    await page.goto(/(http:\/\/\S+\/bookings\/\S+)/.exec(mail.text)![1]);
    expect(await page.locator('#promise-prompt').innerText()).to.equal('Lover du å komme, vet salongen at timen er din.');
    await page.getByRole('button', { name: 'Jeg lover å komme' }).click();
    await page.waitForURL(/promised=1$/);
    await page.locator('#promised-note').getByText('Du har lovet å komme. Takk!').waitFor();
    await shot('promised');
    expect(await page.getByRole('button', { name: 'Jeg lover å komme' }).count()).to.equal(0);
    // the customer's promise is not the salon's confirmation: the page uses the salon's word only for the salon
    expect(await page.locator('main').innerText()).to.not.match(/har bekreftet/);
    // cancelling is still offered after promising
    expect(await page.getByRole('link', { name: 'Avbestill timen' }).count()).to.equal(1);
    const booking = await (await knex())('bookings').where({ tenantId: salon.tenant.id }).first();
    expect(booking.promisedVia).to.equal('LINK');
    expect(booking.promisedAt).to.be.an.instanceOf(Date);
  });
});

describe('manage page: moving the appointment (browser)', function () {
  this.timeout(90_000);
  before(startBrowserStack);
  afterEach(closePages);

  /** A guest booking made through the public API, and the manage link of its confirmation e-mail. */
  async function bookedWithLink(salon: Awaited<ReturnType<typeof pageSalon>>, day: string, time: string) {
    const email = `move-${crypto.randomUUID()}@example.test`;
    const created = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: at(day, time),
      items: [{ serviceId: salon.services[0].id, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Mona Flytter', phone: randomPhone().stored, email },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const { platform } = await stack();
    const mail = await eventually(async () => (await platform.mailer.sentTo(email)).find((m) => m.meta?.kind === 'CONFIRMED'), 'the confirmation e-mail');
    return { id: created.body.data.id as string, email, link: /(http:\/\/\S+\/bookings\/\S+)/.exec(mail.text)![1] };
  }

  it('when the customer picks another day and time on the manage page then the booking moves there, the page says so, and the e-mail about the move carries the new time', async function () {
    const salon = await pageSalon({ settings: { cancellationHours: 24 } });
    const from = localDay(3);
    const to = localDay(4);
    const booked = await bookedWithLink(salon, from, '10:00');
    const opened = await openPage(this);
    const { page, shot } = opened;
    await page.goto(booked.link);
    const section = page.locator('section.move');
    expect(await section.locator('#move-terms').innerText()).to.match(/^Du kan flytte timen til et annet tidspunkt frem til .+\.$/);
    await page.getByRole('link', { name: 'Velg et annet tidspunkt' }).click();
    await page.getByRole('heading', { level: 3, name: /^Ledige tider / }).waitFor();
    await shot('move-week');
    expect(await scan(page, 'the move week')).to.deep.equal([]);
    await section.locator(`a.day[href*="date=${to}"]`).click();
    await page.getByRole('heading', { level: 3, name: /^Ledige tider / }).waitFor();
    await section.getByLabel('14:00').check();
    await shot('move-time');
    await section.getByRole('button', { name: 'Flytt timen hit' }).click();
    await page.getByRole('status').getByText('Timen er flyttet.').waitFor();
    await shot('moved');
    expect(page.url()).to.match(/moved=1/);
    expect(await page.locator('dl').first().innerText()).to.contain('14:00–15:00');

    const row = await (await knex())('bookings').where({ id: booked.id }).first();
    expect(row.startTime.toISOString()).to.equal(at(to, '14:00'));
    const { platform } = await stack();
    const moved = await eventually(
      async () => (await platform.mailer.sentTo(booked.email)).find((m) => m.meta?.kind === 'RESCHEDULED'),
      'the e-mail about the move',
    );
    expect(moved.text).to.contain('kl. 14:00–15:00');
  });

  it('when the time the customer chose was taken meanwhile then the page says so and shows the times again; the booking stays', async function () {
    const salon = await pageSalon({ settings: { cancellationHours: 24 } });
    const day = localDay(3);
    const booked = await bookedWithLink(salon, day, '10:00');
    const opened = await openPage(this);
    const { page } = opened;
    await page.goto(`${booked.link}&move=1&date=${day}`);
    const section = page.locator('section.move');
    await section.getByLabel('13:00').check();
    const taken = await call('post', '/bookings', salon.owner.token, {
      startTime: at(day, '13:00'),
      items: [{ serviceId: salon.services[0].id, resourceId: salon.staff[0].resourceId }],
    });
    expect(taken.status).to.equal(201);
    await section.getByRole('button', { name: 'Flytt timen hit' }).click();
    await section.getByRole('alert').getByText('Tiden ble nettopp tatt av noen andre. Velg en annen tid.').waitFor();
    expect(await section.getByLabel('13:00').count(), 'the taken time is gone').to.equal(0);
    const row = await (await knex())('bookings').where({ id: booked.id }).first();
    expect(row.startTime.toISOString()).to.equal(at(day, '10:00'));
  });

  it('when less than cancellationHours remain before the start then the page offers no move and says to contact the salon', async function () {
    const salon = await pageSalon({ settings: { cancellationHours: 72 } });
    const booked = await bookedWithLink(salon, localDay(2), '10:00');
    const opened = await openPage(this);
    const { page, shot } = opened;
    await page.goto(booked.link);
    await shot('move-closed');
    const section = page.locator('section.move');
    expect(await section.innerText()).to.match(/Fristen for å flytte timen på nett gikk ut .+\. Kontakt salongen hvis du må flytte den\./);
    expect(await page.getByRole('link', { name: 'Velg et annet tidspunkt' }).count()).to.equal(0);
    await page.goto(`${booked.link}&move=1`);
    expect(await page.getByRole('button', { name: 'Flytt timen hit' }).count()).to.equal(0);
  });

  it('when free cancellation has ended at a salon with a contact phone and e-mail then the manage page gives them as tel: and mailto: links where it says to contact the salon (nb and en)', async function () {
    const salon = await pageSalon({ settings: { cancellationHours: 72 } });
    await call('patch', `/tenants/${salon.tenant.id}`, salon.owner.token, { contactPhone: '22 33 44 55', contactEmail: 'Post@Salong.test' });
    const booked = await bookedWithLink(salon, localDay(2), '10:00');
    const { page, shot } = await openPage(this);
    await page.goto(booked.link);
    await shot('contact-after-window');
    const cancel = page.locator('section[aria-labelledby="cancel-heading"]');
    expect(await cancel.innerText()).to.match(/Kontakt salongen hvis du må avbestille\.\s+Telefon: \+47 22 33 44 55 · E-post: post@salong\.test/);
    expect(await cancel.getByRole('link', { name: '+47 22 33 44 55' }).getAttribute('href')).to.equal('tel:+4722334455');
    expect(await cancel.getByRole('link', { name: 'post@salong.test' }).getAttribute('href')).to.equal('mailto:post@salong.test');
    expect(await page.locator('section.move').getByRole('link', { name: '+47 22 33 44 55' }).count()).to.equal(1);
    expect(await page.locator('footer').getByRole('link', { name: '+47 22 33 44 55' }).count(), 'and in the footer of every page').to.equal(1);
    await page.goto(`${booked.link}&lang=en`);
    expect(await page.locator('section[aria-labelledby="cancel-heading"]').innerText()).to.contain('Phone: +47 22 33 44 55 · E-mail: post@salong.test');
  });
});
