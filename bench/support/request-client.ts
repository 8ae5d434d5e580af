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
