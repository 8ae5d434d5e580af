// Running bookings from the front desk (docs/rules/front-desk.md), in Chromium: a phone booking for a
// customer found by phone and for a new one, a walk-in in one step, a drag-move refused by a
// conflict (said in words) and then done, a move by the keyboard and by the time picker, and the
// status path to completed with its loyalty stamp; the customer gets the messages they get today.
import { expect } from 'chai';
import { closeDesks, dayDrawn, deskSalon, openDesk, ownerBooks, signIn, startDeskStack, type OpenedDesk } from './support';
import { at, knex, localDay } from '../../support/booking-fixtures';
import { call } from '../../support/http';
import { eventually } from '../../support/eventually';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { appOnClock, stack } from '../../support/stack';
import { uniquePhone } from '../../support/factories';

async function bookingOf(id: string) {
  return (await knex())('bookings').where({ id }).first();
}

async function blockBox(desk: OpenedDesk, name: RegExp) {
  const box = await desk.page.getByRole('button', { name }).first().boundingBox();
  expect(box, `the block ${name}`).to.not.equal(null);
  return box!;
}

describe('the front desk: bookings (Chromium)', function () {
  this.timeout(180_000);
  before(startDeskStack);
  afterEach(closeDesks);

  it('when the receptionist books by phone for a customer found by phone, and for a new customer, then the bookings are made at the free times chosen, and the day shows them', async function () {
    const s = await deskSalon();
    const day = localDay(2);
    const phone = uniquePhone();
    const known = await call('post', '/customers', s.owner.token, { name: 'Kjent Kunde', phone });
    expect(known.status).to.equal(201);
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, s.owner, `/desk?date=${day}`);
    await dayDrawn(page, day);

    await page.getByRole('button', { name: 'Ny time' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ny time på telefon' });
    await dialog.getByLabel('Finn kunde (navn eller telefon)').fill(phone.slice(3));
    await dialog.getByRole('button', { name: new RegExp(`^Kjent Kunde, \\${phone}`) }).click();
    await dialog.getByText('Valgt kunde: Kjent Kunde').waitFor();
    await dialog.getByLabel(new RegExp(`^${s.cut.name}`)).check();
    await dialog.getByLabel('Behandler').selectOption({ label: `Lars ${s.tag}` });
    await dialog.getByRole('radio', { name: '10:00' }).check();
    await shot('phone-booking');
    await dialog.getByRole('button', { name: 'Bestill' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Timen er bestilt/ })
      .waitFor();
    await page.getByRole('button', { name: /^10:00 Kjent Kunde/ }).waitFor();
    const made = await (await knex())('bookings').where({ tenantId: s.tenant.id, customerId: known.body.data.id }).first();
    expect(made).to.include({ status: 'CONFIRMED', source: 'PHONE', resourceId: s.stylists[1].resourceId });
    expect(new Date(made.startTime).toISOString()).to.equal(at(day, '10:00'));

    await page.getByRole('button', { name: 'Ny time' }).click();
    const second = page.getByRole('dialog', { name: 'Ny time på telefon' });
    await second.getByLabel('Ny kunde').check();
    const newPhone = uniquePhone();
    await second.getByLabel('Navn', { exact: true }).fill('Helt Ny');
    await second.getByLabel('Mobilnummer').fill(newPhone);
    await second.getByLabel(new RegExp(`^${s.colour.name}`)).check();
    await second.getByRole('radio', { name: '13:00' }).check();
    await second.getByRole('button', { name: 'Bestill' }).click();
    await page
      .getByRole('button', { name: /^13:00 Helt Ny/ })
      .first()
      .waitFor();
    await shot('day-with-bookings');
    const created = await (await knex())('customers').where({ tenantId: s.tenant.id, phone: newPhone }).first();
    expect(created.name).to.equal('Helt Ny');
  });

  it('when a walk-in is registered in one step then it is in progress now, with the staff member chosen', async function () {
    const s = await deskSalon();
    const today = localDay(0);
    // the platform's clock at noon, when the salon is open, whenever the test runs
    const { app } = await appOnClock(new Date(at(today, '12:00')));
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const desk = await openDesk(this, { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    const { page, shot } = desk;
    await signIn(desk, s.owner);
    await dayDrawn(page, today);
    await page.getByRole('button', { name: 'Drop-in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Drop-in nå' });
    await dialog.getByLabel(new RegExp(`^${s.cut.name}`)).check();
    await dialog.getByLabel('Behandler').selectOption({ label: `Ingrid ${s.tag}` });
    await shot('walk-in');
    await dialog.getByRole('button', { name: 'Registrer drop-in' }).click();
    await page.getByRole('status').filter({ hasText: 'Drop-in registrert.' }).waitFor();
    const walkIn = await (await knex())('bookings').where({ tenantId: s.tenant.id, source: 'WALK_IN' }).first();
    expect(walkIn).to.include({ status: 'IN_PROGRESS', resourceId: s.stylists[0].resourceId });
    expect(new Date(walkIn.startTime).toISOString()).to.equal(at(today, '12:00'));
    await page.getByRole('button', { name: /^12:00/ }).waitFor();
    await closeDesks();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('when a booking is dragged onto a taken time then the move is refused in words and it stays; dragged to a free time or to another stylist it moves, and the customer is told of the move', async function () {
    const s = await deskSalon({ slotIntervalMinutes: 15 });
    const day = localDay(3);
    const mover = await ownerBooks(s, { day, time: '10:00', staff: 0, name: 'Flytte Kunde' });
    await ownerBooks(s, { day, time: '11:00', staff: 0, name: 'Fast Kunde' });
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, s.owner, `/desk?date=${day}`);
    await dayDrawn(page, day);
    // the tablet's 768 px end near 14:00: the receptionist scrolls down to see the afternoon they drag to
    // (a press below the window reaches nothing, and the drop at 14:00 would be on its edge)
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await page.waitForFunction('window.scrollY > 0');
    const from = await blockBox(desk, /^10:00 Flytte Kunde/);
    const taken = await blockBox(desk, /^11:00 Fast Kunde/);
    const drag = async (to: { x: number; y: number }) => {
      await page.mouse.move(from.x + from.width / 2, from.y + 10);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2 + 5, from.y + 20, { steps: 3 });
      await page.mouse.move(to.x, to.y, { steps: 8 });
      await shot('dragging');
      await page.mouse.up();
    };
    await drag({ x: from.x + from.width / 2, y: taken.y + 10 });
    await page.getByRole('alert').filter({ hasText: 'Timen ble ikke flyttet: tiden er opptatt' }).waitFor();
    await shot('refused');
    expect(new Date((await bookingOf(mover)).startTime).toISOString()).to.equal(at(day, '10:00'));

    // 14:00 is four hours below 10:00 (1.4 px a minute)
    const again = await blockBox(desk, /^10:00 Flytte Kunde/);
    expect(again.y, 'nothing above the grid moved').to.equal(from.y);
    await drag({ x: from.x + from.width / 2, y: from.y + 10 + 4 * 60 * 1.4 });
    await page
      .getByRole('status')
      .filter({ hasText: `Timen er flyttet til 14:00 hos Ingrid ${s.tag}` })
      .waitFor();
    await page.getByRole('button', { name: /^14:00 Flytte Kunde/ }).waitFor();
    await shot('moved');
    const moved = await bookingOf(mover);
    expect(new Date(moved.startTime).toISOString()).to.equal(at(day, '14:00'));
    const { sms } = await stack();
    await eventually(
      async () => (await sms.sentTo(moved.contactPhone)).some((m: { meta?: { kind?: string } }) => m.meta?.kind === 'RESCHEDULED'),
      'the move message to the customer',
    );

    // to the other stylist's column, same time
    const now = await blockBox(desk, /^14:00 Flytte Kunde/);
    const lars = await page.getByRole('heading', { level: 3, name: `Lars ${s.tag}` }).boundingBox();
    await page.mouse.move(now.x + now.width / 2, now.y + 10);
    await page.mouse.down();
    await page.mouse.move(now.x + now.width / 2 + 10, now.y + 12, { steps: 3 });
    await page.mouse.move(lars!.x + lars!.width / 2, now.y + 10, { steps: 8 });
    await page.mouse.up();
    await page
      .getByRole('status')
      .filter({ hasText: `Timen er flyttet til 14:00 hos Lars ${s.tag}` })
      .waitFor();
    expect((await bookingOf(mover)).resourceId).to.equal(s.stylists[1].resourceId);
  });

  it('when a booking is moved with the keyboard (M, the arrow keys, Enter) and with the time picker of its card then it moves there, and Esc leaves it', async function () {
    const s = await deskSalon({ slotIntervalMinutes: 15 });
    const day = localDay(3);
    const id = await ownerBooks(s, { day, time: '10:00', staff: 0, name: 'Tast Kunde' });
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, s.owner, `/desk?date=${day}`);
    await dayDrawn(page, day);
    const block = page.getByRole('button', { name: /^10:00 Tast Kunde/ });
    await block.focus();
    await page.keyboard.press('m');
    await page
      .getByRole('status')
      .filter({ hasText: `Flytter Tast Kunde: 10:00 hos Ingrid ${s.tag}` })
      .waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await page
      .getByRole('status')
      .filter({ hasText: `Flytter Tast Kunde: 10:30 hos Lars ${s.tag}` })
      .waitFor();
    await shot('keyboard-move');
    await page.keyboard.press('Escape');
    await page.getByRole('status').filter({ hasText: 'Flyttingen er avbrutt.' }).waitFor();
    await block.focus();
    await page.keyboard.press('m');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: `Timen er flyttet til 10:30 hos Lars ${s.tag}` })
      .waitFor();
    let row = await bookingOf(id);
    expect(new Date(row.startTime).toISOString()).to.equal(at(day, '10:30'));
    expect(row.resourceId).to.equal(s.stylists[1].resourceId);

    // the card's time picker, by keyboard only
    await page.getByRole('button', { name: /^10:30 Tast Kunde/ }).focus();
    await page.keyboard.press('Enter');
    const card = page.getByRole('dialog');
    await card.getByRole('button', { name: 'Flytt …' }).focus();
    await page.keyboard.press('Enter');
    await card.getByRole('button', { name: /^Flytt hit: .* kl\. 15:00$/ }).focus();
    await shot('time-picker');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: /Timen er flyttet til .* kl\. 15:00/ })
      .waitFor();
    row = await bookingOf(id);
    expect(new Date(row.startTime).toISOString()).to.equal(at(day, '15:00'));
  });

  it('when a booking goes ARRIVED, IN_PROGRESS and COMPLETED from its card then only the allowed buttons show at each step, and the completed visit gives the customer a stamp on the card', async function () {
    const s = await deskSalon();
    const card = await call('post', '/loyalty-cards', s.owner.token, {
      name: 'Stempelkort',
      type: 'VISIT_BASED',
      requiredStamps: 5,
      rewardType: 'DISCOUNT_AMOUNT',
      rewardValue: 10000,
    });
    expect(card.status, JSON.stringify(card.body)).to.equal(201);
    // yesterday's visit, so it has begun whenever the test runs
    const yesterday = localDay(-1);
    const id = await ownerBooks(s, { day: yesterday, time: '09:00', staff: 0, name: 'Stempel Kunde' });
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, s.owner, `/desk?date=${yesterday}`);
    await dayDrawn(page, yesterday);
    await page.getByRole('button', { name: /Stempel Kunde/ }).click();
    const dialog = page.getByRole('dialog');
    const actions = async () => (await dialog.locator('.buttons').first().getByRole('button').allTextContents()).map((x) => x.trim());
    await dialog.getByRole('button', { name: 'Ankommet' }).waitFor();
    expect(await actions()).to.deep.equal(['Ankommet', 'Start', 'Ikke møtt', 'Flytt …', 'Avbestill …']);
    await dialog.getByRole('button', { name: 'Ankommet' }).click();
    await dialog.getByRole('button', { name: 'Ankommet' }).waitFor({ state: 'detached' });
    expect(await actions()).to.deep.equal(['Start', 'Ikke møtt', 'Flytt …', 'Avbestill …']);
    await dialog.getByRole('button', { name: 'Start' }).click();
    await dialog.getByRole('button', { name: 'Start' }).waitFor({ state: 'detached' });
    expect(await actions()).to.deep.equal(['Fullført', 'Avbestill …']);
    await shot('in-progress');
    await dialog.getByRole('button', { name: 'Fullført' }).click();
    await dialog.getByText('Fullført', { exact: true }).first().waitFor();
    await dialog.getByText(/status Pågår → Fullført/).waitFor();
    expect(await dialog.locator('.buttons').first().getByRole('button').count()).to.equal(0);
    expect((await bookingOf(id)).status).to.equal('COMPLETED');
    await dialog.getByRole('button', { name: 'Lukk' }).click();
    await page.getByRole('link', { name: 'Kunder' }).click();
    await page.getByLabel('Søk etter kunde').fill('Stempel');
    await page.getByRole('button', { name: /^Stempel Kunde/ }).click();
    await eventually(async () => {
      if (await page.getByText('Stempelkort: 1 av 5 stempler').isVisible()) return true;
      await page.getByRole('button', { name: /^Stempel Kunde/ }).click();
      return false;
    }, 'the stamp on the customer card');
    await shot('stamp');
  });

  it('when the receptionist cancels with the refund preview and a reason then the booking is cancelled by the salon with that reason, and it leaves the day', async function () {
    const s = await deskSalon();
    const day = localDay(2);
    const id = await ownerBooks(s, { day, time: '12:00', staff: 0, name: 'Avlyst Kunde' });
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, s.owner, `/desk?date=${day}`);
    await dayDrawn(page, day);
    await page.getByRole('button', { name: /Avlyst Kunde/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Avbestill …' }).click();
    await dialog.getByText('Ingen depositum: ingenting refunderes, ingen avgift.').waitFor();
    await dialog.getByLabel('Årsak (valgfritt)').fill('Behandler syk');
    await shot('cancel-preview');
    await dialog.getByRole('button', { name: 'Avbestill timen' }).click();
    await dialog.getByText(/avbestilt \(Behandler syk\)/).waitFor();
    const row = await bookingOf(id);
    expect(row).to.include({ status: 'CANCELLED', cancelledBy: 'SALON', cancelReason: 'Behandler syk' });
    await dialog.getByRole('button', { name: 'Lukk' }).click();
    await page.getByRole('button', { name: /Avlyst Kunde/ }).waitFor({ state: 'detached' });
  });
});
