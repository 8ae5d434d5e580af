// The day of a busy salon in the front desk (docs/rules/front-desk.md#the-day), in Chromium: 10 staff,
// 6 rooms and stations and 200 bookings, every booking drawn (its phases, the stations' processing,
// the unassigned column), usable on a 1024x768 tablet and a 390 px phone, axe-clean; and a staff
// member's week. How fast it draws is npm run bench:desk's.
import { expect } from 'chai';
import { closeDesks, dayDrawn, deskSalon, openDesk, ownerBooks, signIn, startDeskStack } from './support';
import { knex, localDay } from '../../support/booking-fixtures';
import { scan } from '../support';
import { BUSY_BOOKINGS, BUSY_ROOMS, BUSY_STAFF, seedBusyDay } from '../../support/busy-day';

describe('the front desk: the day (Chromium)', function () {
  this.timeout(180_000);
  before(startDeskStack);
  afterEach(closeDesks);

  it('when a day of 10 staff, 6 rooms and 200 bookings is opened on a tablet and on a phone then every booking is drawn in its columns, marked, and axe finds nothing serious', async function () {
    const day = localDay(1);
    const busy = await seedBusyDay(await knex(), day);
    for (const phone of [false, true]) {
      const desk = await openDesk(this, { phone, name: phone ? 'phone' : 'tablet' });
      const { page, shot } = desk;
      await signIn(desk, busy.owner, `/desk?date=${day}`);
      await dayDrawn(page, day);
      await shot('day');
      const columns = await page.locator('section.col').count();
      expect(columns, 'a column per staff member, the unassigned ones and every room').to.equal(BUSY_STAFF + 1 + BUSY_ROOMS);
      const drawn = await page
        .locator('[data-booking]')
        .evaluateAll((buttons) => new Set(buttons.map((b) => (b as unknown as { dataset: { booking: string } }).dataset.booking)).size);
      expect(drawn).to.equal(BUSY_BOOKINGS);
      await page
        .getByRole('button', { name: /venter på godkjenning/ })
        .first()
        .waitFor();
      await page
        .getByRole('button', { name: /venter på depositum/ })
        .first()
        .waitFor();
      await page
        .getByRole('button', { name: /virketid .* behandler ledig/ })
        .first()
        .waitFor();
      // marked on the block itself too, not only in the words a screen reader reads
      await page.locator('[data-booking] .mark', { hasText: 'ikke lovet' }).first().waitFor();
      await page
        .locator('[data-booking] .mark', { hasText: /^dep\. / })
        .first()
        .waitFor();
      await page.getByRole('heading', { level: 3, name: 'Ikke tildelt' }).waitFor();
      // the page itself never scrolls sideways: the grid does
      const overflow = await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
        return doc.scrollWidth - doc.clientWidth;
      });
      expect(overflow, 'no sideways scrolling of the page').to.be.at.most(0);
      await page.locator('.grid-scroll').evaluate((el) => ((el as unknown as { scrollLeft: number }).scrollLeft = 400));
      await shot('day-scrolled');
      expect(await scan(page, phone ? 'phone day' : 'tablet day')).to.deep.equal([]);
      await page.getByRole('button', { name: /^08:00 Kunde 1-1/ }).click();
      await page
        .getByRole('dialog')
        .getByRole('heading', { level: 2, name: /^Time / })
        .waitFor();
      await page.getByRole('dialog').getByText('Kunde 1-1').first().waitFor();
      await shot('card');
      expect(await scan(page, phone ? 'phone card' : 'tablet card')).to.deep.equal([]);
      await closeDesks();
    }
  });

  it("when the browser is in another time zone and language then the day's times and prices are still the salon's, and the desk says so", async function () {
    const s = await deskSalon();
    const day = localDay(2);
    await ownerBooks(s, { day, time: '10:00', name: 'Sone Kunde' });
    const desk = await openDesk(this, { timezoneId: 'America/New_York', locale: 'en-US' });
    const { page, shot } = desk;
    await signIn(desk, s.owner, `/desk?date=${day}`);
    await dayDrawn(page, day);
    await page.getByText('Merk: tidene vises i salongens tidssone (Europe/Oslo), ikke i din (America/New_York).').waitFor();
    // 10:00 in Oslo is 04:00 (or 05:00) in New York: the block says the salon's time
    await page.getByRole('button', { name: /^10:00 Sone Kunde/ }).click();
    const card = page.getByRole('dialog');
    await card.getByRole('heading', { level: 2, name: /^Time .* kl\. 10:00$/ }).waitFor();
    const price = (await card.locator('td.num').last().textContent())!.replace(/\s/g, ' ');
    expect(price, "the salon's currency, written the Norwegian way").to.match(/^\d[\d ]*(,\d{2})? kr$/);
    await shot('other-zone');
  });

  it("when the owner opens a stylist's week then the seven days show that stylist's bookings, time-off and closed days", async function () {
    const s = await deskSalon();
    const monday = localDay(7);
    const db = await knex();
    await ownerBooks(s, { day: monday, time: '10:00', name: 'Uke Mandag' });
    await db('time_offs').insert({
      tenantId: s.tenant.id,
      resourceId: s.stylists[0].resourceId,
      type: 'vacation',
      startDate: monday,
      endDate: monday,
      startTime: '13:00',
      endTime: '15:00',
      isApproved: true,
    });
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, s.owner, `/desk?view=week&date=${monday}&staff=${s.stylists[0].resourceId}`);
    await page.getByRole('heading', { level: 2, name: new RegExp(`^Uke: Ingrid ${s.tag}`) }).waitFor();
    await page.getByRole('button', { name: /Uke Mandag/ }).waitFor();
    expect(await page.locator('section.col').count()).to.equal(7);
    await page.getByText(/fri 13:00–15:00/).waitFor();
    await shot('week');
    expect(await scan(page, 'week')).to.deep.equal([]);
  });
});
