// Role guards of the routes (docs/rules/auth.md#roles): a missing or invalid token is 401; a valid
// token whose role the route does not take is 403. Each guard carries what it lets through, so the
// access gate (authentication-gate.ts) answers 401 and 403 for every route before its input is
// validated: token, then role, then validation, on every route.
import type { RequestHandler } from 'express';
import { hasRole, type Role } from '../../domain/users/roles.rules';
import { errors } from '../../domain/errors';
import type { Principal } from '../request-context';

export interface RoleGuard extends RequestHandler {
  /** whether a signed-in staff principal may call the route */
  readonly allows: (principal: Principal) => boolean;
}

/** A guard from its rule; `requireRole` and `requireExactRole` cover the usual ones. */
export function roleGuard(allows: (principal: Principal) => boolean): RoleGuard {
  const guard: RequestHandler = (req, _res, next) => {
    if (!req.principal) return next(errors.unauthorized(req.authFailure));
    if (!allows(req.principal)) return next(errors.forbidden());
    next();
  };
  return Object.assign(guard, { allows });
}

export function isRoleGuard(handler: unknown): handler is RoleGuard {
  return typeof handler === 'function' && typeof (handler as Partial<RoleGuard>).allows === 'function';
}

/**
 * This role or a higher one (ADMIN > OWNER > STAFF), inside a salon. The platform admin acts inside
 * a salon only by impersonating its owner (docs/rules/auth.md#the-platform-admin): its own token is
 * refused (403) on every route below ADMIN except those that give it direct access
 * (`{ platformAdmin: true }`: its own account, a salon's record by id).
 */
export function requireRole(minimum: Exclude<Role, 'CUSTOMER'>, options: { platformAdmin?: boolean } = {}): RoleGuard {
  const admitsPlatformAdmin = minimum === 'ADMIN' || options.platformAdmin === true;
  return roleGuard((principal) => hasRole(principal.role, minimum) && (admitsPlatformAdmin || principal.role !== 'ADMIN'));
}

/** The routes that give the platform admin direct access besides the ADMIN-only ones. */
export const PLATFORM_ADMIN_TOO = { platformAdmin: true } as const;

/** Exactly these roles (e.g. onboarding is OWNER only, not ADMIN). */
export function requireExactRole(...roles: Role[]): RoleGuard {
  return roleGuard((principal) => roles.includes(principal.role));
}
