import type { RequestHandler } from 'express';
import { hasRole, type Role } from '../../domain/auth/roles.rules';
import { errors } from '../../domain/errors';

/** A missing or invalid token is 401; a valid token with too low a role is 403. */
export function requireRole(minimum: Exclude<Role, 'CUSTOMER'>): RequestHandler {
  return (req, _res, next) => {
    if (!req.principal) return next(errors.unauthorized(req.authFailure));
    if (!hasRole(req.principal.role, minimum)) return next(errors.forbidden());
    next();
  };
}

/** Exactly these roles (e.g. onboarding is OWNER only, not ADMIN). */
export function requireExactRole(...roles: Role[]): RequestHandler {
  return (req, _res, next) => {
    if (!req.principal) return next(errors.unauthorized(req.authFailure));
    if (!roles.includes(req.principal.role)) return next(errors.forbidden());
    next();
  };
}
