// Every request gets an id: the caller's X-Request-Id when it is a sane token (a load balancer's or
// a front-end's), else a new UUID. It is echoed in the X-Request-Id response header, written on the
// request's log line, and put into the async context so every log line written while the request is
// handled carries it (integrations/logger.ts). No child logger per request: making one was about 3%
// of an unknown route's api CPU (bench:e2e floor profile), for one line.
import crypto from 'node:crypto';
import type { RequestHandler } from 'express';
import { logContext, type Logger } from '../../integrations/logger';

declare module 'express-serve-static-core' {
  interface Request {
    id?: string;
  }
}

const SANE_ID = /^[\w.:@/+=-]{1,128}$/;

export function requestId(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const id = incoming && SANE_ID.test(incoming) ? incoming : crypto.randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ requestId: id, method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    logContext.run({ requestId: id }, next);
  };
}

/**
 * Re-enters the request's log context. Body parsing resumes on the socket's stream events, which
 * lose the async context; mounting this right after the body parser restores it for the rest.
 */
export function requestLogContext(): RequestHandler {
  return (req, _res, next) => (req.id ? logContext.run({ requestId: req.id }, next) : next());
}
