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
import type { RequestHandler } from 'express';
import { errors } from '../../domain/errors';
import { customerOf } from '../request-context';
import type { RouteLookup } from './route-lookup';

/** `lookup` matches the request's operation and route once (route-lookup.ts). */
export function authenticationGate(lookup: RouteLookup): RequestHandler {
  return (req, _res, next) => {
    // the operation, and the first route Express would run for this request with its guard
    const { operation, route } = lookup(req);
    const needs = route?.guard ? 'staff' : (operation?.needs ?? 'nothing');
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
