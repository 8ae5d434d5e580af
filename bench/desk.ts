// npm run bench:desk - the front desk's first load and its busiest day, on the embedded stack
// (embedded Postgres, the real app on a loopback port with NODE_ENV=production) in headless Chromium
// (Debian's, through playwright-core). The salon: 10 staff, 6 rooms and stations, 200 bookings on
// the day (test/support/busy-day.ts). Each run is a fresh browser context (cold cache) whose session
// cookies come from the sign-in route, opening /desk on that day at a 1024x768 tablet. Per profile it
// prints the median of RUNS runs of:
//   JS       compressed JavaScript bytes on the wire (headers included)    target: <= 150 kB
//   LCP      largest contentful paint (ms from navigation start)            target: < 1000 on loopback
//   draw     from the day's data arriving to the day drawn (the desk's performance marks
//            desk-day-data and desk-day-drawn: the render, its layout and the next frame)  target: < 200 ms
//   ready    navigation start to the day drawn
//   total    all bytes on the wire; requests: how many; foreign: requests to any other host (target 0)
// and once, the axe-core scan of the drawn day and of a booking's card (WCAG 2.2 A and AA): serious
// and critical findings (target 0).
// Profiles (Chrome DevTools Protocol): loopback (none), and 4x CPU slowdown (Emulation.setCPUThrottlingRate).
// RUNS (default 5) sets the runs per profile.
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { createApp } from '../api/app';
import { startBenchPlatform } from './support/bench-platform';
import { closeSharedBrowser, sharedBrowser } from '../test/support/chromium';
import { median, paintTimings, recordFirstLoad } from './support/first-load';
import { scan } from '../test/browser/support';
import { seedBusyDay, BUSY_BOOKINGS, BUSY_ROOMS, BUSY_STAFF } from '../test/support/busy-day';
import { utcToLocalDate } from '../domain/time/salon-time.rules';

const RUNS = Number(process.env.RUNS ?? 5);

interface Profile {
  name: 'loopback' | '4x CPU';
  cpu: number;
}

const PROFILES: Profile[] = [
  { name: 'loopback', cpu: 1 },
  { name: '4x CPU', cpu: 4 },
];

interface Run {
  lcp: number;
  draw: number;
  ready: number;
  jsBytes: number;
  totalBytes: number;
  requests: number;
  foreign: string[];
}

async function signedInContext(browser: Browser, base: string, login: { email: string; password: string }) {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'nb-NO', timezoneId: 'Europe/Oslo', bypassCSP: true });
  // the cookies of a cookie session, as the desk's own sign-in gets them (no token in the answer)
  const signIn = await context.request.post(`${base}/api/auth/cookie-session`, { data: login });
  if (!signIn.ok()) throw new Error(`sign-in failed: ${signIn.status()} ${await signIn.text()}`);
  return context;
}

async function dayDrawn(page: Page, date: string): Promise<void> {
  await page.waitForFunction(
    (d) => (globalThis as unknown as { document: { documentElement: { dataset: Record<string, string> } } }).document.documentElement.dataset.dayDrawn === d,
    date,
    { timeout: 60_000 },
  );
}

async function measure(browser: Browser, base: string, login: { email: string; password: string }, date: string, profile: Profile): Promise<Run> {
  const context = await signedInContext(browser, base, login);
  const page = await context.newPage();
  const load = await recordFirstLoad(context, page, new URL(base).origin, profile);
  await page.goto(`${base}/desk?date=${date}`);
  await dayDrawn(page, date);
  const { lcp, marks } = await paintTimings(page, ['desk-day-data', 'desk-day-drawn']);
  await context.close();
  return { lcp, draw: marks['desk-day-drawn']! - marks['desk-day-data']!, ready: marks['desk-day-drawn']!, ...load.result() };
}

async function accessibility(browser: Browser, base: string, login: { email: string; password: string }, date: string): Promise<string[]> {
  const context = await signedInContext(browser, base, login);
  const page = await context.newPage();
  await page.goto(`${base}/desk?date=${date}`);
  await dayDrawn(page, date);
  const findings = await scan(page, 'the day');
  await page.locator('[data-booking]').first().click();
  await page.getByRole('dialog').getByRole('heading', { level: 3 }).first().waitFor();
  findings.push(...(await scan(page, "a booking's card")));
  await context.close();
  return findings;
}

async function main(): Promise<void> {
  const { platform, stop } = await startBenchPlatform('desk', { RATE_LIMIT_GLOBAL: '1000000', RATE_LIMIT_AUTH: '1000000' });
  const date = utcToLocalDate(new Date(), 'Europe/Oslo');
  const busy = await seedBusyDay(platform.knex, date);
  const app = createApp(platform.deps);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await sharedBrowser();
  const rows: Record<string, string | number>[] = [];
  let findings: string[] = [];
  try {
    await measure(browser, base, busy.owner, date, PROFILES[0]); // warm the server
    for (const profile of PROFILES) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, base, busy.owner, date, profile));
      const first = runs[0];
      const lcp = median(runs.map((r) => r.lcp));
      const draw = median(runs.map((r) => r.draw));
      rows.push({
        profile: profile.name,
        'JS kB': (first.jsBytes / 1000).toFixed(1),
        'LCP ms': Math.round(lcp),
        'LCP target': profile.cpu === 1 ? `< 1000 ${lcp < 1000 ? 'ok' : 'MISSED'}` : '-',
        'draw ms': Math.round(draw),
        'draw target': profile.cpu === 1 ? `< 200 ${draw < 200 ? 'ok' : 'MISSED'}` : '-',
        'ready ms': Math.round(median(runs.map((r) => r.ready))),
        'total kB': (first.totalBytes / 1000).toFixed(1),
        requests: first.requests,
        foreign: runs.reduce((n, r) => n + r.foreign.length, 0),
      });
    }
    findings = await accessibility(browser, base, busy.owner, date);
  } finally {
    await closeSharedBrowser().catch(() => undefined);
    server.close();
    await stop();
  }
  console.log(
    `front desk first load of a day of ${BUSY_STAFF} staff, ${BUSY_ROOMS} rooms and ${busy.bookings} bookings (1024x768), median of ${RUNS} cold runs per row`,
  );
  console.table(rows);
  const loopback = rows[0];
  console.log(`JavaScript on first load: ${loopback['JS kB']} kB compressed (target <= 150 kB); LCP ${loopback['LCP ms']} ms on loopback (target < 1000)`);
  console.log(
    `the day of ${BUSY_BOOKINGS} bookings drawn ${loopback['draw ms']} ms after its data arrived (target < 200); requests to other hosts: ${rows.reduce((n, r) => n + Number(r.foreign), 0)} (target 0)`,
  );
  console.log(
    `axe-core (WCAG 2.2 A and AA, the day and a booking's card): ${findings.length} serious or critical findings (target 0)${findings.length ? `\n  ${findings.join('\n  ')}` : ''}`,
  );
  console.log(
    `machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, Node ${process.version}, Chromium ${browser.version()}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  if (findings.length) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
