// The access gate: token (401), then role (403), before anything looks at the request's input, on
// every route (docs/rules/auth.md#order-of-the-checks). It runs before the contract validator and the
// input guard, so a caller without a token, or with a role the route does not take, learns that
// first and never whether its body was right.
//   - token: an operation whose openapi.yaml `security` needs a staff token (bearerAuth), a customer
//     token (customerAuth) or either of them, and every route with a role guard;
//   - role: the route's own guard (api/middleware/require-role.ts), read from the routers, so the
//     route's declaration is the only one.
// Paths match case-insensitively, as Express routes them (/api/ADMIN/payment-configs is the same
// route as /api/admin/payment-configs). The validator's own security check is not used because it
// insists on an Authorization header and would refuse cookie sessions.
import type { Request, RequestHandler, Router } from 'express';
import { errors } from '../../domain/errors';
import { customerOf } from '../request-context';
import { isRoleGuard, type RoleGuard } from './require-role';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

interface Operation {
  security?: Record<string, string[]>[];
}

type Needs = 'staff' | 'customer' | 'staffOrCustomer' | 'nothing';

interface ContractRoute {
  method: string;
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
    if (first !== null && !buckets.has(first)) buckets.set(first, entries.filter((e) => [first, null].includes(firstOf(e))));
  }
  return (segment) => buckets.get(segment) ?? anySegment;
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
}

/** Every route of `routers`, in the order Express tries them, with its role guard. */
export function routeTable(routers: Router[], basePath = '/api'): AppRoute[] {
  const out: AppRoute[] = [];
  for (const router of routers) {
    for (const layer of router.stack as { route?: { path: string; methods: Record<string, boolean>; stack: { handle: unknown }[] } }[]) {
      const route = layer.route;
      if (!route || typeof route.path !== 'string') continue;
      const guard = route.stack.map((s) => s.handle).find(isRoleGuard);
      const pattern = new RegExp(`^${escapeRe(basePath)}${escapeRe(route.path).replace(/:[A-Za-z0-9_]+/g, '[^/]+')}/?$`, 'i');
      for (const [method, on] of Object.entries(route.methods)) if (on) out.push({ method: method.toUpperCase(), path: route.path, pattern, guard });
    }
  }
  return out;
}

export function authenticationGate(document: Record<string, unknown>, routers: Router[], basePath = '/api'): RequestHandler {
  const globalSecurity = document.security as Record<string, string[]>[] | undefined;
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  const contract: ContractRoute[] = Object.entries(paths)
    .flatMap(([template, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${escapeRe(basePath)}${escapeRe(template).replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i'),
          literalSegments: template.split('/').filter((s) => s && !s.startsWith('{')).length,
          needs: needsOf(operation.security ?? globalSecurity),
        })),
    )
    // literal segments win over parameters: /tenants/me before /tenants/{id}
    .sort((a, b) => b.literalSegments - a.literalSegments);
  const routes = routeTable(routers, basePath);
  const sameMethod = (req: Request, method: string) => method === req.method || (req.method === 'HEAD' && method === 'GET');
  // only the routes under the request's first segment are tried (a scan of every route's pattern was
  // about 6% of an unknown route's cost)
  const contractUnder = bySegment(contract, (r) => literalFirstSegment(r.template, '{'));
  const routesUnder = bySegment(routes, (r) => literalFirstSegment(r.path, ':'));

  return (req, _res, next) => {
    const segment = firstSegmentOf(req.path, basePath);
    const operation = contractUnder(segment).find((r) => sameMethod(req, r.method) && r.pattern.test(req.path));
    // the first route Express would run for this request, and its guard
    const route = routesUnder(segment).find((r) => sameMethod(req, r.method) && r.pattern.test(req.path));
    const needs = route?.guard ? 'staff' : operation?.needs ?? 'nothing';
    if (needs === 'staff' && !req.principal) return next(errors.unauthorized(req.authFailure));
    if (needs === 'staffOrCustomer' && !req.principal && !req.customer) return next(errors.unauthorized(req.authFailure ?? req.customerAuthFailure));
    if (needs === 'customer' && !req.customer) {
      try {
        customerOf(req);
      } catch (err) {
        return next(err);
      }
    }
    if (route?.guard && !route.guard.allows(req.principal!)) return next(errors.forbidden());
    next();
  };
}
