// Spec 8 rate limits with the X-RateLimit-* headers and the spec's 429 envelope.
import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { errors } from '../../domain/errors';

/** Each limiter keeps its own in-memory counters per client IP (one api process per deployment for now). */
export function rateLimiter(limit: number, windowMs: number): RequestHandler {
  return rateLimit({
    windowMs,
    limit,
    legacyHeaders: true,
    standardHeaders: false,
    handler: (_req, _res, next) => next(errors.rateLimited()),
  });
}
