// Which browser origins may talk to the api with the user's cookies (docs/rules/security.md#browsers),
// decided in one place for two guards:
//   - CORS (the `cors` package): the origins in CORS_ORIGINS, every salon subdomain
//     `<slug>.<PLATFORM_DOMAIN>` of an active salon, and every active custom domain of a salon.
//     Credentials (cookie sessions) are allowed, except for a salon origin over plain http in
//     production, whose pages anyone on the network could have altered. Preflights are cached by the
//     browser (Access-Control-Max-Age). Any other origin gets no CORS headers at all.
//   - the Origin check: a state-changing request (POST, PUT, PATCH, DELETE) that carries one of the
//     platform's session or proof cookies is refused (403) unless it comes from the api's own host or
//     an origin CORS gives credentials to. A same-site page of another salon (`evil.<PLATFORM_DOMAIN>`)
//     sends its lax cookies along; the check is what stops a form or a text/plain fetch it posts.
//     A browser that says `Sec-Fetch-Site: same-origin` is let through whatever its Origin says: under
//     the pages' `Referrer-Policy: no-referrer` a form posted to its own origin carries `Origin: null`,
//     and no page can set that header itself.
import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Db } from '../../db/db-handle';
import { activeTenantIdByHost } from '../../domain/tenant/tenant-context';
import { errors } from '../../domain/errors';
import { ACCESS_COOKIE, REFRESH_COOKIE } from './authenticate';
import { CUSTOMER_ACCESS_COOKIE, CUSTOMER_REFRESH_COOKIE } from './customer-authenticate';
import { isProofCookieName } from '../pages/proof-cookie';

const CACHE_MS = 60_000;

export interface OriginDecision {
  allowed: boolean;
  /** whether the browser may send the user's cookies from it */
  credentials: boolean;
}

export interface OriginPolicy {
  decide(origin: string): Promise<OriginDecision>;
}

export function originPolicy(options: { db: Db; origins: string[]; platformDomain: string; production: boolean }): OriginPolicy {
  const listed = new Set(options.origins.map((o) => o.toLowerCase()));
  const suffix = `.${options.platformDomain.toLowerCase()}`;
  const known = new Map<string, { allowed: boolean; until: number }>();
  const refused: OriginDecision = { allowed: false, credentials: false };

  async function isSalonHost(host: string): Promise<boolean> {
    const cached = known.get(host);
    if (cached && cached.until > Date.now()) return cached.allowed;
    const tenant = await activeTenantIdByHost(options.db, host.endsWith(suffix) ? { slug: host.slice(0, -suffix.length) } : { customDomain: host });
    if (known.size > 10_000) known.clear();
    known.set(host, { allowed: !!tenant, until: Date.now() + CACHE_MS });
    return !!tenant;
  }

  return {
    async decide(origin) {
      if (listed.has(origin.toLowerCase())) return { allowed: true, credentials: true };
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        return refused;
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return refused;
      if (!(await isSalonHost(url.hostname))) return refused;
      return { allowed: true, credentials: url.protocol === 'https:' || !options.production };
    },
  };
}

export function corsPolicy(policy: OriginPolicy, options: { maxAgeSeconds: number }): RequestHandler {
  const base = { maxAge: options.maxAgeSeconds, exposedHeaders: ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] };
  const allowListed = cors((req, callback) => {
    const origin = req.headers.origin;
    if (!origin) return callback(null, { ...base, origin: false });
    policy.decide(origin).then(
      ({ allowed, credentials }) => callback(null, { ...base, origin: allowed, credentials }),
      (err: Error) => callback(err),
    );
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

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SESSION_COOKIES = [ACCESS_COOKIE, REFRESH_COOKIE, CUSTOMER_ACCESS_COOKIE, CUSTOMER_REFRESH_COOKIE];

/** Sign-ins whose session the answer puts into cookies: a page of another origin must not sign a browser in (login CSRF). */
const COOKIE_SIGN_IN = new Set(['/api/auth/cookie-session', '/api/auth/cookie-session/refresh']);

/** Whether the request carries one of the platform's session or proof cookies, or asks for a cookie session. */
function touchesSession(req: Request): boolean {
  if (COOKIE_SIGN_IN.has(req.path.toLowerCase().replace(/\/+$/, ''))) return true;
  const cookies = (req.cookies ?? {}) as Record<string, unknown>;
  return SESSION_COOKIES.some((name) => cookies[name] !== undefined) || Object.keys(cookies).some(isProofCookieName);
}

/** The origin a browser says a request comes from: Origin, else the Referer's origin; undefined when it says none (not a browser). */
function originOf(req: Request): string | undefined {
  const origin = req.get('origin');
  if (origin) return origin;
  const referer = req.get('referer');
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

/** The Origin check of state-changing, cookie-carrying requests (see above); after cookie-parser. */
export function originCheck(policy: OriginPolicy): RequestHandler {
  const refuse = () => errors.forbidden('This request comes from a page of another origin; it is refused (the session cookies are not accepted from there)');
  return (req, _res, next) => {
    if (!UNSAFE.has(req.method) || !touchesSession(req)) return next();
    if (req.get('sec-fetch-site') === 'same-origin') return next();
    const origin = originOf(req);
    if (origin === undefined) return next(); // not sent by a browser: no page could have made it
    if (origin === 'null') return next(refuse());
    let host: string;
    try {
      host = new URL(origin).host.toLowerCase();
    } catch {
      return next(refuse());
    }
    if (host === (req.get('host') ?? '').toLowerCase()) return next();
    policy.decide(origin).then(
      ({ allowed, credentials }) => next(allowed && credentials ? undefined : refuse()),
      (err: unknown) => next(err),
    );
  };
}
