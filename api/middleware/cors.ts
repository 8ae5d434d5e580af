// CORS for the browser front-ends (the `cors` package): the origins in CORS_ORIGINS, every salon
// subdomain `https://<slug>.<PLATFORM_DOMAIN>` of an existing salon, and every active custom domain
// of a salon. Credentials are allowed (cookie sessions) and preflights are cached by the browser
// (Access-Control-Max-Age). Any other origin gets no CORS headers at all, so the browser refuses.
import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Db } from '../../db/db-handle';
import { activeTenantIdByHost } from '../../domain/tenant/tenant-context';

const CACHE_MS = 60_000;

export function corsPolicy(options: { db: Db; origins: string[]; platformDomain: string; maxAgeSeconds: number }): RequestHandler {
  const listed = new Set(options.origins.map((o) => o.toLowerCase()));
  const suffix = `.${options.platformDomain.toLowerCase()}`;
  const known = new Map<string, { allowed: boolean; until: number }>();

  async function salonOrigin(origin: string): Promise<boolean> {
    let host: string;
    try {
      const url = new URL(origin);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
      host = url.hostname;
    } catch {
      return false;
    }
    const cached = known.get(host);
    if (cached && cached.until > Date.now()) return cached.allowed;
    const tenant = await activeTenantIdByHost(options.db, host.endsWith(suffix) ? { slug: host.slice(0, -suffix.length) } : { customDomain: host });
    if (known.size > 10_000) known.clear();
    known.set(host, { allowed: !!tenant, until: Date.now() + CACHE_MS });
    return !!tenant;
  }

  const allowListed = cors({
    origin: (origin, callback) => {
      if (!origin) return callback(null, false);
      if (listed.has(origin.toLowerCase())) return callback(null, true);
      salonOrigin(origin).then(
        (allowed) => callback(null, allowed),
        (err: Error) => callback(err),
      );
    },
    credentials: true,
    maxAge: options.maxAgeSeconds,
    exposedHeaders: ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
  });
  // A preflight from an origin that is not allowed is answered 204 without CORS headers (the
  // browser then refuses the real request); passed on, it would become a misleading 405.
  const refusedPreflightOrNext = (req: Request, res: Response, next: NextFunction, err?: unknown) => {
    if (err) return next(err);
    if (req.method === 'OPTIONS' && req.get('access-control-request-method')) return void res.status(204).end();
    next();
  };
  // A request without an Origin gets no CORS headers from the `cors` package: it is not asked.
  return (req, res, next) =>
    req.headers.origin === undefined
      ? refusedPreflightOrNext(req, res, next)
      : allowListed(req, res, (err?: unknown) => refusedPreflightOrNext(req, res, next, err));
}
