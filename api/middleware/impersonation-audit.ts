// Every POST, PUT, PATCH and DELETE made with an impersonation token is audited (method,
// path, status, SHA-256 of the body as received; never the body). GETs and the end call are not, and
// nothing made with the admin's own token (the start call) is: docs/rules/auth.md#impersonation.
// The row is written before the response goes out, so when the client sees the answer its audit
// entry exists. A failed audit write is logged; it never changes the answer.
import type { Request, RequestHandler, Response } from 'express';
import type { Db } from '../../db/db-handle';
import type { Logger } from '../../integrations/logger';
import { recordMutation } from '../../domain/impersonation/impersonation.service';

const AUDITED = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Express routes paths case-insensitively and with or without a trailing slash: so does this test
const END_CALL = /^\/api\/superadmin\/impersonate\/end\/?$/i;

/** The end call, in any spelling Express routes to it: never audited, and an ended session's token still reaches it. */
export function isImpersonationEndCall(req: Request): boolean {
  return req.method === 'POST' && END_CALL.test(req.originalUrl.split('?')[0]);
}

export function impersonationAudit(knex: Db, logger: Logger): RequestHandler {
  return (req, res, next) => {
    const imp = req.principal?.impersonation;
    const path = req.originalUrl.split('?')[0];
    if (!imp || !AUDITED.has(req.method) || isImpersonationEndCall(req)) return next();
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    let recorded = false;
    res.end = ((...args: unknown[]) => {
      if (recorded) return end(...args);
      recorded = true;
      recordMutation(knex, imp.sessionId, { method: req.method, path, statusCode: res.statusCode, body: req.rawBody })
        .catch((err: unknown) => logger.error({ err, sessionId: imp.sessionId }, 'impersonation audit write failed'))
        .finally(() => end(...args));
      return res;
    }) as Response['end'];
    next();
  };
}
