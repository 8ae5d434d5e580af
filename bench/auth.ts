// npm run bench:auth - what the access-token check costs every authenticated request
// (docs/performance.md#the-access-token-check). The embedded stack (embedded Postgres, the real
// Express app on a real port, clients in a worker thread, the in-memory RecordingSignaller) answers
// the same public read twice: without a token, and with a staff access token, which makes the api
// check the token's user and session on the way in. Prints p50/p95 of each, sequential and 20 in
// flight, and the api's CPU (its event loop's thread, from /proc) per request.
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { createApp } from '../api/app';
import { startBenchPlatform } from './support/bench-platform';
import { requestClient } from './support/request-client';
import { mainThreadCpuMs } from './support/proc-cpu';

const CLIENT = `
const { parentPort } = require('node:worker_threads');
async function one(r) {
  const t0 = performance.now();
  const res = await fetch(r.url, r.init);
  await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status };
}
parentPort.on('message', async ({ id, requests, lanes }) => {
  const results = [];
  let next = 0;
  await Promise.all(Array.from({ length: lanes }, async () => { while (next < requests.length) results.push(await one(requests[next++])); }));
  parentPort.postMessage({ id, results });
});`;

interface Req {
  url: string;
  init?: { headers: Record<string, string> };
}
type Res = { ms: number; status: number };

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main(): Promise<void> {
  const { platform, stop } = await startBenchPlatform('auth', {
    NODE_ENV: 'development',
    RATE_LIMIT_GLOBAL: '100000000',
    RATE_LIMIT_AUTH: '1000',
    PASSWORD_HASH_ROUNDS: '4',
  });
  const app = createApp(platform.deps, { validateResponses: false });
  const server = app.listen(0);
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  const client = new Worker(CLIENT, { eval: true });
  const batch = requestClient<Req, Res, { lanes: number }>(client);
  try {
    const slug = `bench-auth-${Date.now().toString(36)}`;
    const registered = await fetch(`${base}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ salonName: 'Bench auth', slug, email: `${slug}@example.test`, password: 'bench-auth-password' }),
    });
    if (registered.status !== 201) throw new Error(`register ${registered.status} ${await registered.text()}`);
    const token = ((await registered.json()) as { data: { accessToken: string } }).data.accessToken;
    const url = `${base}/public/tenants/${slug}`;
    const plain: Req = { url };
    const signedIn: Req = { url, init: { headers: { authorization: `Bearer ${token}` } } };
    const N = Number(process.env.BENCH_AUTH_REQUESTS ?? 3000);
    const results: Record<string, unknown> = {};
    for (const [name, req] of [
      ['anonymous', plain],
      ['signed in', signedIn],
    ] as const) {
      await batch(
        Array.from({ length: 300 }, () => req),
        { lanes: 1 },
      ); // warm-up
      for (const lanes of [1, 20]) {
        const cpu0 = mainThreadCpuMs(process.pid);
        const res = await batch(
          Array.from({ length: N }, () => req),
          { lanes },
        );
        const cpu = mainThreadCpuMs(process.pid) - cpu0;
        const bad = res.find((r) => r.status !== 200);
        if (bad) throw new Error(`${name}: ${bad.status}`);
        const ms = res.map((r) => r.ms);
        results[`${name}, ${lanes} in flight`] = {
          requests: N,
          p50: +pct(ms, 50).toFixed(3),
          p95: +pct(ms, 95).toFixed(3),
          apiCpuMsPerRequest: +(cpu / N).toFixed(3),
        };
      }
    }
    console.log(JSON.stringify(results, null, 2));
  } finally {
    await client.terminate();
    server.close();
    await stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
