// The benchmarks' HTTP clients run in a worker thread of their own, so the client's CPU does not
// queue behind the measuring thread's. This is the measuring side: each call posts a batch of
// requests with its options and resolves with that batch's results, matched by id.
import type { Worker } from 'node:worker_threads';

export function requestClient<Req, Res, Options extends object>(client: Worker): (requests: Req[], options: Options) => Promise<Res[]> {
  let nextId = 0;
  return (requests, options) => {
    const id = nextId++;
    return new Promise((resolve) => {
      const onMessage = (msg: { id: number; results: Res[] }) => {
        if (msg.id !== id) return;
        client.off('message', onMessage);
        resolve(msg.results);
      };
      client.on('message', onMessage);
      client.postMessage({ id, requests, ...options });
    });
  };
}

/**
 * The load generator of bench:bookings and bench:availability, run in a worker thread (its own event
 * loop), so the clients do not compete with the API for the API's event loop, as real clients would
 * not. Each message is a batch: sent one after another (`sequential`), `lanes` at a time, or all at once.
 */
export const FETCH_CLIENT = `
const { parentPort } = require('node:worker_threads');
async function one(r) {
  const t0 = performance.now();
  const res = await fetch(r.url, r.init);
  const body = await res.json();
  return { ms: performance.now() - t0, status: res.status, body };
}
parentPort.on('message', async ({ id, requests, sequential, lanes }) => {
  const results = [];
  if (sequential) for (const r of requests) results.push(await one(r));
  else if (lanes) {
    let next = 0;
    await Promise.all(Array.from({ length: lanes }, async () => { while (next < requests.length) results.push(await one(requests[next++])); }));
  } else results.push(...(await Promise.all(requests.map(one))));
  parentPort.postMessage({ id, results });
});`;
