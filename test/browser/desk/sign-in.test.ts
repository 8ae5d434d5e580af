// Signing in to the front desk (docs/rules/front-desk.md#sessions) as the owner and as staff, in
// Chromium: the session lives only in HttpOnly cookies (no script of the page can read a token),
// STAFF see their own column and the unassigned bookings, a session that ends while something is
// typed asks for the password and keeps what was typed, and signing out ends it.
import { expect } from 'chai';
import { closeDesks, dayDrawn, deskSalon, openDesk, ownerBooks, signIn, startDeskStack } from './support';
import { at, localDay } from '../../support/booking-fixtures';
import { scan } from '../support';
import { knex } from '../../support/booking-fixtures';

describe('the front desk: signing in (Chromium)', function () {
  this.timeout(120_000);
  before(startDeskStack);
  afterEach(closeDesks);

  it('when the owner signs in then the day shows every staff column and the colour station, the tokens are in HttpOnly cookies only, and axe finds nothing serious', async function () {
    const s = await deskSalon();
    const today = localDay(0);
    await ownerBooks(s, { day: today, time: '10:00', staff: 0, name: 'Kari Klipp' });
    await ownerBooks(s, { day: today, time: '11:00', service: s.colour.id, staff: 1, name: 'Frida Farge' });
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await page.goto(`${desk.baseUrl}/desk`);
    await page.getByRole('heading', { level: 2, name: 'Logg inn i resepsjonen' }).waitFor();
    await shot('sign-in');
    expect(await scan(page, 'sign-in')).to.deep.equal([]);
    await signIn(desk, s.owner);
    await dayDrawn(page, today);
    await shot('day');
    for (const name of [`Ingrid ${s.tag}`, `Lars ${s.tag}`, `Fargestasjon ${s.tag}`]) await page.getByRole('heading', { level: 3, name }).waitFor();
    await page.getByRole('button', { name: /Kari Klipp/ }).waitFor();
    await page
      .getByRole('button', { name: /Frida Farge/ })
      .first()
      .waitFor();
    const cookies = await desk.context.cookies();
    for (const name of ['access_token', 'refresh_token']) {
      const cookie = cookies.find((c) => c.name === name);
      expect(cookie, name).to.not.equal(undefined);
      expect(cookie!.httpOnly, name).to.equal(true);
      expect(cookie!.sameSite, name).to.equal('Lax');
    }
    expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).to.not.match(/access_token|refresh_token/);
    expect(
      await page.evaluate(() =>
        JSON.stringify({
          ...(globalThis as unknown as { localStorage: Storage }).localStorage,
          ...(globalThis as unknown as { sessionStorage: Storage }).sessionStorage,
        }),
      ),
    ).to.not.match(/eyJ/);
    expect(await scan(page, 'day')).to.deep.equal([]);
    expect(desk.foreignRequests()).to.deep.equal([]);
  });
});

