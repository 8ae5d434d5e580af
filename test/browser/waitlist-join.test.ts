// Joining the waitlist from the booking page (docs/rules/booking-page.md#the-waitlist): from a full
// day, or from a staff member with nothing free ahead, on both page versions; the customer gets a
// message with a link, and on that link sees the entry and leaves it. In Chromium.
import { expect } from 'chai';
import { stack } from '../support/stack';
import { knex, localDay } from '../support/booking-fixtures';
import { eventually } from '../support/eventually';
import { addDays } from '../../web/shared/format';
import { closePages, fillDay, NEXT, openPage, pageSalon, randomPhone, scan, startBrowserStack, useBookingUi } from './support';

describe('joining the waitlist from the booking page (browser)', function () {
  this.timeout(90_000);
  before(startBrowserStack);
  afterEach(closePages);
  after(() => useBookingUi('v2'));

  for (const version of ['v2', 'v1'] as const) {
    it(`when a day is full then the customer joins its waitlist there, gets a message with a link, and on that link sees the entry and leaves it (${version})`, async function () {
      await useBookingUi(version);
      const salon = await pageSalon({ settings: { maxBookingDaysInAdvance: 30 } });
      const full = localDay(2);
      await fillDay(salon, full);
      const { sms } = await stack();
      // v1 sends no script: the browser runs JavaScript only for the axe scan
      const opened = await openPage(this, { phone: true });
      const { page, shot, baseUrl } = opened;
      await page.goto(`${baseUrl}/${salon.tenant.slug}`);
      await page.getByLabel(salon.services[0].name).check();
      await page.getByRole('button', NEXT).click();
      await page.getByRole('button', NEXT).click();
      await page.getByRole('heading', { level: 2, name: 'Velg dag og tid' }).waitFor();
      const day = page.locator(`.days [aria-describedby="day-${full}"]`);
      // the week's days are drawn after their availability loads: count them only once they are there
      await page.locator('.days [aria-describedby]').first().waitFor();
      if (!(await day.count())) await page.getByRole(version === 'v2' ? 'button' : 'link', { name: /Neste uke/ }).click();
      await day.click();
      await page.getByText('Alle tidene denne dagen er tatt.').waitFor();
      await page.getByRole('heading', { level: 3, name: 'Sett deg på ventelisten' }).waitFor();
      await shot('full-day');
      expect(await scan(page, `${version} full day`)).to.deep.equal([]);
      const phone = randomPhone();
      await page.getByLabel('Navn').fill('Vera Venter');
      await page.getByLabel('Mobilnummer').fill(phone.typed);
      await page.getByRole('button', { name: 'Sett meg på ventelisten' }).click();
      await page.waitForURL(/\/waitlist\/[0-9a-f-]+\?token=.*&new=1$/);
      await page.getByRole('heading', { level: 2, name: 'Du står på ventelisten' }).waitFor();
      await shot('joined');
      expect(await page.locator('.card dl').innerText())
        .to.contain(salon.services[0].name)
        .and.contain('Venter på en ledig tid');
      const shown = await page.locator('a.manage-link').getAttribute('href');
      const [entry] = await (await knex())('waitlist_entries').where({ tenantId: salon.tenant.id });
      expect(entry).to.include({ status: 'WAITING', fromDate: full, toDate: full, contactPhone: phone.stored, resourceId: null, language: 'nb' });

      const message = await eventually(
        async () => (await sms.sentTo(phone.stored)).find((m) => m.meta?.kind === 'WAITLIST_JOINED'),
        'the message confirming the entry',
      );
      const link = message.text.match(/Se eller forlat ventelisten: (\S+)$/)![1];
      expect(link, 'the link in the message is the one the page shows').to.equal(shown);

      await page.goto(link);
      await page.getByRole('heading', { level: 2, name: /^Din plass på ventelisten hos / }).waitFor();
      expect(await scan(page, `${version} entry page`)).to.deep.equal([]);
      await page.getByRole('button', { name: 'Forlat ventelisten' }).click();
      await page.getByText('Du står ikke lenger på ventelisten.').first().waitFor();
      await shot('left');
      expect(await page.getByRole('button', { name: 'Forlat ventelisten' }).count()).to.equal(0);
      expect((await (await knex())('waitlist_entries').where({ id: entry.id }).first()).status).to.equal('LEFT');
    });
  }

  it('when the chosen staff member has nothing free ahead then the customer joins the waitlist for the coming days with them (v2)', async function () {
    await useBookingUi('v2');
    const salon = await pageSalon({ staff: 2, settings: { maxBookingDaysInAdvance: 30 } });
    const away = salon.staff[1];
    await (await knex())('resource_schedules').where({ resourceId: away.resourceId }).delete();
    const names = await (await knex())('resources').where({ id: away.resourceId }).first('name');
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[0].name).check();
    await page.getByRole('button', NEXT).click();
    await page.getByLabel(names.name).check();
    await page.getByRole('button', NEXT).click();
    await page.getByRole('heading', { level: 3, name: 'Sett deg på ventelisten' }).waitFor();
    expect(await page.locator('.waitlist').innerText()).to.contain('de neste 60 dagene');
    await shot('nothing-ahead');
    await page.getByLabel('Navn').fill('Vera Med Ingrid');
    await page.getByLabel('Mobilnummer').fill(randomPhone().typed);
    await page.getByRole('button', { name: 'Sett meg på ventelisten' }).click();
    await page.waitForURL(/\/waitlist\/[0-9a-f-]+\?token=.*&new=1$/);
    const [entry] = await (await knex())('waitlist_entries').where({ tenantId: salon.tenant.id });
    expect(entry).to.include({ resourceId: away.resourceId, fromDate: localDay(0), toDate: addDays(localDay(0), 30) });
  });
});
