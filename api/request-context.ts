// What the middleware learns about a request, attached to `req` for the routes.
import type { Request } from 'express';
import type { AccessClaims } from '../domain/auth/tokens';
import { errors } from '../domain/errors';

export interface Principal {
  userId: string;
  tenantId: string | null;
  role: AccessClaims['role'];
  impersonation?: AccessClaims['imp'];
}

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
    /** why a presented token was rejected; only reported when a route needs authentication */
    authFailure?: string;
    /** tenant resolved from the JWT, the x-tenant-id header, or the host (spec 5.2) */
    tenantId?: string;
  }
}

export function principalOf(req: Request): Principal {
  if (!req.principal) throw errors.unauthorized(req.authFailure);
  return req.principal;
}

/** The caller's tenant; 403 for callers with no tenant context (a platform admin not impersonating). */
export function tenantOf(req: Request): string {
  const principal = principalOf(req);
  const tenantId = principal.tenantId ?? req.tenantId;
  if (!tenantId) throw errors.forbidden('This action needs a tenant context');
  return tenantId;
}
