// The booking page where customers tripped over it (docs/rules/booking-page.md): the day shown is the
// day booked, the cancellation terms come before "Bestill", every step is a history entry that a
// reload keeps, phone numbers and the language reach the platform as they should, and the week, the
// keyboard, the focus and the headings work on a phone. In Chromium, v2 and v1.
import { expect } from 'chai';
import { call } from '../support/http';
import { stack } from '../support/stack';
import { ALL_WEEK, knex, localDay } from '../support/booking-fixtures';
import { addDays, mondayOf, weekOf, dayOfWeek } from '../../web/shared/format';
import {
  bookingsOf,
  chooseUpToContact,
  closePages,
  fillDay,
  NEXT,
  openPage,
  pageSalon,
  randomPhone,
  startBrowserStack,
  useBookingUi,
  waitForFocus,
  type OpenedPage,
} from './support';
import { eventually } from '../support/eventually';

const focusedId = (opened: OpenedPage) =>
  opened.page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id ?? '');

describe("the booking page's steps: the week, the terms, history, phone numbers, language, keyboard and focus (browser)", function () {
  this.timeout(90_000);
  before(startBrowserStack);
  // v2 unless a test says otherwise (the v1 tests set v1 themselves)
  beforeEach(() => useBookingUi('v2'));
  afterEach(closePages);

  it('when the customer goes to the next week then no day is chosen and no times of the day left behind are listed, and the time chosen next is booked on a day of that week (v2)', async function () {
    const salon = await pageSalon({ settings: { maxBookingDaysInAdvance: 30 } });
    const opened = await openPage(this, { phone: true });
    const { page, shot, baseUrl } = opened;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[0].name).check();
    await page.getByRole('button', NEXT).click();
    await page.getByRole('button', NEXT).click();
    await page.locator('.times button').first().waitFor();
    const before = await page.locator('#times-heading').innerText();
    await page.getByRole('button', { name: /Neste uke/ }).click();
    await page.getByText('Velg en dag med ledige tider.').waitFor();
    await shot('next-week');
    expect(await page.locator('#times-heading').count(), `no "${before}" left on the page`).to.equal(0);
    expect(await page.locator('.times button').count()).to.equal(0);
    expect(await page.locator('.days button[aria-pressed="true"]').count()).to.equal(0);
    const nextMonday = addDays(mondayOf(localDay(0)), 7);
    const shownWeek = weekOf(nextMonday);
    const target = page.locator('.days button.free').first();
    await target.waitFor();
    await target.click();
    await page.locator('.times button').first().click();
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Dine opplysninger' }));
    await page.getByLabel('Navn').fill('Kari Neste Uke');
    await page.getByLabel('Mobilnummer').fill(randomPhone().typed);
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/new=1$/);
    const [booking] = await bookingsOf(salon.tenant.id);
    const bookedDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo' }).format(booking.startTime);
    expect(shownWeek, 'the booked day is in the week the customer moved to').to.include(bookedDay);
  });

  for (const version of ['v2', 'v1'] as const) {
    it(`when the customer reaches "Bestill" then the free-cancellation deadline and what happens to the deposit stand before it, and a time already inside the salon's hours says free cancellation has ended (${version})`, async function () {
      await useBookingUi(version);
      const late = await pageSalon({ settings: { cancellationHours: 168, depositEnabled: true, depositType: 'percentage', depositValue: 20 } });
      const free = await pageSalon({ settings: { cancellationHours: 0, depositEnabled: true, depositType: 'percentage', depositValue: 20 } });
      for (const [salon, expected] of [
        [
          late,
          /^Fristen for gratis avbestilling \(168 timer før\) er allerede passert for denne timen\.\nAvbestiller du, beholder salongen depositumet på 100\skr\.$/,
        ],
        [
          free,
          /^Du kan avbestille gratis frem til \S+ \d+\. \S+ kl\. (\d\d:\d\d)\.\nAvbestiller du innen da, får du depositumet på 100\skr tilbake; avbestiller du senere, beholder salongen det\.$/,
        ],
      ] as const) {
        const opened = await openPage(this, { javaScript: version === 'v2' });
        const { page, shot, baseUrl } = opened;
        await page.goto(`${baseUrl}/${salon.tenant.slug}`);
        if (version === 'v2') await chooseUpToContact(opened, [salon.services[0].name]);
        else {
          await page.getByLabel(salon.services[0].name).check();
          await page.getByRole('button', NEXT).click();
          await page.getByRole('button', NEXT).click();
          await page.locator('.times-form input[name="time"]').first().check();
          await page.getByRole('button', NEXT).click();
        }
        await page.getByRole('heading', { level: 2, name: 'Dine opplysninger' }).waitFor();
        await shot('terms');
        const terms = (await page.locator('#booking-terms').innerText()).replace(/\n+/g, '\n');
        expect(terms).to.match(expected);
        expect(await page.getByRole('button', { name: 'Bestill og betal depositum' }).getAttribute('aria-describedby')).to.equal('booking-terms');
        if (salon === free) {
          const chosen = (await page.locator('.summary').innerText()).match(/kl\. (\d\d:\d\d)/)![1];
          expect(terms.match(expected)![1], 'with no hours to cancel ahead, free until the start').to.equal(chosen);
        }
        await opened.context.close();
      }
    });
  }

  it('when the customer steps through on a phone and uses the browser’s Back, Forward and reload then every step is a history entry and the choices stay (v2)', async function () {
    const salon = await pageSalon({ staff: 2 });
    const opened = await openPage(this, { phone: true });
    const { page, shot, baseUrl } = opened;
    const names = await (
      await knex()
    )('resources')
      .whereIn(
        'id',
        salon.staff.map((s) => s.resourceId),
      )
      .select('id', 'name');
    const person = names.find((r: { id: string }) => r.id === salon.staff[1].resourceId).name as string;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[0].name).check();
    await page.getByRole('button', NEXT).click();
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Velg behandler' }));
    expect(page.url()).to.match(/#staff$/);
    await page.getByLabel(person).check();
    await page.getByRole('button', NEXT).click();
    await page.locator('.times button').first().waitFor();
    const day = await page.locator('.days button[aria-pressed="true"]').getAttribute('aria-describedby');
    await page.locator('.times button').first().click();
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Dine opplysninger' }));
    await shot('contact');

    await page.goBack();
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Velg dag og tid' }));
    expect(await page.locator('.days button[aria-pressed="true"]').getAttribute('aria-describedby'), 'the chosen day is still chosen').to.equal(day);
    await page.goBack();
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Velg behandler' }));
    expect(await page.getByLabel(person).isChecked(), 'the chosen staff member is still chosen').to.equal(true);
    await shot('back-to-staff');
    await page.goForward();
    await page.getByRole('heading', { level: 2, name: 'Velg dag og tid' }).waitFor();

    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Velg dag og tid' }).waitFor();
    await page.locator('.times button').first().waitFor();
    expect(await page.locator('.days button[aria-pressed="true"]').getAttribute('aria-describedby')).to.equal(day);
    expect(await page.locator('.summary').innerText())
      .to.contain(salon.services[0].name)
      .and.contain(person);
    await shot('reloaded');
    await page.locator('.times button').first().click();
    await page.getByLabel('Navn').fill('Kari Tilbake');
    await page.getByLabel('Mobilnummer').fill(randomPhone().typed);
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/new=1$/);
    const [booking] = await bookingsOf(salon.tenant.id);
    expect(booking.resourceId).to.equal(salon.staff[1].resourceId);
    // Back from the confirmation lands on the contact step, not on a blank page
    await page.goBack();
    await page.getByRole('heading', { level: 2, name: 'Dine opplysninger' }).waitFor();
  });

  it('when the customer uses Back on the server-rendered page then the earlier step comes back with its choice, and a reload keeps the step (v1)', async function () {
    await useBookingUi('v1');
    const salon = await pageSalon();
    const { page, baseUrl } = await openPage(this, { javaScript: false, phone: true });
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[0].name).check();
    await page.getByRole('button', NEXT).click();
    await page.getByRole('button', NEXT).click();
    await page.getByRole('heading', { level: 2, name: 'Velg dag og tid' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 2, name: 'Velg behandler' }).waitFor();
    expect(await page.getByLabel('Hvem som helst').isChecked()).to.equal(true);
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Velg behandler' }).waitFor();
    expect(await page.locator('form.staff input[name="services"]').inputValue(), 'the chosen service travels on').to.equal(salon.serviceId);
  });

  it('when the number typed is none of the salon’s country then the field says so in the page’s language and nothing is booked; typed with spaces it is stored in E.164 (v2)', async function () {
    const salon = await pageSalon();
    const opened = await openPage(this);
    const { page, shot, baseUrl } = opened;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await chooseUpToContact(opened, [salon.services[0].name]);
    await page.getByLabel('Navn').fill('Kari Feil');
    await page.getByLabel('Mobilnummer').fill('123 456');
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.locator('#contact-phone-error').waitFor();
    await shot('phone-refused');
    expect(await page.locator('#contact-phone-error').innerText()).to.equal('Skriv et gyldig telefonnummer.');
    expect(await page.getByLabel('Mobilnummer').getAttribute('aria-invalid')).to.equal('true');
    expect(await page.locator('#contact-phone-hint').innerText()).to.equal('Uten landskode bruker vi +47.');
    expect(await bookingsOf(salon.tenant.id)).to.have.length(0);
    const phone = randomPhone();
    await page.getByLabel('Mobilnummer').fill(phone.typed);
    await page.getByRole('button', { name: 'Bestill', exact: true }).click();
    await page.waitForURL(/new=1$/);
    expect((await bookingsOf(salon.tenant.id))[0].contactPhone).to.equal(phone.stored);
  });

  for (const version of ['v2', 'v1'] as const) {
    it(`when a customer books in English then the booking keeps English and the confirmation SMS is English (${version})`, async function () {
      await useBookingUi(version);
      const salon = await pageSalon();
      const { sms } = await stack();
      const opened = await openPage(this, { javaScript: version === 'v2' });
      const { page, baseUrl } = opened;
      await page.goto(`${baseUrl}/${salon.tenant.slug}?lang=en`);
      await page.getByLabel(salon.services[0].name).check();
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      if (version === 'v2') await page.locator('.times button').first().click();
      else {
        await page.locator('.times-form input[name="time"]').first().check();
        await page.getByRole('button', { name: 'Next', exact: true }).click();
      }
      const phone = randomPhone();
      await page.getByLabel('Name').fill('Emma English');
      await page.getByLabel('Mobile number').fill(phone.typed);
      await page.getByRole('button', { name: 'Book', exact: true }).click();
      await page.waitForURL(/new=1$/);
      const [booking] = await bookingsOf(salon.tenant.id);
      expect(booking.language).to.equal('en');
      const confirmation = await eventually(async () => (await sms.sentTo(phone.stored)).find((m) => m.meta?.kind === 'CONFIRMED'), 'the confirmation SMS');
      expect(confirmation.text)
        .to.match(/^Hi Emma English! Your appointment is confirmed: .* on \w+day \d+ \w+, \d\d:\d\d–\d\d:\d\d \(Oslo time\)\. Welcome to /)
        .and.match(/&lang=en$/);
    });
  }

  it('when the week is shown on a 390 px phone then its seven days stand in one row, each part on one line, and a free, a full and a closed day look different and say what they are (v2)', async function () {
    // next week: Monday free, Tuesday full, Wednesday closed
    const monday = addDays(mondayOf(localDay(0)), 7);
    const closedWeekday = dayOfWeek(addDays(monday, 2));
    const salon = await pageSalon({
      settings: { maxBookingDaysInAdvance: 30, businessHours: ALL_WEEK.map((d) => (d.dayOfWeek === closedWeekday ? { ...d, isOpen: false, slots: [] } : d)) },
    });
    await fillDay(salon, addDays(monday, 1));
    const opened = await openPage(this, { phone: true });
    const { page, shot, baseUrl } = opened;
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[0].name).check();
    await page.getByRole('button', NEXT).click();
    await page.getByRole('button', NEXT).click();
    await page.locator('.times button').first().waitFor();
    while (!(await page.locator(`#day-${monday}`).count())) await page.getByRole('button', { name: /Neste uke/ }).click();
    await page.locator(`.days button[aria-describedby="day-${addDays(monday, 1)}"].full`).waitFor();
    await shot('week-on-a-phone');
    const layout = await page.locator('.days li').evaluateAll((items) =>
      items.map((li) => {
        const box = (li as unknown as { getBoundingClientRect(): { top: number; right: number } }).getBoundingClientRect();
        const parts = Array.from(
          (li as unknown as { querySelectorAll(s: string): ArrayLike<{ getClientRects(): ArrayLike<unknown> }> }).querySelectorAll('.dow, .dom, .count'),
        );
        return { top: Math.round(box.top), right: box.right, oneLine: parts.every((p) => p.getClientRects().length === 1) };
      }),
    );
    expect(new Set(layout.map((l) => l.top)).size, 'one row').to.equal(1);
    expect(
      layout.every((l) => l.oneLine),
      'each part of a day on one line',
    ).to.equal(true);
    expect(Math.max(...layout.map((l) => l.right)), 'inside the screen').to.be.at.most(390);
    const day = (date: string) => page.locator(`.days button[aria-describedby="day-${date}"]`);
    const look = (date: string) =>
      day(date).evaluate((el) => {
        const style = (
          globalThis as unknown as { getComputedStyle(e: unknown): { borderStyle: string; backgroundColor: string; color: string } }
        ).getComputedStyle(el);
        return `${style.borderStyle}|${style.backgroundColor}|${style.color}`;
      });
    const [free, full, closed] = [monday, addDays(monday, 1), addDays(monday, 2)];
    expect(new Set([await look(free), await look(full), await look(closed)]).size, 'three different looks').to.equal(3);
    expect(await day(full).locator('.count').innerText()).to.equal('Fullt');
    expect(await day(closed).locator('.count').innerText()).to.equal('Stengt');
    expect(await day(free).locator('.count').innerText()).to.match(/^\d+$/);
    // a whole sentence for a screen reader: capitalised, the date, what the day is
    expect(await page.locator(`#day-${full}`).textContent()).to.match(/^[A-ZÆØÅ]\S+dag \d+\. \S+: alt er tatt\.$/);
    expect(await page.locator(`#day-${closed}`).textContent()).to.match(/^[A-ZÆØÅ]\S+dag \d+\. \S+: stengt\.$/);
    expect(await day(full).isEnabled(), 'a full day opens its waitlist').to.equal(true);
    expect(await day(closed).isEnabled()).to.equal(false);
  });

  it('when the server-rendered week lies in the past then its days say so and look unlike closed ones (v1)', async function () {
    await useBookingUi('v1');
    const lastWeek = addDays(mondayOf(localDay(0)), -7);
    const salon = await pageSalon({ settings: { businessHours: ALL_WEEK.map((d) => (d.dayOfWeek === 0 ? { ...d, isOpen: false, slots: [] } : d)) } });
    const { page, baseUrl } = await openPage(this, { javaScript: false, phone: true });
    await page.goto(`${baseUrl}/${salon.tenant.slug}?services=${salon.serviceId}&staff=any&week=${lastWeek}`);
    const badges = await page.locator('.days .count').allInnerTexts();
    expect(badges).to.deep.equal(['–', '–', '–', '–', '–', '–', '–']);
    expect(await page.locator(`#day-${lastWeek}`).textContent()).to.match(/^Mandag \d+\. \S+: dagen er forbi\.$/);
    await page.goto(`${baseUrl}/${salon.tenant.slug}?services=${salon.serviceId}&staff=any&week=${addDays(mondayOf(localDay(0)), 7)}`);
    expect(await page.locator(`#day-${addDays(mondayOf(localDay(0)), 13)}`).textContent(), 'Sunday is closed').to.match(/^Søndag \d+\. \S+: stengt\.$/);
  });

  it('when the customer uses the arrow keys then they move between the days and between the times, each list one Tab stop, and Enter chooses (v2)', async function () {
    const salon = await pageSalon();
    const { page, shot, baseUrl } = await openPage(this);
    await page.goto(`${baseUrl}/${salon.tenant.slug}`);
    await page.getByLabel(salon.services[1].name).check();
    await page.getByRole('button', NEXT).click();
    await page.getByRole('button', NEXT).click();
    await page.locator('.times button').first().waitFor();
    // the first free day of next week, which has days after it: in this week the day the page opens
    // on can be its last one with times (on a Saturday evening, the Sunday), where ArrowRight stays
    await page.getByRole('button', { name: /Neste uke/ }).click();
    await page.locator('.days button.free').first().click();
    await page.locator('.times button').first().waitFor();
    const times = await page.locator('.times button').count();
    expect(times, 'a day of 30-minute times').to.be.greaterThan(3);
    expect(await page.locator('.times button[tabindex="0"]').count(), 'one Tab stop for all the times').to.equal(1);
    expect(await page.locator('.days button[tabindex="0"]').count(), 'one Tab stop for the week').to.equal(1);
    await page.locator('.times button').first().focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const third = await page.locator('.times button').nth(2).innerText();
    expect(
      await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement.textContent),
    ).to.equal(third);
    await page.keyboard.press('End');
    expect(
      await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement.textContent),
    ).to.equal(await page.locator('.times button').last().innerText());
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    // from the times, Shift+Tab reaches the chosen day in one step; the arrows move to the next day
    const chosenDay = page.locator('.days button[aria-pressed="true"]');
    await chosenDay.focus();
    await page.keyboard.press('ArrowRight');
    const next = await page.evaluate(() =>
      (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } } }).document.activeElement.getAttribute(
        'aria-describedby',
      ),
    );
    expect(next).to.not.equal(await chosenDay.getAttribute('aria-describedby'));
    expect(next).to.match(/^day-\d{4}-\d\d-\d\d$/);
    await shot('arrows');
    await page.locator('.times button').nth(2).focus();
    await page.keyboard.press('Enter');
    await waitForFocus(page.getByRole('heading', { level: 2, name: 'Dine opplysninger' }));
    expect(await page.locator('.summary').innerText()).to.contain(`kl. ${third}`);
  });

  for (const version of ['v2', 'v1'] as const) {
    it(`when the booking is made then the confirmation's heading has the focus, and the summary names the staff choice "Behandler" (${version})`, async function () {
      await useBookingUi(version);
      const salon = await pageSalon();
      const opened = await openPage(this, { javaScript: version === 'v2' });
      const { page, baseUrl } = opened;
      await page.goto(`${baseUrl}/${salon.tenant.slug}`);
      if (version === 'v2') await chooseUpToContact(opened, [salon.services[0].name]);
      else {
        await page.getByLabel(salon.services[0].name).check();
        await page.getByRole('button', NEXT).click();
        await page.getByRole('button', NEXT).click();
        await page.locator('.times-form input[name="time"]').first().check();
        await page.getByRole('button', NEXT).click();
      }
      const terms = await page.locator('.summary dt').allInnerTexts();
      expect(terms).to.include('Behandler').and.not.include('Velg behandler');
      await page.getByLabel('Navn').fill('Kari Fokus');
      await page.getByLabel('Mobilnummer').fill(randomPhone().typed);
      await page.getByRole('button', { name: 'Bestill', exact: true }).click();
      await page.waitForURL(/new=1$/);
      await page.getByRole('heading', { level: 2, name: 'Takk for bestillingen!' }).waitFor();
      await eventually(async () => ((await focusedId(opened)) === 'booking-heading' ? true : undefined), 'the heading to have the focus', 5000);
    });
  }

  it('when a salon is unknown then its page has a level-one heading', async function () {
    const { page, baseUrl } = await openPage(this);
    const res = await page.goto(`${baseUrl}/no-such-salon-${Date.now()}`);
    expect(res?.status()).to.equal(404);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('Fant ikke siden');
    const api = await call('get', `/public/tenants/no-such-salon/services`);
    expect(api.status, 'the API still answers its envelope').to.equal(404);
  });
});
