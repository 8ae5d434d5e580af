// npm run bench:page - the customer booking page's first load, v1 and v2, on the embedded stack
// (embedded Postgres, the demo salon, the real app on a loopback port with NODE_ENV=production) in
// headless Chromium (Debian's, through playwright-core), each run in a fresh browser context (cold
// cache). Per version and network/CPU profile it prints the median of RUNS runs of:
//   LCP      largest contentful paint (ms from navigation start)        targets: < 1000 loopback, < 2500 throttled
//   ready    v2 only: when the interactive page has taken over (performance mark 'booking-ready')
//   js       compressed JavaScript bytes on the wire (headers included)  target v2: <= 50 kB
//   total    all bytes on the wire; requests: how many; foreign: requests to any other host (target 0)
// Profiles (Chrome DevTools Protocol through playwright-core's CDP session):
//   loopback   no throttling
//   throttled  4x CPU slowdown (Emulation.setCPUThrottlingRate) and slow 3G (Network.emulateNetworkConditions:
//              400 ms latency, 400 kbit/s down, 400 kbit/s up)
// RUNS (default 5) sets the runs per row.
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { createApp } from '../api/app';
import { startBenchPlatform } from './support/bench-platform';
import { closeSharedBrowser, sharedBrowser } from '../test/support/chromium';
import { median, paintTimings, recordFirstLoad } from './support/first-load';
import { seedDemoSalon, DEMO_SLUG } from '../domain/demo/demo-salon';
import { updatePlatformSettings } from '../domain/platform/platform-settings.service';

const RUNS = Number(process.env.RUNS ?? 5);

interface Profile {
  name: 'loopback' | 'throttled';
  cpu: number;
  network?: { latency: number; downloadThroughput: number; uploadThroughput: number };
}

const PROFILES: Profile[] = [
  { name: 'loopback', cpu: 1 },
  // slow 3G: 400 ms latency, 400 kbit/s each way (bytes per second for CDP)
  { name: 'throttled', cpu: 4, network: { latency: 400, downloadThroughput: (400 * 1000) / 8, uploadThroughput: (400 * 1000) / 8 } },
];

interface Run {
  lcp: number;
  ready: number | null;
  jsBytes: number;
  totalBytes: number;
  requests: number;
  foreign: string[];
}

async function measure(browser: Browser, url: string, profile: Profile): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, locale: 'nb-NO', timezoneId: 'Europe/Oslo' });
  const page = await context.newPage();
  const load = await recordFirstLoad(context, page, new URL(url).origin, profile);
  await page.goto(url, { waitUntil: 'networkidle' });
  const { lcp, marks } = await paintTimings(page, ['booking-ready']);
  await context.close();
  return { lcp, ready: marks['booking-ready'], ...load.result() };
}

async function main(): Promise<void> {
  const { platform, stop } = await startBenchPlatform('page', { RATE_LIMIT_GLOBAL: '1000000' });
  await seedDemoSalon(platform.knex, { passwordHashRounds: 4 });
  const app = createApp(platform.deps);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${DEMO_SLUG}`;
  const browser = await sharedBrowser();
  const rows: Record<string, string | number>[] = [];
  try {
    for (const version of ['v1', 'v2'] as const) {
      await updatePlatformSettings(platform.knex, { bookingUiVersion: version }, null);
      await measure(browser, url, PROFILES[0]); // warm the server (first render, image of the catalogue)
      for (const profile of PROFILES) {
        const runs: Run[] = [];
        for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, url, profile));
        const first = runs[0];
        const target = profile.name === 'loopback' ? 1000 : 2500;
        const lcp = median(runs.map((r) => r.lcp));
        const ready = runs.every((r) => r.ready !== null) ? median(runs.map((r) => r.ready!)) : null;
        rows.push({
          version,
          profile: profile.name,
          'LCP ms': Math.round(lcp),
          'LCP target': `< ${target} ${lcp < target ? 'ok' : 'MISSED'}`,
          'ready ms': ready === null ? '-' : Math.round(ready),
          'JS kB': (first.jsBytes / 1000).toFixed(1),
          'total kB': (first.totalBytes / 1000).toFixed(1),
          requests: first.requests,
          foreign: runs.reduce((n, r) => n + r.foreign.length, 0),
        });
      }
    }
  } finally {
    await closeSharedBrowser().catch(() => undefined);
    server.close();
    await stop();
  }
  console.log(`booking page first load (${url.replace(/\d+\/.*/, '<port>/' + DEMO_SLUG)}), median of ${RUNS} cold runs per row`);
  console.table(rows);
  const v2 = rows.filter((r) => r.version === 'v2');
  console.log(
    `v2 JavaScript on first load: ${v2[0]['JS kB']} kB compressed (target <= 50 kB); requests to other hosts: ${rows.reduce((n, r) => n + Number(r.foreign), 0)} (target 0)`,
  );
  console.log(
    `machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, Node ${process.version}, Chromium ${browser.version()}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
