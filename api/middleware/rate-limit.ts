// The rate limits of docs/rules/limits.md#rate-limits, with the X-RateLimit-* headers and the 429 envelope.
// Counters live where the app's `rateLimitStore` (deps, set on app.locals by createApp) keeps them:
// in Postgres for every process started by bin/ (so all api processes share one budget per IP),
// in memory when no store is given.
import { isIPv4 } from 'node:net';
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, MemoryStore, type Options, type Store } from 'express-rate-limit';
import { errors } from '../../domain/errors';

/** Builds the store of one named limiter ('global', 'auth', 'booking-create', 'booking-move'). */
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

/** Per user (the upload limits): the signed-in user, else the client address. */
function userKey(req: Request): string {
  if (req.principal) return `user:${req.principal.userId}`;
  return req.customer ? `customer:${req.customer.accountId}` : clientAddressKey(req);
}

/** Per booking (its moves): the booking the route names, whoever asks. */
export function bookingKey(req: Request): string {
  return `booking:${String(req.params.id)}`;
}

/** The two limits of a customer's moves (docs/rules/limits.md#rate-limits): per client address and per booking, each its own count, shared by the API and the manage page. */
export function moveLimiters(rateLimit: { bookingMove: number; bookingMovePerBooking: number; windowMs: number }): RequestHandler[] {
  return [
    rateLimiter(rateLimit.bookingMove, rateLimit.windowMs, 'booking-move'),
    rateLimiter(rateLimit.bookingMovePerBooking, rateLimit.windowMs, 'booking-move-per-booking', bookingKey),
  ];
}

/**
 * One limiter: a hit on its store per request, the X-RateLimit-Limit / -Remaining / -Reset headers,
 * and 429 RATE_LIMIT_EXCEEDED past the limit. The counting is express-rate-limit's Store (ours in
 * Postgres, its MemoryStore without one); the middleware around it is this function, not
 * express-rate-limit's: its chain of awaits, per-request validations and debug calls was about 7%
 * of an unknown route's api CPU (bench:e2e floor profile), for the three headers above.
 * The store is looked up on the app at the first request, so routers need not carry it. `name`
 * keeps the counters of different limiters apart (two limiters with the same name share a budget).
 */
export function rateLimiter(
  limit: number,
  windowMs: number,
  name = `limit-${limit}-${windowMs}`,
  per: 'ip' | 'user' | ((req: Request) => string) = 'ip',
): RequestHandler {
  const keyOf = typeof per === 'function' ? per : per === 'user' ? userKey : clientAddressKey;
  let store: Store | undefined;
  return (req, res, next) => {
    if (!store) {
      const factory = req.app.locals[RATE_LIMIT_STORE_LOCAL] as RateLimitStoreFactory | undefined;
      store = factory ? factory(name) : new MemoryStore();
      void store.init?.({ windowMs, limit } as Options);
    }
    Promise.resolve(store.increment(keyOf(req))).then(({ totalHits, resetTime }) => {
      const remaining = Math.max(limit - totalHits, 0);
      // several limiters on one route (the global one, a route's, a booking's): the headers say the one with the fewest left
      const shown = res.getHeader('X-RateLimit-Remaining');
      if (!res.headersSent && (shown === undefined || remaining <= Number(shown))) {
        res.setHeader('X-RateLimit-Limit', String(limit));
        res.setHeader('X-RateLimit-Remaining', String(remaining));
        if (resetTime) res.setHeader('X-RateLimit-Reset', String(Math.ceil(resetTime.getTime() / 1000)));
      }
      next(totalHits > limit ? errors.rateLimited() : undefined);
    }, next);
  };
}
