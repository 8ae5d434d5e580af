// The live day (docs/rules/front-desk.md#live-updates), in Chromium: with the desk open and nothing
// touched, a customer's booking, move, confirmation (the manage page, a "JA" by SMS) and cancellation
// each show within 5 seconds, and two receptionists see each other's changes. The 5 seconds are the
// front desk's promise.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { closeDesks, dayDrawn, deskSalon, openDesk, ownerBooks, signIn, startDeskStack } from './support';
import { at, knex, localDay } from '../../support/booking-fixtures';
import { call, http } from '../../support/http';
import { TEST_SMS_REPLY_SECRET } from '../../support/stack';
import { createUser, uniquePhone } from '../../support/factories';

const WITHIN = 5000;

describe('the front desk: live updates (Chromium)', function () {
  this.timeout(120_000);
  before(startDeskStack);
  afterEach(closeDesks);

  it('when a customer books, moves, promises to come and cancels on the public side then the open day shows each within 5 seconds, without a reload', async function () {
    const s = await deskSalon({ autoConfirm: true });
    const day = localDay(2);
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, s.owner, `/desk?date=${day}`);
    await dayDrawn(page, day);
    await page.getByText('Oppdateres fortløpende').waitFor();
    let loads = 0;
    page.on('framenavigated', () => (loads += 1));

    const booked = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
      startTime: at(day, '10:00'),
      items: [{ serviceId: s.cut.id, resourceId: s.stylists[0].resourceId }],
      customer: { name: 'Nett Kunde', phone: uniquePhone() },
    });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    const { id, manageToken: token } = booked.body.data;
    await page.getByRole('button', { name: /^10:00 Nett Kunde .*kunden har ikke lovet å komme/ }).waitFor({ timeout: WITHIN });
    await shot('booked');

    const moved = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${id}/move`, undefined, { startTime: at(day, '13:00'), token });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    await page.getByRole('button', { name: /^13:00 Nett Kunde/ }).waitFor({ timeout: WITHIN });
    await shot('moved');

    const promised = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${id}/promise`, undefined, { token });
    expect(promised.status, JSON.stringify(promised.body)).to.equal(200);
    await page.getByRole('button', { name: /^13:00 Nett Kunde .*kunden har lovet å komme/ }).waitFor({ timeout: WITHIN });

    const cancelled = await call('post', `/public/tenants/${s.tenant.slug}/bookings/${id}/cancel`, undefined, { token });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    await page.getByRole('button', { name: /Nett Kunde/ }).waitFor({ state: 'detached', timeout: WITHIN });
    await shot('cancelled');
    expect(loads, 'no reload').to.equal(0);
  });

  it('when a reminded customer replies JA by SMS then the open day shows that the customer promised to come within 5 seconds', async function () {
    const s = await deskSalon({ autoConfirm: true });
    const day = localDay(2);
    const national = String(crypto.randomInt(40000000, 49999999));
    const booked = await call('post', `/public/tenants/${s.tenant.slug}/bookings`, undefined, {
      startTime: at(day, '11:00'),
      items: [{ serviceId: s.cut.id, resourceId: s.stylists[0].resourceId }],
      customer: { name: 'Svar Kunde', phone: `+47${national}` },
    });
    expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
    // the reminder as its workflow leaves it once sent (the row its delivery claims), so a reply answers it
    await (
      await knex()
    )('booking_notifications').insert({
      bookingId: booked.body.data.id,
      tenantId: s.tenant.id,
      kind: 'REMINDER',
      channel: 'SMS',
      dedupeKey: `REMINDER:${crypto.randomUUID()}`,
      sentAt: new Date(),
    });
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, s.owner, `/desk?date=${day}`);
    await dayDrawn(page, day);
    await page.getByRole('button', { name: /^11:00 Svar Kunde .*kunden har ikke lovet å komme/ }).waitFor();
    const form = new URLSearchParams({ number: `47${national}`, msg: 'JA', id: crypto.randomUUID(), key: TEST_SMS_REPLY_SECRET });
    const reply = await (await http()).post('/api/webhooks/sms/sveve').set('content-type', 'application/x-www-form-urlencoded').send(form.toString());
    expect(reply.body.data, JSON.stringify(reply.body)).to.include({ outcome: 'CONFIRMED', bookingId: booked.body.data.id });
    await page.getByRole('button', { name: /^11:00 Svar Kunde .*kunden har lovet å komme/ }).waitFor({ timeout: WITHIN });
    await shot('confirmed-by-sms');
  });

  it("when one receptionist moves and books then the other receptionist's open day shows it within 5 seconds", async function () {
    const s = await deskSalon();
    const day = localDay(2);
    const second = await createUser(s.tenant.id, 'OWNER', { name: 'Resepsjonist To' });
    const id = await ownerBooks(s, { day, time: '10:00', staff: 0, name: 'Delt Kunde' });
    const one = await openDesk(this, { name: 'one' });
    const two = await openDesk(this, { name: 'two' });
    await signIn(one, s.owner, `/desk?date=${day}`);
    await signIn(two, second, `/desk?date=${day}`);
    await dayDrawn(one.page, day);
    await dayDrawn(two.page, day);

    // the first moves it in its card
    await one.page.getByRole('button', { name: /^10:00 Delt Kunde/ }).click();
    const card = one.page.getByRole('dialog');
    await card.getByRole('button', { name: 'Flytt …' }).click();
    await card.getByRole('button', { name: /^Flytt hit: .* kl\. 15:00$/ }).click();
    await one.page
      .getByRole('status')
      .filter({ hasText: /Timen er flyttet til .* kl\. 15:00/ })
      .waitFor();
    await two.page.getByRole('button', { name: /^15:00 Delt Kunde/ }).waitFor({ timeout: WITHIN });
    await two.shot('sees-the-move');

    // the second books by phone; the first sees it
    await two.page.getByRole('button', { name: 'Ny time' }).click();
    const dialog = two.page.getByRole('dialog', { name: 'Ny time på telefon' });
    await dialog.getByLabel('Ny kunde').check();
    await dialog.getByLabel('Navn', { exact: true }).fill('Annen Kunde');
    await dialog.getByLabel('Mobilnummer').fill(uniquePhone());
    await dialog.getByLabel(new RegExp(s.cut.name)).check();
    await dialog.getByLabel('Behandler').selectOption({ label: `Lars ${s.tag}` });
    await dialog.getByRole('radio', { name: '11:00' }).check();
    await dialog.getByRole('button', { name: 'Bestill' }).click();
    await one.page.getByRole('button', { name: /^11:00 Annen Kunde/ }).waitFor({ timeout: WITHIN });
    await one.shot('sees-the-booking');
    expect(id).to.be.a('string');
  });
});
