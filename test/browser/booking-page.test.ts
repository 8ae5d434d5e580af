// The v2 booking page in Chromium: what a customer does on it, with nothing but a browser.
import fs from 'node:fs';
import { expect } from 'chai';
import { call } from '../support/http';
import { bookingsOf, chooseUpToContact, closePages, startBrowserStack, NEXT, openPage, pageSalon, processingSalon, randomPhone, waitForFocus } from './support';
import { at, knex, localDay } from '../support/booking-fixtures';

describe('booking page v2 (browser)', function () {
  this.timeout(60_000);
  before(startBrowserStack);
  afterEach(closePages);

  it('when a guest books one service with an e-mail and a message to the salon then the page paints the salon and its services without any request leaving the platform, and the confirmation shows the booking, its manage link and a calendar file that downloads', async function () {
    const salon = await pageSalon();
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    expect(await page.locator('h1').innerText()).to.equal(salon.tenant.name);
    expect(await page.getByRole('group', { name: 'Hår' }).isVisible()).to.equal(true);
    await chooseUpToContact(opened, [salon.services[0].name]);
    const phone = randomPhone();
    await page.getByLabel('Navn').fill('Kari Nordmann');
    await page.getByLabel('Mobilnummer').fill(phone.typed);
    await page.getByLabel('E-post (valgfritt)').fill('  Kari@Example.test ');
    await page.getByLabel('Beskjed til salongen (valgfritt)').fill('Kort hår, bare stuss');
    await shot('contact');
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/\/bookings\/[0-9a-f-]+\?token=.*&new=1$/);
    await shot('confirmation');
    expect(await page.getByRole('heading', { level: 2 }).first().innerText()).to.equal('Takk for bestillingen!');
    expect(await page.locator('.card dl').innerText())
      .to.contain(salon.services[0].name)
      .and.to.match(/500\skr/);
    expect(await page.locator('a.manage-link').getAttribute('href'), 'the manage link is this page').to.equal(page.url().replace(/&new=1$/, ''));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Legg til i kalenderen (.ics)' }).click()]);
    const ics = fs.readFileSync((await download.path())!, 'utf8');
    const [booking] = await bookingsOf(salon.tenant.id);
    expect(download.suggestedFilename()).to.equal('booking.ics');
    expect(ics)
      .to.match(/^BEGIN:VCALENDAR/)
      .and.to.contain(`UID:booking-${booking.id}@`);
    expect(booking).to.include({
      status: 'CONFIRMED',
      contactName: 'Kari Nordmann',
      contactPhone: phone.stored,
      source: 'ONLINE',
      notes: 'Kort hår, bare stuss',
    });
    expect(booking.contactEmail.toLowerCase()).to.equal('kari@example.test');
    expect(opened.foreignRequests(), 'requests to other hosts').to.deep.equal([]);
  });

  it('when a guest books two services with a chosen staff member then only staff who do both are offered, and both services are booked with that person one after the other', async function () {
    const salon = await pageSalon({ staff: 2 });
    const [onlyFirst, both] = salon.staff;
    const names = await (await knex())('resources').whereIn('id', [onlyFirst.resourceId, both.resourceId]).select('id', 'name');
    const nameOf = (id: string) => names.find((r: { id: string }) => r.id === id).name as string;
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[0].name).check();
    await page.getByLabel(salon.services[1].name).check();
    await page.getByRole('button', NEXT).click();
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Velg behandler' }));
    expect(await page.getByLabel(nameOf(onlyFirst.resourceId)).count(), 'someone who does one of them').to.equal(0);
    await page.getByLabel(nameOf(both.resourceId)).check();
    await shot('staff');
    await page.getByRole('button', NEXT).click();
    await page.locator('.times button').first().click();
    await page.getByLabel('Navn').fill('Ola Nordmann');
    await page.getByLabel('Mobilnummer').fill(randomPhone().typed);
    expect(await page.locator('.summary').innerText())
      .to.contain(nameOf(both.resourceId))
      .and.to.match(/799\skr/);
    await shot('contact');
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/new=1$/);
    await shot('confirmation');
    const [booking] = await bookingsOf(salon.tenant.id);
    const items = await (await knex())('booking_items').where({ bookingId: booking.id }).orderBy('sortOrder');
    expect(items.map((i: { serviceId: string }) => i.serviceId)).to.deep.equal(salon.services.map((s) => s.id));
    expect(items.every((i: { resourceId: string }) => i.resourceId === both.resourceId)).to.equal(true);
    expect(new Date(items[1].startTime).getTime()).to.equal(new Date(items[0].endTime).getTime());
  });

  it("when a customer follows a rebooking nudge's link with the services and staff member in it then the page opens at the times of that person, and books that service with them", async function () {
    const salon = await pageSalon({ staff: 2 });
    const chosen = salon.staff[1];
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    await page.goto(`${baseUrl}/${salon.tenant.slug}?services=${salon.services[0].id}&staff=${chosen.resourceId}`);
    await page.waitForFunction(() => performance.getEntriesByName('booking-ready').length > 0);
    expect(await page.getByRole('heading', { level: 2, name: 'Velg dag og tid' }).isVisible()).to.equal(true);
    await shot('linked-time-step');
    await page.locator('.times button').first().click();
    const phone = randomPhone();
    await page.getByLabel('Navn').fill('Nora Nudge');
    await page.getByLabel('Mobilnummer').fill(phone.typed);
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/\/bookings\/[0-9a-f-]+\?token=.*&new=1$/);
    const [booking] = await bookingsOf(salon.tenant.id);
    expect(booking).to.include({ contactName: 'Nora Nudge', resourceId: chosen.resourceId });
  });

  it('when the stylist has a colour at 10:00 then the page offers a 30-minute service inside its processing (10:30) but not over its application or finish, the summary shows the whole appointment, and the booking takes that time', async function () {
    const salon = await processingSalon();
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[1].name).check();
    await page.getByRole('button', NEXT).click();
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Velg behandler' }));
    await page.getByRole('button', NEXT).click();
    await page.locator('.times button').first().waitFor();
    await shot('times-around-the-colour');
    const times = await page.locator('.times button').allInnerTexts();
    expect(times).to.include.members(['09:30', '10:30', '11:30']);
    for (const taken of ['09:45', '10:00', '10:15', '10:45', '11:00', '11:15']) expect(times, taken).to.not.include(taken);
    await page.locator('.times button', { hasText: '10:30' }).click();
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Dine opplysninger' }));
    expect(await page.locator('.summary').innerText()).to.contain('kl. 10:30–11:00');
    await page.getByLabel('Navn').fill('Pia Prosess');
    await page.getByLabel('Mobilnummer').fill(randomPhone().typed);
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/new=1$/);
    await shot('confirmation');
    const booked = (await bookingsOf(salon.tenant.id)).find((b: { contactName: string }) => b.contactName === 'Pia Prosess');
    expect(new Date(booked.startTime).toISOString()).to.equal(at(salon.day, '10:30'));
    expect(await (await knex())('booking_segments').where({ bookingId: booked.id }).select('kind')).to.deep.equal([{ kind: 'WORK' }]);
  });

  it('when a guest books the colour itself then the summary shows it from its start to the end of its last phase', async function () {
    const salon = await processingSalon();
    const opened = await openPage(this);
    const { page, baseUrl } = opened;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await chooseUpToContact(opened, [salon.colour.name]);
    const summary = await page.locator('.summary').innerText();
    const [, start, to] = /kl\. (\d\d:\d\d)–(\d\d:\d\d)/.exec(summary)!;
    const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
    expect(minutes(to) - minutes(start), 'the whole colour: 30 + 35 + 25 minutes').to.equal(90);
  });

  it('when the chosen time is booked by someone else before the customer submits then the customer is back at the fresh times of that day with a notice', async function () {
    const salon = await pageSalon();
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await chooseUpToContact(opened, [salon.services[0].name]);
    const chosen = (await page.locator('.summary').innerText()).match(/kl\. (\d\d:\d\d)/)![1];
    // the same time, taken through the public API meanwhile
    const next = await call('post', `/public/tenants/${salon.tenant.slug}/availability/next-available-date`, undefined, {
      items: [{ serviceId: salon.serviceId }],
      fromDate: localDay(-1),
    });
    const day = await call('get', `/public/tenants/${salon.tenant.slug}/availability?serviceId=${salon.serviceId}&date=${next.body.data.date}`);
    const taken = day.body.data.slots[0];
    expect(taken.localTime).to.equal(chosen);
    const other = await call('post', `/public/tenants/${salon.tenant.slug}/bookings`, undefined, {
      startTime: taken.start,
      items: [{ serviceId: salon.serviceId, resourceId: salon.staff[0].resourceId }],
      customer: { name: 'Someone Else', phone: randomPhone().stored },
    });
    expect(other.status, JSON.stringify(other.body)).to.equal(201);

    await page.getByLabel('Navn').fill('Kari Nordmann');
    await page.getByLabel('Mobilnummer').fill(randomPhone().typed);
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    const notice = page.getByRole('alert').filter({ hasText: 'ble nettopp tatt' });
    await notice.waitFor();
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Velg dag og tid' }));
    await page.locator('.times button').first().waitFor();
    await shot('conflict-notice');
    const times = await page.locator('.times button').allInnerTexts();
    expect(times).to.not.include(chosen);
    expect(times.length).to.be.greaterThan(0);
    expect((await bookingsOf(salon.tenant.id)).length, 'only the other booking').to.equal(1);
  });

  it('when the customer uses only the keyboard then every step is reachable with Tab and works with Space and Enter, with a visible focus', async function () {
    const salon = await pageSalon();
    const { page, shot, baseUrl } = await openPage(this);
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    const focused = () =>
      page.evaluate(() => {
        const el = (
          globalThis as unknown as {
            document: { activeElement: { tagName: string; textContent: string | null; getAttribute(n: string): string | null } | null };
          }
        ).document.activeElement;
        return el ? `${el.tagName}|${el.getAttribute('id') ?? ''}|${(el.textContent ?? '').trim()}|${el.getAttribute('aria-label') ?? ''}` : '';
      });
    const outline = () =>
      page.evaluate(() => {
        const g = globalThis as unknown as { document: { activeElement: object }; getComputedStyle(e: object): { outlineStyle: string; outlineWidth: string } };
        const style = g.getComputedStyle(g.document.activeElement);
        return `${style.outlineStyle} ${style.outlineWidth}`;
      });
    /** Tab until the focused element matches, as a keyboard user would. */
    const tabTo = async (matches: (description: string) => boolean, what: string) => {
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        if (matches(await focused())) return;
      }
      throw new Error(`Tab never reached ${what}`);
    };
    await tabTo((d) => d.startsWith('INPUT|svc-'), 'the first service');
    expect(await outline()).to.not.match(/^none/);
    await page.keyboard.press('Space');
    await tabTo((d) => d.startsWith('BUTTON||Neste'), 'Neste');
    await page.keyboard.press('Enter');
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Velg behandler' }));
    await shot('staff');
    await tabTo((d) => d.startsWith('BUTTON||Neste'), 'Neste');
    await page.keyboard.press('Enter');
    await page.locator('.times button').first().waitFor();
    await tabTo((d) => d.startsWith('BUTTON|') && /^\d\d:\d\d$/.test(d.split('|')[2]), 'a free time');
    expect(await outline()).to.not.match(/^none/);
    await shot('time-focused');
    await page.keyboard.press('Enter');
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Dine opplysninger' }));
    await tabTo((d) => d.startsWith('INPUT|contact-name'), 'the name field');
    await page.keyboard.type('Kari Tastatur');
    await tabTo((d) => d.startsWith('INPUT|contact-phone'), 'the phone field');
    await page.keyboard.type(randomPhone().typed);
    await tabTo((d) => d.startsWith('BUTTON||Bestill'), 'Bestill');
    await shot('contact');
    await page.keyboard.press('Enter');
    await page.waitForURL(/new=1$/);
    await shot('confirmation');
    expect((await bookingsOf(salon.tenant.id))[0].contactName).to.equal('Kari Tastatur');
  });

  it('when the customer switches to English then the page is in English with the choices kept, and the English texts continue through the steps', async function () {
    const salon = await pageSalon();
    const { page, shot, baseUrl } = await openPage(this);
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[1].name).check();
    await page.getByRole('link', { name: 'Switch to English' }).click();
    await page.waitForURL(/lang=en/);
    await page.getByRole('heading', { level: 2, name: 'Choose services' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).to.equal('en');
    expect(await page.getByLabel(salon.services[1].name).isChecked(), 'the service stays chosen').to.equal(true);
    expect(await page.getByRole('heading', { name: 'Opening hours' }).isVisible()).to.equal(true);
    await shot('english-services');
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Choose staff' }));
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.locator('.times button').first().waitFor();
    expect(await page.locator('.days li:has(button[aria-pressed="true"]) [hidden]').textContent()).to.match(
      /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d+ \w+: \d+ free times?\.$/,
    );
    await shot('english-times');
    expect(await page.getByRole('link', { name: 'Bytt til norsk' }).isVisible()).to.equal(true);
  });
});
