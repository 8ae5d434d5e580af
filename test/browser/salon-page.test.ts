// What the salon's page shows before the customer does anything (branding through the image proxy,
// description, address, opening hours, services by category with duration and price, all in the
// server's HTML), and the calendar: days without free times disabled, the page opening on the first
// free day (v2, and v1 without JavaScript), the times announced when they load, and no motion when
// the customer asks for less.
import { expect } from 'chai';
import { call } from '../support/http';
import { png, uploadAs } from '../support/upload-files';
import { addService, ALL_WEEK, knex, localDay } from '../support/booking-fixtures';
import { closePages, NEXT, openPage, pageSalon, startBrowserStack, useBookingUi, waitForFocus } from './support';

describe('the salon page and its calendar (browser)', function () {
  this.timeout(60_000);
  before(startBrowserStack);
  afterEach(closePages);
  after(() => useBookingUi('v2'));

  /** The salon's only staff member away from today for four days: the first free day is the fifth. */
  async function awayFourDays(salon: Awaited<ReturnType<typeof pageSalon>>): Promise<string> {
    await (
      await knex()
    )('time_offs').insert({
      tenantId: salon.tenant.id,
      resourceId: salon.staff[0].resourceId,
      type: 'vacation',
      startDate: localDay(0),
      endDate: localDay(3),
      isApproved: true,
    });
    return localDay(4);
  }

  it('when the salon has branding, a description, an address and opening hours then the first view shows them straight from the server, with services by category, duration and price, and no request leaving the platform', async function () {
    const salon = await pageSalon();
    const owner = salon.owner.token;
    const logoKey: string = (await uploadAs(owner, 'TENANT_LOGO', await png(300, 300))).body.data.key;
    const coverKey: string = (await uploadAs(owner, 'TENANT_COVER', await png(1600, 400))).body.data.key;
    const sundayClosed = ALL_WEEK.map((d) => (d.dayOfWeek === 0 ? { dayOfWeek: 0, isOpen: false, slots: [] } : d));
    const patched = await call('patch', `/tenants/${salon.tenant.id}`, owner, {
      branding: { primaryColor: '#7b1fa2', logoKey, coverKey },
      address: { street: 'Storgata 1', city: 'Oslo', postalCode: '0155', country: 'NO' },
      description: '<p>Klipp og farge <strong>midt i byen</strong>.</p>',
      settings: { businessHours: sundayClosed },
    });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    const [nails] = await (await knex())('service_categories').insert({ tenantId: salon.tenant.id, name: 'Negler', sortOrder: 1 }).returning('id');
    await addService(salon.tenant.id, { name: `Gellakk ${salon.services[0].name.split(' ')[1]}`, duration: 75, price: 64950, categoryId: nails.id });

    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    // the server's HTML already has the salon and its services: nothing waits on a script
    const served = await (await page.request.get(`${baseUrl}/${salon.tenant.slug}`)).text();
    for (const text of [salon.services[0].name, 'Negler', 'Klipp og farge', 'Storgata 1, 0155 Oslo', 'Åpningstider']) expect(served, text).to.contain(text);

    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await shot('first-view');
    for (const img of [page.locator('img.logo'), page.locator('img.cover')]) {
      expect(await img.getAttribute('src')).to.match(/^\/api\/image-proxy\/render\?key=/);
      expect(
        await img.evaluate(
          (el) => (el as unknown as { complete: boolean; naturalWidth: number }).complete && (el as unknown as { naturalWidth: number }).naturalWidth > 0,
        ),
        'the image loaded',
      ).to.equal(true);
    }
    expect(await page.locator('.salon-header .address').innerText()).to.equal('Storgata 1, 0155 Oslo');
    expect(await page.getByRole('heading', { level: 2, name: 'Om salongen' }).isVisible()).to.equal(true);
    const hours = page.getByRole('heading', { level: 2, name: 'Åpningstider' }).locator('xpath=..');
    expect(await hours.getByRole('row', { name: /^søndag/ }).innerText()).to.match(/Stengt$/);
    expect(await hours.getByRole('row', { name: /^mandag/ }).innerText()).to.match(/09:00–17:00$/);
    const hair = page.getByRole('group', { name: 'Hår' });
    expect(await hair.getByText(salon.services[0].name).locator('xpath=..').innerText()).to.match(/1 t · 500\skr/);
    expect(await hair.getByText(salon.services[1].name).locator('xpath=..').innerText()).to.match(/30 min · 299\skr/);
    expect(await page.getByRole('group', { name: 'Negler' }).locator('.meta').innerText()).to.match(/1 t 15 min · 649,50\skr/);
    expect(opened.foreignRequests(), 'requests to other hosts').to.deep.equal([]);
  });

  it('when the staff are away for the next days then those days are disabled, the calendar opens on the first free day, its times are announced when they load, and nothing moves for a customer who asks for reduced motion', async function () {
    const salon = await pageSalon();
    const firstFree = await awayFourDays(salon);
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[0].name).check();
    await page.getByRole('button', NEXT).click();
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Velg behandler' }));
    await page.getByRole('button', NEXT).click();
    await page.locator('.times button').first().waitFor();
    await shot('first-free-day');

    const dayButton = (date: string) => page.locator(`button.day[aria-describedby="day-${date}"]`);
    expect(await dayButton(firstFree).getAttribute('aria-pressed'), 'opened on the first free day').to.equal('true');
    const description = (await page.locator(`#day-${firstFree}`).textContent())!;
    const free = Number(/^[A-ZÆØÅ]\S+dag \d+\. \S+: (\d+) ledige tider\.$/.exec(description)?.[1]);
    expect(free, description).to.be.greaterThan(0);
    expect(await page.locator('.times button').count()).to.equal(free);
    await page
      .locator('#times-status')
      .filter({ hasText: `${free} ledige tider` })
      .waitFor({ state: 'attached' });
    expect(await page.locator('#times-status').getAttribute('aria-live')).to.equal('polite');

    // the days away are shown but cannot be chosen (walking back: they may sit in the week before)
    for (let n = 3; n >= 0; n--) {
      const date = localDay(n);
      if ((await dayButton(date).count()) === 0) {
        await page.getByRole('button', { name: 'Forrige uke' }).click();
        await dayButton(date).waitFor();
      }
      await page.locator(`#day-${date}`).filter({ hasText: 'stengt' }).waitFor({ state: 'attached' });
      expect(await dayButton(date).isDisabled(), date).to.equal(true);
    }
    await shot('days-away');

    const motion = await page.evaluate(() => {
      const g = globalThis as unknown as {
        document: { getAnimations(): unknown[]; querySelectorAll(s: string): ArrayLike<object> };
        getComputedStyle(e: object): { transitionDuration: string; animationName: string };
      };
      const moving = Array.from(g.document.querySelectorAll('*')).filter((el) => {
        const style = g.getComputedStyle(el);
        return style.animationName !== 'none' || style.transitionDuration.split(',').some((d) => parseFloat(d) > 0);
      });
      return { animations: g.document.getAnimations().length, moving: moving.length };
    });
    expect(motion).to.deep.equal({ animations: 0, moving: 0 });
  });
  it('when the platform serves v1 without JavaScript then the same days are plain text marked disabled and the day and time step opens on the first free day', async function () {
    await useBookingUi('v1');
    const salon = await pageSalon();
    const firstFree = await awayFourDays(salon);
    const { page, shot, baseUrl } = await openPage(this, { javaScript: false });
    await page.goto(`${baseUrl}/${salon.tenant.slug}?services=${salon.services[0].id}&staff=any`);
    await page.getByRole('heading', { level: 2, name: 'Velg dag og tid' }).waitFor();
    expect(await page.locator('a.day[aria-current="date"]').getAttribute('aria-describedby')).to.equal(`day-${firstFree}`);
    expect(await page.locator('.times-form input[name="time"]').count()).to.be.greaterThan(0);
    await shot('v1-first-free-day');
    for (let n = 3; n >= 0; n--) {
      const date = localDay(n);
      if ((await page.locator(`[aria-describedby="day-${date}"]`).count()) === 0) await page.getByRole('link', { name: 'Forrige uke' }).click();
      const day = page.locator(`.day[aria-describedby="day-${date}"]`);
      expect(await day.evaluate((el) => `${el.tagName} ${el.getAttribute('aria-disabled')}`), date).to.equal('SPAN true');
      expect(await page.locator(`#day-${date}`).textContent(), date).to.match(/^[A-ZÆØÅ]\S+dag \d+\. \S+: stengt\.$/);
    }
  });
});
