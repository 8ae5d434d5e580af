// A path under /api that no operation of openapi.yaml and no route has is answered 404
// ROUTE_NOT_FOUND right after the middleware every response needs (request id and log line,
// metrics, security headers, CORS, the global rate limit), instead of after the rest of the chain
// (docs/rules/errors.md#unknown-routes). Only a request that nothing else in the chain could
// refuse first takes this way: no credentials (the access and subscription gates answer those), no
// body and a plain path without a query (the input checks answer those); any other request goes
// the long way and gets exactly what it got before.
import type { RequestHandler } from 'express';
import { AppError } from '../../domain/errors';
import { sendError } from './error-handler';
import type { RouteLookup } from './route-lookup';

/** What the contract validator answers for a path it does not know (error-handler.ts). */
const ROUTE_NOT_FOUND = new AppError(404, 'ROUTE_NOT_FOUND', 'No such route');

/** Path characters that are themselves (no percent-encoding, no fragment, no query). */
const PLAIN_PATH = /^\/[\w\-.~!$&'()*+,;=:@/]*$/;

export interface UnknownRouteOptions {
  /** the contract's base path: the validator checks every path that starts with it */
  basePath: string;
  /** paths the validator leaves alone (the API docs) */
  unvalidated: RegExp;
}

export function answerUnknownRoutes(lookup: RouteLookup, { basePath, unvalidated }: UnknownRouteOptions): RequestHandler {
  return (req, res, next) => {
    const { headers } = req;
    const fast =
      headers.authorization === undefined &&
      headers.cookie === undefined &&
      headers['content-length'] === undefined &&
      headers['transfer-encoding'] === undefined &&
      req.url.startsWith(basePath) &&
      PLAIN_PATH.test(req.url) &&
      !unvalidated.test(req.url) &&
      !lookup(req).pathKnown;
    if (fast) return sendError(res, ROUTE_NOT_FOUND);
    next();
  };
}
