// The api's HTTP server, shared by bin/api (production), bin/dev (npm start) and the tests that need
// the real server rather than the express app: client errors answered in the envelope, a busy port
// explained in one line, and a graceful close.
import http from 'node:http';
import type express from 'express';
import { createApp } from '../api/app';
import { answerClientErrors } from '../api/client-errors';
import type { AppDeps } from '../api/deps';
import { listenOrExplain } from './ports';

export async function startApi(deps: AppDeps, port: number, app: express.Express = createApp(deps)): Promise<http.Server> {
  const server = http.createServer(app);
  answerClientErrors(server);
  await listenOrExplain(server, port, 'PORT');
  return server;
}

/** Resolves when the server has closed; in-flight requests finish first, idle keep-alives are dropped. */
export function closeServer(server: http.Server, timeoutMs: number): Promise<'closed' | 'timeout'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve('timeout');
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve('closed');
    });
    server.closeIdleConnections();
  });
}
