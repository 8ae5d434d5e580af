// Which operation of openapi.yaml and which route of the area routers a request is for, matched once
// per request from tables compiled at start-up: the access gate (authentication-gate.ts) reads what
// the request needs, the unknown-route answer (unknown-route.ts) whether its path exists at all.
// Paths match case-insensitively and with or without a trailing slash, as Express routes them and as
// the contract validator looks them up; only the entries under the path's first segment are tried
// (a scan of every pattern was about 6% of an unknown route's cost).
import type { Request, RequestHandler, Router } from 'express';
import type { RoleGuard } from './require-role';
import { isRoleGuard } from './require-role';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** What an operation's `security` asks of the caller. */
export type Needs = 'staff' | 'customer' | 'staffOrCustomer' | 'nothing';

export interface ContractOperation {
  method: string;
  /** the contract's path, e.g. /bookings/{id} */
  template: string;
  pattern: RegExp;
  literalSegments: number;
  needs: Needs;
}

export interface AppRoute {
  method: string;
  /** the Express path, e.g. /bookings/:id */
  path: string;
  pattern: RegExp;
  /** the route's role guard; undefined for a route without one */
  guard?: RoleGuard;
  /** the area router the route belongs to */
  router: Router;
}

export interface RouteMatch {
  /** the contract's operation for this method and path (HEAD: GET's) */
  operation?: ContractOperation;
  /** the first route Express would run for this request */
  route?: AppRoute;
  /** whether any operation or route has this path, whatever its method */
  pathKnown: boolean;
}

/** The match of a request, computed on the first call and remembered for the request. */
export type RouteLookup = (req: Request) => RouteMatch;

interface SecuredOperation {
  security?: Record<string, string[]>[];
}

/** What an operation's `security` (an OR of requirements) asks of the caller. */
function needsOf(security: Record<string, string[]>[] | undefined): Needs {
  if (!security || security.length === 0) return 'nothing';
  if (security.some((requirement) => Object.keys(requirement).length === 0)) return 'nothing';
  const staff = security.some((requirement) => 'bearerAuth' in requirement);
  const customer = security.some((requirement) => 'customerAuth' in requirement);
  if (staff && customer) return 'staffOrCustomer';
  if (customer) return 'customer';
  return staff ? 'staff' : 'nothing';
}

/** The first segment of a route's path, lower-cased; null when it is a parameter (it matches any). */
function literalFirstSegment(path: string, parameterMark: string): string | null {
  const first = path.split('/')[1] ?? '';
  return first.startsWith(parameterMark) ? null : first.toLowerCase();
}

/** The first segment of a request's path after the base path, lower-cased: /api/Bookings/1 -> bookings. */
function firstSegmentOf(path: string, basePath: string): string {
  if (!path.startsWith(`${basePath}/`)) return '';
  const rest = path.slice(basePath.length + 1);
  const end = rest.indexOf('/');
  return (end < 0 ? rest : rest.slice(0, end)).toLowerCase();
}

/** The entries a path under each first segment can match, in their original order. */
function bySegment<T>(entries: T[], firstOf: (entry: T) => string | null): (segment: string) => T[] {
  const anySegment = entries.filter((e) => firstOf(e) === null);
  const buckets = new Map<string, T[]>();
  for (const entry of entries) {
    const first = firstOf(entry);
    if (first !== null && !buckets.has(first))
      buckets.set(
        first,
        entries.filter((e) => [first, null].includes(firstOf(e))),
      );
  }
  return (segment) => buckets.get(segment) ?? anySegment;
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
}

/** The pattern of a path under the base path, `parameter` matching one segment: `/` is the base path itself, with or without its slash. */
function patternOf(basePath: string, path: string, parameter: RegExp): RegExp {
  return new RegExp(`^${escapeRe(basePath)}${escapeRe(path.replace(/\/$/, '')).replace(parameter, '[^/]+')}/?$`, 'i');
}

/** Every route of `routers`, in the order Express tries them, with its role guard. */
export function routeTable(routers: Router[], basePath = '/api'): AppRoute[] {
  const out: AppRoute[] = [];
  for (const router of routers) {
    for (const layer of router.stack as { route?: { path: string; methods: Record<string, boolean>; stack: { handle: unknown }[] } }[]) {
      const route = layer.route;
      if (!route || typeof route.path !== 'string') continue;
      const guard = route.stack.map((s) => s.handle).find(isRoleGuard);
      const pattern = patternOf(basePath, route.path, /:[A-Za-z0-9_]+/g);
      for (const [method, on] of Object.entries(route.methods)) if (on) out.push({ method: method.toUpperCase(), path: route.path, pattern, guard, router });
    }
  }
  return out;
}

/** Every operation of the contract, literal segments before parameters (/tenants/me before /tenants/{id}). */
export function contractOperations(document: Record<string, unknown>, basePath = '/api'): ContractOperation[] {
  const globalSecurity = document.security as Record<string, string[]>[] | undefined;
  const paths = (document.paths ?? {}) as Record<string, Record<string, SecuredOperation>>;
  return Object.entries(paths)
    .flatMap(([template, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({
          method: method.toUpperCase(),
          template,
          pattern: patternOf(basePath, template, /\{[^}]+\}/g),
          literalSegments: template.split('/').filter((s) => s && !s.startsWith('{')).length,
          needs: needsOf(operation.security ?? globalSecurity),
        })),
    )
    .sort((a, b) => b.literalSegments - a.literalSegments);
}

/**
 * Mounted under the base path in place of the area routers one after another: a request goes
 * straight to the router of its route instead of being matched against every route of the routers
 * before it (up to 90 patterns for a booking). Area routers hold only routes, no router-wide
 * middleware, so skipping the others changes nothing but the work; a request with no route goes on
 * to the not-found answer as before.
 */
export function routeToArea(lookup: RouteLookup): RequestHandler {
  return (req, res, next) => {
    const route = lookup(req).route;
    if (!route) return next();
    route.router(req, res, next);
  };
}

export function routeLookup(document: Record<string, unknown>, routers: Router[], basePath = '/api'): RouteLookup {
  const contractUnder = bySegment(contractOperations(document, basePath), (r) => literalFirstSegment(r.template, '{'));
  const routesUnder = bySegment(routeTable(routers, basePath), (r) => literalFirstSegment(r.path, ':'));
  const matched = new WeakMap<Request, RouteMatch>();
  const sameMethod = (req: Request, method: string) => method === req.method || (req.method === 'HEAD' && method === 'GET');

  return (req) => {
    const known = matched.get(req);
    if (known) return known;
    // the whole path, also when asked from under a mount point (routeToArea runs under /api)
    const path = req.baseUrl + req.path;
    const segment = firstSegmentOf(path, basePath);
    const operations = contractUnder(segment).filter((r) => r.pattern.test(path));
    const routes = routesUnder(segment).filter((r) => r.pattern.test(path));
    const match: RouteMatch = {
      operation: operations.find((r) => sameMethod(req, r.method)),
      route: routes.find((r) => sameMethod(req, r.method)),
      pathKnown: operations.length > 0 || routes.length > 0,
    };
    matched.set(req, match);
    return match;
  };
}
