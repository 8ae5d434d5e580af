// Every POST, PUT, PATCH and DELETE made with an impersonation token is audited (method,
// path, status, SHA-256 of the body as received; never the body). GETs and the end call are not.
// The row is written before the response goes out, so when the client sees the answer its audit
// entry exists. A failed audit write is logged; it never changes the answer.
import type { RequestHandler, Response } from 'express';
import type { Knex } from 'knex';
import type { Logger } from '../../integrations/logger';
import { recordMutation } from '../../domain/impersonation/impersonation.service';

const AUDITED = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const IMPERSONATION_END_PATH = '/api/superadmin/impersonate/end';

export function impersonationAudit(knex: Knex, logger: Logger): RequestHandler {
  return (req, res, next) => {
    const imp = req.principal?.impersonation;
    const path = req.originalUrl.split('?')[0];
    if (!imp || !AUDITED.has(req.method) || path === IMPERSONATION_END_PATH) return next();
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