describe('the front desk: staff, sessions and signing out (Chromium)', function () {
  this.timeout(120_000);
  before(startDeskStack);
  afterEach(closeDesks);

  it("when a stylist signs in then they see their own column and the unassigned bookings, not a colleague's; they take an unassigned booking, cannot drag theirs to a colleague, and mark their customer arrived", async function () {
    const s = await deskSalon();
    const day = localDay(2);
    await ownerBooks(s, { day, time: '09:00', staff: 0, name: 'Egen Kunde' });
    await ownerBooks(s, { day, time: '09:00', staff: 1, name: 'Kollega Kunde' });
    const open = await ownerBooks(s, { day, time: '12:00', staff: null, name: 'Ledig Kunde' });
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, { email: s.stylists[0].user.email, password: s.stylists[0].user.password }, `/desk?date=${day}`);
    await dayDrawn(page, day);
    await shot('staff-day');
    await page.getByRole('heading', { level: 3, name: `Ingrid ${s.tag}` }).waitFor();
    expect(await page.getByRole('heading', { level: 3, name: `Lars ${s.tag}` }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: /Kollega Kunde/ }).count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Varsler' }).count(), 'notices are the owner’s').to.equal(0);
    await page.getByRole('button', { name: /^09:00 Egen Kunde/ }).focus();
    await page.keyboard.press('m');
    await page.keyboard.press('ArrowRight');
    await page
      .getByRole('status')
      .filter({ hasText: `Flytter Egen Kunde: 09:00 hos Ingrid ${s.tag}` })
      .waitFor();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: /^12:00 Ledig Kunde/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Ta denne' }).click();
    await page.getByRole('dialog').getByText(`Ingrid ${s.tag}`).first().waitFor();
    const taken = await (await knex())('bookings').where({ id: open }).first();
    expect(taken.resourceId).to.equal(s.stylists[0].resourceId);
    await page.getByRole('dialog').getByRole('button', { name: 'Lukk' }).click();
    await page.locator(`section[data-col="0"] [data-booking="${open}"]`).waitFor();
    await shot('taken');
    expect(await scan(page, 'staff day')).to.deep.equal([]);

    // the stylist marks their own customer arrived (yesterday's visit, so it has begun whenever the test runs)
    const yesterday = localDay(-1);
    const visit = await ownerBooks(s, { day: yesterday, time: '10:00', staff: 0, name: 'Ankomst Kunde' });
    await page.goto(`${desk.baseUrl}/desk?date=${yesterday}`);
    await dayDrawn(page, yesterday);
    await page.getByRole('button', { name: /^10:00 Ankomst Kunde/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Ankommet' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Ankommet' }).waitFor({ state: 'detached' });
    expect((await (await knex())('bookings').where({ id: visit }).first()).status).to.equal('ARRIVED');
  });

  it('when the session ends while a booking is being typed then a dialog asks for the password, and the booking goes through with what was typed', async function () {
    const s = await deskSalon();
    const day = localDay(2);
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, s.owner, `/desk?date=${day}`);
    await dayDrawn(page, day);
    await page.getByRole('button', { name: 'Ny time' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ny time på telefon' });
    await dialog.getByLabel('Ny kunde').check();
    await dialog.getByLabel('Navn', { exact: true }).fill('Tålmodig Kunde');
    await dialog.getByLabel('Mobilnummer').fill('+4791122334');
    await dialog.getByLabel(new RegExp(s.cut.name)).check();
    await dialog.getByLabel('Behandler').selectOption({ label: `Ingrid ${s.tag}` });
    await dialog.getByRole('radio', { name: '14:00' }).check();
    await dialog.getByLabel('Notat til timen (valgfritt)').fill('Ønsker kaffe');
    // the session ends elsewhere (signed out on another device): its access and refresh cookies stop working
    const cookies = (await desk.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const out = await fetch(`${desk.baseUrl}/api/auth/logout`, { method: 'POST', headers: { cookie: cookies } });
    expect(out.status).to.equal(200);
    await dialog.getByRole('button', { name: 'Bestill' }).click();
    const again = page.getByRole('dialog', { name: 'Økten er utløpt' });
    await again.waitFor();
    await shot('session-ended');
    expect(await again.getByLabel('E-post eller mobilnummer').inputValue()).to.equal(s.owner.email);
    await again.getByLabel('Passord').fill(s.owner.password);
    await again.getByRole('button', { name: 'Logg inn' }).click();
    await page.getByRole('button', { name: /^14:00 Tålmodig Kunde/ }).waitFor();
    const row = await (
      await knex()
    )('bookings')
      .where({ tenantId: s.tenant.id, startTime: new Date(at(day, '14:00')) })
      .first();
    expect(row.notes).to.equal('Ønsker kaffe');
  });

  it('when the owner signs out then the sign-in screen shows, the cookies are gone and the session is over; the password link is reachable from it, and the English switch', async function () {
    const s = await deskSalon();
    const desk = await openDesk(this);
    const { page, shot } = desk;
    await signIn(desk, s.owner);
    await page.getByRole('button', { name: 'Logg ut' }).click();
    await page.getByRole('heading', { level: 2, name: 'Logg inn i resepsjonen' }).waitFor();
    expect((await desk.context.cookies()).filter((c) => c.name === 'access_token' || c.name === 'refresh_token')).to.deep.equal([]);
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Logg inn i resepsjonen' }).waitFor();

    await page.getByRole('button', { name: 'Glemt passordet?' }).click();
    await page.getByLabel('E-post').fill(s.owner.email);
    await page.getByRole('button', { name: 'Send lenke' }).click();
    await page.getByText('Hvis e-posten finnes hos oss, har vi sendt en lenke').waitFor();
    await shot('forgot');
    const asked = await (await knex())('account_messages').where({ kind: 'PASSWORD_RESET', email: s.owner.email }).first();
    expect(asked, 'the reset was asked for').to.not.equal(undefined);

    await page.getByRole('link', { name: 'Switch to English' }).click();
    await page.getByRole('heading', { level: 2, name: 'Sign in to the front desk' }).waitFor();
    await page.getByLabel('E-mail or mobile number').fill(s.owner.email);
    await page.getByLabel('Password').fill(s.owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Front desk' }).getByRole('link', { name: 'Day' }).waitFor();
    await shot('english');
  });
});
