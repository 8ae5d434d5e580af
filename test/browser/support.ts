// The customer booking page in a real browser (Debian's Chromium through playwright-core): one
// browser for the run, a fresh context per test, a screenshot of every step kept under
// .artifacts/browser/<test>/ (ignored by git), and the requests the page made, so a test can say
// "no request left the platform".
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { expect } from 'chai';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { sharedBrowser } from '../support/chromium';
import { stack } from '../support/stack';
import { call } from '../support/http';
import { addPhasedService, addRoom, addService, addStaff, at, bookingSalon, knex, localDay, type BookingSalon } from '../support/booking-fixtures';
import { platformAdmin } from '../support/billing';
import type { TenantSettings } from '../../domain/tenant/tenant-settings.rules';

const ARTIFACTS = path.resolve(__dirname, '../../.artifacts/browser');

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  baseUrl: string;
  /** keeps a full-page screenshot of the current step */
  shot(name: string): Promise<void>;
  /** every request the page made to a host other than the platform's */
  foreignRequests(): string[];
}

function folderOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
}

/** A fresh browser context for one test; closed by the returned page's context after the test. */
/** A 390 px wide phone (an iPhone 12-15 class screen), touch and all. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

export async function openPage(
  test: Mocha.Context,
  options: {
    javaScript?: boolean;
    timezoneId?: string;
    locale?: string;
    phone?: boolean;
    /** the screen when not a phone (1100x900 unless given) */
    viewport?: { width: number; height: number };
    /** where the platform is (the stack's app unless given) */
    baseUrl?: string;
    /** headers of every request (a client address behind TRUST_PROXY) */
    headers?: Record<string, string>;
    /** the screenshots' folder under .artifacts/browser/ (the test's title), and a suffix for a second page of one test */
    folder?: string;
    name?: string;
  } = {},
): Promise<OpenedPage> {
  const baseUrl = options.baseUrl ?? (await stack()).baseUrl;
  const browser = await sharedBrowser();
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScript ?? true,
    // axe-core is injected as an inline script, which the pages' CSP (script-src 'self') would refuse
    bypassCSP: true,
    timezoneId: options.timezoneId ?? 'Europe/Oslo',
    locale: options.locale ?? 'nb-NO',
    ...(options.phone ? PHONE : { viewport: options.viewport ?? { width: 1100, height: 900 } }),
    ...(options.headers ? { extraHTTPHeaders: options.headers } : {}),
  });
  const page = await context.newPage();
  const origin = new URL(baseUrl).origin;
  const foreign: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol !== 'data:' && url.origin !== origin) foreign.push(req.url());
  });
  const title = folderOf(test.currentTest?.fullTitle() ?? test.test?.fullTitle() ?? 'page') + (options.name ? `-${folderOf(options.name)}` : '');
  const dir = path.join(ARTIFACTS, ...(options.folder ? [options.folder] : []), title);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  let n = 0;
  opened.push({ context, page, dir });
  return {
    page,
    context,
    baseUrl,
    async shot(name) {
      n += 1;
      await page.screenshot({ path: path.join(dir, `${String(n).padStart(2, '0')}-${name}.png`), fullPage: true });
    },
    foreignRequests: () => [...foreign],
  };
}

const opened: { context: BrowserContext; page: Page; dir: string }[] = [];

/** `before` hook of a browser test file: the embedded stack and the browser, started once. */
export async function startBrowserStack(this: Mocha.Context): Promise<void> {
  this.timeout(180_000);
  await stack();
  await sharedBrowser();
}

/** Closes the contexts the test opened (call from afterEach); a failed test first leaves a screenshot of each page as it was. */
export async function closePages(this: Mocha.Context | void): Promise<void> {
  const failed = this?.currentTest?.state === 'failed';
  while (opened.length) {
    const { context, page, dir } = opened.pop()!;
    if (failed) await page.screenshot({ path: path.join(dir, 'zz-failed.png'), fullPage: true }).catch(() => undefined);
    await context.close();
  }
}

export interface PageSalon extends BookingSalon {
  services: { id: string; name: string }[];
}

/**
 * A salon open every day 09:00-17:00 with two services in one category (60 and 30 minutes) and
 * `staff` people who do both (the first does only the first service when `staff` > 1).
 */
export async function pageSalon(options: { settings?: Partial<TenantSettings>; staff?: number; branding?: Record<string, string> } = {}): Promise<PageSalon> {
  const salon = await bookingSalon({ settings: { autoConfirm: true, cancellationHours: 0, ...options.settings }, staff: 1 });
  const db = await knex();
  const [category] = await db('service_categories').insert({ tenantId: salon.tenant.id, name: 'Hår', sortOrder: 0 }).returning('id');
  const tag = crypto.randomBytes(3).toString('hex');
  await db('services')
    .where({ id: salon.serviceId })
    .update({ name: `Dameklipp ${tag}`, categoryId: category.id });
  const second = await addService(salon.tenant.id, { name: `Brynsforming ${tag}`, duration: 30, price: 29900, categoryId: category.id, sortOrder: 1 });
  await db('resource_skills').insert({ tenantId: salon.tenant.id, resourceId: salon.staff[0].resourceId, serviceId: second.id });
  const staff = [...salon.staff];
  for (let i = 1; i < (options.staff ?? 1); i++)
    staff.push(await addStaff(salon.tenant.id, [salon.serviceId, second.id], { name: `Ingrid ${tag} ${i}`, sortOrder: i }));
  if ((options.staff ?? 1) > 1) await db('resource_skills').where({ resourceId: salon.staff[0].resourceId, serviceId: second.id }).delete();
  if (options.branding) await db('tenants').where({ id: salon.tenant.id }).update({ branding: options.branding });
  return {
    ...salon,
    staff,
    services: [
      { id: salon.serviceId, name: `Dameklipp ${tag}` },
      { id: second.id, name: `Brynsforming ${tag}` },
    ],
  };
}

