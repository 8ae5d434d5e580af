// The rate limits of docs/rules/limits.md#rate-limits, with the X-RateLimit-* headers and the 429 envelope.
// Counters live where the app's `rateLimitStore` (deps, set on app.locals by createApp) keeps them:
// in Postgres for every process started by bin/ (so all api processes share one budget per IP),
// in memory when no store is given.
import type { RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import { errors } from '../../domain/errors';

/** Builds the store of one named limiter ('global', 'auth', 'booking-create'). */
export type RateLimitStoreFactory = (name: string) => Store;

export const RATE_LIMIT_STORE_LOCAL = 'rateLimitStore';

/**
 * The store is looked up on the app at the first request, so routers need not carry it. `name`
 * keeps the counters of different limiters apart (two limiters with the same name share a budget).
 */
export function rateLimiter(limit: number, windowMs: number, name = `limit-${limit}-${windowMs}`, per: 'ip' | 'user' = 'ip'): RequestHandler {
  let limiter: RequestHandler | undefined;
  return (req, res, next) => {
    if (!limiter) {
      const factory = req.app.locals[RATE_LIMIT_STORE_LOCAL] as RateLimitStoreFactory | undefined;
      limiter = rateLimit({
        windowMs,
        limit,
        legacyHeaders: true,
        standardHeaders: false,
        ...(factory ? { store: factory(name) } : {}),
        // per user (the upload limits): the signed-in user, else the client address
        ...(per === 'user' ? { keyGenerator: (req) => (req.principal ? `user:${req.principal.userId}` : req.customer ? `customer:${req.customer.accountId}` : ipKeyGenerator(req.ip ?? '')) } : {}),
        // built once, lazily, on the first request (so routers need not carry the store)
        validate: { creationStack: false },
        handler: (_req, _res, next) => next(errors.rateLimited()),
      });
    }
    return limiter(req, res, next);
  };
}
