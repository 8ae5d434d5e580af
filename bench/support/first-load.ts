// What a page's first load costs on the wire, for the browser benchmarks (bench/page.ts,
// bench/desk.ts): every request the page makes, read through the Chrome DevTools Protocol, with the
// cache off and an optional CPU slowdown and network profile. `result()` after the load: compressed
// JavaScript and all bytes (headers included), how many requests, which went to another host.
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

export interface Throttling {
  cpu: number;
  network?: { latency: number; downloadThroughput: number; uploadThroughput: number };
}

export interface FirstLoad {
  jsBytes: number;
  totalBytes: number;
  requests: number;
  foreign: string[];
}

export async function recordFirstLoad(context: BrowserContext, page: Page, origin: string, throttling: Throttling): Promise<{ result(): FirstLoad }> {
  const cdp: CDPSession = await context.newCDPSession(page);
  const types = new Map<string, string>();
  const sizes = new Map<string, number>();
  const foreign: string[] = [];
  let requests = 0;
  cdp.on('Network.requestWillBeSent', (e: { request: { url: string } }) => {
    requests += 1;
    const target = new URL(e.request.url);
    if (target.protocol !== 'data:' && target.origin !== origin) foreign.push(e.request.url);
  });
  cdp.on('Network.responseReceived', (e: { requestId: string; type: string }) => types.set(e.requestId, e.type));
  cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => sizes.set(e.requestId, e.encodedDataLength));
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (throttling.network) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...throttling.network });
  if (throttling.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttling.cpu });
  return {
    result() {
      let jsBytes = 0;
      let totalBytes = 0;
      for (const [id, size] of sizes) {
        totalBytes += size;
        if (types.get(id) === 'Script') jsBytes += size;
      }
      return { jsBytes, totalBytes, requests, foreign: [...foreign] };
    },
  };
}

/** The largest contentful paint so far, and when the named performance marks were last set (null: never), in ms from navigation start. */
export async function paintTimings(page: Page, marks: string[] = []): Promise<{ lcp: number; marks: Record<string, number | null> }> {
  return page.evaluate(
    (names) =>
      new Promise<{ lcp: number; marks: Record<string, number | null> }>((resolve) => {
        const g = globalThis as unknown as {
          PerformanceObserver: new (cb: (list: { getEntries(): { startTime: number }[] }) => void) => { observe(o: unknown): void };
          performance: { getEntriesByName(n: string): { startTime: number }[] };
        };
        let lcp = 0;
        new g.PerformanceObserver((list) => {
          for (const entry of list.getEntries()) lcp = Math.max(lcp, entry.startTime);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => resolve({ lcp, marks: Object.fromEntries(names.map((n) => [n, g.performance.getEntriesByName(n).at(-1)?.startTime ?? null])) }), 50);
      }),
    marks,
  );
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
