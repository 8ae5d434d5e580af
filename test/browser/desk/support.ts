// The front desk in a real browser (Debian's Chromium through playwright-core, the booking page's
// openPage): a fresh context per test at a tablet's 1024x768 (or a 390 px phone), a screenshot of
// every step kept under .artifacts/browser/desk/<test>/ (ignored by git), and a salon to run a day in.
import crypto from 'node:crypto';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { closePages, openPage, startBrowserStack, type OpenedPage } from '../support';
import { call } from '../../support/http';
import { addPhasedService, addRoom, addStaff, at, bookingSalon, knex, localDay, type BookingSalon, type TestStaff } from '../../support/booking-fixtures';
import type { TenantSettings } from '../../../domain/tenant/tenant-settings.rules';

export const TABLET = { width: 1024, height: 768 } as const;

export type OpenedDesk = OpenedPage;

/** A fresh browser context for one test at a 1024x768 tablet (or a 390 px phone), its screenshots under .artifacts/browser/desk/ (closed by closeDesks). */
export async function openDesk(
  test: Mocha.Context,
  options: { phone?: boolean; baseUrl?: string; name?: string; headers?: Record<string, string>; timezoneId?: string; locale?: string } = {},
): Promise<OpenedDesk> {
  return openPage(test, { ...options, viewport: TABLET, folder: 'desk' });
}

export const closeDesks = closePages;

/** `before` hook of a desk test file: the embedded stack and the browser, started once. */
export const startDeskStack = startBrowserStack;

/** Signs in on the desk's own sign-in screen. */
export async function signIn(desk: OpenedDesk, login: { email: string; password: string }, path = '/desk'): Promise<void> {
  const { page, baseUrl } = desk;
  await page.goto(`${baseUrl}${path}`);
  await page.getByLabel('E-post eller mobilnummer').fill(login.email);
  await page.getByLabel('Passord').fill(login.password);
  await page.getByRole('button', { name: 'Logg inn' }).click();
  await page.getByRole('navigation', { name: 'Resepsjonen' }).waitFor();
}

/** Waits until the day of `date` is drawn (the desk marks it). */
export async function dayDrawn(page: Page, date: string): Promise<void> {
  await page.waitForFunction(
    (d) => (globalThis as unknown as { document: { documentElement: { dataset: Record<string, string> } } }).document.documentElement.dataset.dayDrawn === d,
    date,
  );
}

export interface DeskSalon extends BookingSalon {
  /** the stylists (with logins): Ingrid, Lars */
  stylists: TestStaff[];
  cut: { id: string; name: string };
  colour: { id: string; name: string };
  stationId: string;
  tag: string;
}

/**
 * A salon open every day 09:00-17:00 (or `hours`) with two stylists who have logins (and the first staff member
 * of bookingSalon, without one), a cut (30 minutes) and a colour (30 work, 35 processing at the one
 * colour station, 25 work) both of them do.
 */
export async function deskSalon(settings: Partial<TenantSettings> = {}, hours = { startTime: '09:00', endTime: '17:00' }): Promise<DeskSalon> {
  const tag = crypto.randomBytes(3).toString('hex');
  const businessHours = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, isOpen: true, slots: [hours] }));
  const salon = await bookingSalon({ settings: { autoConfirm: false, cancellationHours: 0, businessHours, ...settings }, staff: 0 });
  const db = await knex();
  await db('services')
    .where({ id: salon.serviceId })
    .update({ name: `Klipp ${tag}`, duration: 30 });
  const colour = await addPhasedService(salon.tenant.id, { name: `Farge ${tag}` });
  const stylists = [
    await addStaff(salon.tenant.id, [salon.serviceId, colour.id], { name: `Ingrid ${tag}`, sortOrder: 1, schedule: hours }),
    await addStaff(salon.tenant.id, [salon.serviceId, colour.id], { name: `Lars ${tag}`, sortOrder: 2, schedule: hours }),
  ];
  for (const s of stylists)
    await db('users')
      .where({ id: s.user.id })
      .update({ name: db('resources').select('name').where({ id: s.resourceId }) });
  const stationId = await addRoom(salon.tenant.id, [colour.id], { name: `Fargestasjon ${tag}` });
  return {
    ...salon,
    staff: stylists,
    stylists,
    cut: { id: salon.serviceId, name: `Klipp ${tag}` },
    colour: { id: colour.id, name: `Farge ${tag}` },
    stationId,
    tag,
  };
}

/** A booking made by the owner (CONFIRMED), as a phone booking, for a named customer. */
export async function ownerBooks(
  s: DeskSalon,
  options: { day?: string; time: string; service?: string; staff?: number | null; name?: string },
): Promise<string> {
  const day = options.day ?? localDay(1);
  const resourceId = options.staff === null ? null : s.stylists[options.staff ?? 0].resourceId;
  const res = await call('post', '/bookings', s.owner.token, {
    startTime: at(day, options.time),
    items: [{ serviceId: options.service ?? s.cut.id, resourceId }],
    source: 'PHONE',
    customer: { name: options.name ?? `Kunde ${crypto.randomBytes(2).toString('hex')}`, phone: `+479${crypto.randomInt(1e6, 1e7 - 1)}` },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data.id;
}
