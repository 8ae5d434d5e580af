// helmet's response headers (contentSecurityPolicy off: the customer pages set their own). They do not
// depend on the request, so helmet runs once at start-up against a recording response and every
// request gets the recorded headers in one step: helmet's chain of a dozen middlewares cost each
// request as much as the rest of the floor's header work together (bench:e2e floor profile).
import type { RequestHandler } from 'express';
import helmet from 'helmet';

export function securityHeaders(): RequestHandler {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => set.push([name, String(value)]),
    removeHeader: (name: string) => removed.push(name),
  };
  let failed: unknown;
  helmet({ contentSecurityPolicy: false })({} as never, recorder as never, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed;
  return (_req, res, next) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}
