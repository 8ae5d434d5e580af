// Answers 401 before request validation for routes whose openapi.yaml `security` needs a staff
// token (bearerAuth), so a caller without a token learns that first, not that its body was wrong.
// Role checks (403) stay in the routes. The validator's own security check is not used because it
// insists on an Authorization header and would refuse cookie sessions.
import type { RequestHandler } from 'express';
import { errors } from '../../domain/errors';
import { customerOf } from '../request-context';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

interface Operation {
  security?: Record<string, string[]>[];
}

interface SecuredRoute {
  method: string;
  pattern: RegExp;
  literalSegments: number;
  needsStaffToken: boolean;
  /** customerAuth only: a customer token (docs/rules/auth.md#roles) */
  needsCustomerToken: boolean;
}

function needsCustomerToken(security: Record<string, string[]>[] | undefined): boolean {
  return !!security && security.length > 0 && security.every((requirement) => 'customerAuth' in requirement);
}

function needsStaffToken(security: Record<string, string[]>[] | undefined): boolean {
  if (!security || security.length === 0) return false;
  // OR of requirements: an empty one means anonymous is fine.
  if (security.some((requirement) => Object.keys(requirement).length === 0)) return false;
  return security.every((requirement) => 'bearerAuth' in requirement);
}

export function authenticationGate(document: Record<string, unknown>, basePath = '/api'): RequestHandler {
  const globalSecurity = document.security as Record<string, string[]>[] | undefined;
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  const routes: SecuredRoute[] = Object.entries(paths)
    .flatMap(([template, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({
          method: method.toUpperCase(),
          pattern: new RegExp(`^${basePath}${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
          literalSegments: template.split('/').filter((s) => s && !s.startsWith('{')).length,
          needsStaffToken: needsStaffToken(operation.security ?? globalSecurity),
          needsCustomerToken: needsCustomerToken(operation.security ?? globalSecurity),
        })),
    )
    // literal segments win over parameters: /tenants/me before /tenants/{id}
    .sort((a, b) => b.literalSegments - a.literalSegments);

  return (req, _res, next) => {
    const route = routes.find((r) => r.method === req.method && r.pattern.test(req.path));
    if (route?.needsStaffToken && !req.principal) return next(errors.unauthorized(req.authFailure));
    if (route?.needsCustomerToken && !req.customer) {
      try {
        customerOf(req);
      } catch (err) {
        return next(err);
      }
    }
    next();
  };
}
