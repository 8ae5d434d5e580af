// A TCP proxy in front of a server, for the fault tests: `cut()` makes the server unreachable (every
// open connection is dropped and new ones are refused) and `hang()` makes it a server that never
// answers (every open connection is dropped, new ones are accepted and then get nothing), until
// `restore()` forwards again on the same port. The server behind it keeps running and keeps its state.
import net from 'node:net';

export interface TcpProxy {
  /** the address clients are given */
  address: string;
  cut(): Promise<void>;
  hang(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let port = 0;
  let server: net.Server | undefined;
  let hanging = false;

  const track = (socket: net.Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const listening = net.createServer((client) => {
        track(client);
        if (hanging) {
          // accepted, read and never answered
          client.on('error', () => client.destroy());
          client.resume();
          return;
        }
        const upstream = net.connect(target.port, target.host);
        track(upstream);
        for (const socket of [client, upstream]) {
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as net.AddressInfo).port;
        server = listening;
        resolve();
      });
    });

  const dropAll = () => {
    for (const socket of open) socket.destroy();
  };

  const stop = () =>
    new Promise<void>((resolve) => {
      const closing = server;
      server = undefined;
      dropAll();
      if (closing) closing.close(() => resolve());
      else resolve();
    });

  await listen();
  return {
    address: `127.0.0.1:${port}`,
    cut: stop,
    async hang() {
      hanging = true;
      dropAll();
      if (!server) await listen();
    },
    async restore() {
      hanging = false;
      dropAll();
      if (!server) await listen();
    },
    close: stop,
  };
}
