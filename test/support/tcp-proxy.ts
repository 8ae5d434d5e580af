// A TCP proxy in front of a server, for the fault tests: `cut()` makes the server unreachable (every
// open connection is dropped and new ones are refused) until `restore()` listens on the same port
// again. The server behind it keeps running and keeps its state.
import net from 'node:net';

export interface TcpProxy {
  /** the address clients are given */
  address: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let port = 0;
  let server: net.Server;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          open.add(socket);
          socket.on('close', () => open.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of open) socket.destroy();
    });

  await listen();
  return { address: `127.0.0.1:${port}`, cut: stop, restore: listen, close: stop };
}