/**
 * A page salon whose stylist has a colour (30 minutes of work, 35 processing at the one colour
 * station, 25 of work) booked at 10:00 the day after tomorrow (`day`), and time off every day before it, so the booking
 * page opens on that day. Its second service (30 minutes) fits inside the colour's processing.
 */
export async function processingSalon(): Promise<PageSalon & { day: string; colour: { id: string; name: string } }> {
  const salon = await pageSalon();
  const day = localDay(2);
  const db = await knex();
  const tag = crypto.randomBytes(3).toString('hex');
  const colour = await addPhasedService(salon.tenant.id, { name: `Farge ${tag}` });
  const stylist = salon.staff[0].resourceId;
  await db('resource_skills').insert({ tenantId: salon.tenant.id, resourceId: stylist, serviceId: colour.id });
  await addRoom(salon.tenant.id, [colour.id], { name: `Fargestasjon ${tag}` });
  await db('time_offs').insert({
    tenantId: salon.tenant.id,
    resourceId: stylist,
    type: 'vacation',
    startDate: localDay(0),
    endDate: localDay(1),
    isApproved: true,
  });
  const booked = await call('post', '/bookings', salon.owner.token, { startTime: at(day, '10:00'), items: [{ serviceId: colour.id, resourceId: stylist }] });
  expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
  return { ...salon, day, colour: { id: colour.id, name: `Farge ${tag}` } };
}

/** A Norwegian mobile number as a customer types it ("912 34 567") and as the platform stores it (+4791234567). */
export function randomPhone(): { typed: string; stored: string } {
  const digits = String(crypto.randomInt(90000000, 99999999));
  return { typed: `${digits.slice(0, 3)} ${digits.slice(3, 5)} ${digits.slice(5)}`, stored: `+47${digits}` };
}

/** Every time of a salon-local day taken: one booking over the staff member's whole working day (09:00-17:00), its time held as the booking service holds it (one work segment). */
export async function fillDay(salon: PageSalon, date: string, staff = salon.staff[0]): Promise<void> {
  const db = await knex();
  const start = new Date(at(date, '09:00'));
  const end = new Date(at(date, '17:00'));
  const [booking] = await db('bookings')
    .insert({
      tenantId: salon.tenant.id,
      resourceId: staff.resourceId,
      startTime: start,
      endTime: end,
      status: 'CONFIRMED',
      source: 'ADMIN',
      paymentMode: 'IN_PERSON',
      totalAmount: 0,
      contactName: 'Heldag',
      metadata: { displaySnapshot: { timezone: 'Europe/Oslo', currency: 'NOK', locale: 'nb-NO' } },
    })
    .returning('id');
  const [item] = await db('booking_items')
    .insert({
      bookingId: booking.id,
      tenantId: salon.tenant.id,
      serviceId: salon.serviceId,
      resourceId: staff.resourceId,
      startTime: start,
      endTime: end,
      duration: 480,
      price: 0,
    })
    .returning('id');
  await db('booking_segments').insert({
    tenantId: salon.tenant.id,
    bookingId: booking.id,
    bookingItemId: item.id,
    resourceType: 'staff',
    resourceId: staff.resourceId,
    kind: 'WORK',
    phaseIndex: 0,
    startTime: start,
    endTime: end,
  });
}

/** Sets the platform's bookingUiVersion (the admin route). */
export async function useBookingUi(version: 'v1' | 'v2'): Promise<void> {
  const admin = await platformAdmin();
  const res = await call('patch', '/superadmin/platform-settings', admin.token, { bookingUiVersion: version });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
}

export async function bookingsOf(tenantId: string) {
  return (await knex())('bookings').where({ tenantId }).orderBy('createdAt');
}

/** "Neste" of the current step (the summary's "Endre" buttons have other names). */
export const NEXT = { name: 'Neste', exact: true } as const;

/** The v2 steps from a loaded booking page up to the contact form, with the first free time. */
export async function chooseUpToContact(opened: OpenedPage, services: string[], staff?: string): Promise<void> {
  const { page, shot } = opened;
  for (const name of services) await page.getByLabel(name).check();
  await shot('services');
  await page.getByRole('button', NEXT).click();
  await waitForFocus(page.getByRole('heading', { level: 2, name: 'Velg behandler' }));
  if (staff) await page.getByLabel(staff).check();
  await shot('staff');
  await page.getByRole('button', NEXT).click();
  await page.locator('.times button').first().waitFor();
  await shot('times');
  await page.locator('.times button').first().click();
  await waitForFocus(page.getByRole('heading', { level: 2, name: 'Dine opplysninger' }));
}

/** Waits until the element has the keyboard focus (the step's heading takes it when a step opens). */
export async function waitForFocus(locator: Locator, timeout = 5000): Promise<void> {
  const handle = await locator.elementHandle({ timeout });
  await locator
    .page()
    .waitForFunction((el) => (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement === el, handle, { timeout });
}

const AXE = require.resolve('axe-core/axe.min.js');

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** The serious and critical findings of an axe-core scan (WCAG 2.2 A and AA, best practice) of the page as it is now. */
export async function scan(page: Page, where: string): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    });
    return result.violations;
  })) as Finding[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => `${n.target.join(' ')} [${n.failureSummary ?? ''}]`).join(', ')}`);
}
