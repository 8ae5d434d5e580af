// A dev sandbox's HTTP server started on loopback (or `host`): on `port`, or on a free one when none is given.
import type { Server } from 'node:http';

/** Listens on `host`:`port` (any free port when none is given) and gives the server's base URL. */
export async function listen(server: Server, host: string, port?: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port ?? 0, host, () => resolve());
  });
  const address = server.address();
  return `http://${host}:${typeof address === 'object' && address ? address.port : port}`;
}
