// Listening with a one-line answer when the port is taken, instead of a stack trace.
import net from 'node:net';
import type http from 'node:http';

export class PortBusyError extends Error {
  constructor(
    readonly variable: string,
    readonly port: number,
  ) {
    super(`port ${port} is already in use (${variable}); stop what uses it or set ${variable} to another port`);
  }
}

export function listenOrExplain(server: http.Server | net.Server, port: number, variable: string, host?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE' ? new PortBusyError(variable, port) : err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** True when something already listens on the port (checked before anything is started). */
export function portInUse(port: number, host = '0.0.0.0'): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE' || err.code === 'EACCES'));
    probe.listen(port, host, () => probe.close(() => resolve(false)));
  });
}
