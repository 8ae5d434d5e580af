// The rate limits of docs/rules/limits.md#rate-limits, with the X-RateLimit-* headers and the 429 envelope.
// Counters live where the app's `rateLimitStore` (deps, set on app.locals by createApp) keeps them:
// in Postgres for every process started by bin/ (so all api processes share one budget per IP),
// in memory when no store is given.
import { isIPv4 } from 'node:net';
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import { errors } from '../../domain/errors';

/** Builds the store of one named limiter ('global', 'auth', 'booking-create'). */
export type RateLimitStoreFactory = (name: string) => Store;

export const RATE_LIMIT_STORE_LOCAL = 'rateLimitStore';

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * The client's address as express-rate-limit's own key has it (ipKeyGenerator: an IPv4 address as
 * it is, an IPv4-mapped IPv6 address as its IPv4 address, any other IPv6 address as its /56
 * network), without parsing an IPv4 or IPv4-mapped address as IPv6: that parse (ip-address) was
 * about 4% of an unknown route's api CPU (bench:e2e floor profile).
 */
export function clientAddressKey(req: Request): string {
  const ip = req.ip ?? '';
  if (isIPv4(ip)) return ip;
  const mapped = MAPPED_IPV4.exec(ip);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  return ipKeyGenerator(ip);
}

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
        keyGenerator: per === 'user' ? (req) => (req.principal ? `user:${req.principal.userId}` : req.customer ? `customer:${req.customer.accountId}` : clientAddressKey(req)) : clientAddressKey,
        // built once, lazily, on the first request (so routers need not carry the store)
        validate: { creationStack: false },
        handler: (_req, _res, next) => next(errors.rateLimited()),
      });
    }
    return limiter(req, res, next);
  };
}
