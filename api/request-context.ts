// What the middleware learns about a request, attached to `req` for the routes.
import type { Request } from 'express';
import type { AccessClaims } from '../domain/auth/tokens';
import type { GuestProof } from '../domain/booking/booking-access.service';
import { errors } from '../domain/errors';

export interface Principal {
  userId: string;
  tenantId: string | null;
  role: AccessClaims['role'];
  impersonation?: AccessClaims['imp'];
  /** the sign-in session of the token (absent on impersonation tokens) */
  sessionId?: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
    /** why a presented token was rejected; only reported when a route needs authentication */
    authFailure?: string;
    /** tenant resolved from the JWT, the x-tenant-id header, or the host (docs/rules/auth.md#tenant-resolution) */
    tenantId?: string;
    /** a signed-in customer (customer JWT: Bearer header or the customer access cookie) */
    customer?: CustomerPrincipal;
    /** why a presented customer token was rejected; reported when a route needs a customer */
    customerAuthFailure?: string;
    /** the request body as received (JSON bodies), for hashing */
    rawBody?: Buffer;
  }
}

export interface CustomerPrincipal {
  accountId: string;
  /** the sign-in session of the token */
  sessionId: string;
}

/** The signed-in customer; 401 without a valid customer token (a staff token is not one). */
export function customerOf(req: Request): CustomerPrincipal {
  if (!req.customer) {
    const staffToken = Boolean(req.principal || req.authFailure) && !req.customerAuthFailure;
    throw errors.unauthorized(
      staffToken ? 'Staff tokens are not accepted here; sign in as a customer' : (req.customerAuthFailure ?? 'Customer sign-in required'),
    );
  }
  return req.customer;
}

/**
 * The customer when a customer token is presented; undefined for a guest. A customer token that is
 * expired or revoked is 401, not a silent guest booking.
 */
export function optionalCustomerOf(req: Request): CustomerPrincipal | undefined {
  if (!req.customer && req.customerAuthFailure) throw errors.unauthorized(req.customerAuthFailure);
  return req.customer;
}

export function principalOf(req: Request): Principal {
  if (!req.principal) throw errors.unauthorized(req.authFailure);
  return req.principal;
}

/**
 * The caller's salon; 403 for callers with no salon context. The platform admin's own token never
 * has one, whatever x-tenant-id or host it names: it acts inside a salon by impersonating its owner
 * (docs/rules/auth.md#the-platform-admin), whose token carries the salon.
 */
export function tenantOf(req: Request): string {
  const principal = principalOf(req);
  if (principal.role === 'ADMIN')
    throw errors.forbidden('The platform admin acts inside a salon by impersonating its owner (POST /superadmin/impersonate/start)');
  const tenantId = principal.tenantId;
  if (!tenantId) throw errors.forbidden('This action needs a tenant context');
  return tenantId;
}

/** Who proves a public booking route: the signed-in customer who owns the booking, or a guest with its manage token or contact phone. */
export type BookingProver = { accountId: string } | { proof: GuestProof };

/**
 * A guest's proof of a booking, from a body or a query: the manage token or the contact phone
 * (docs/rules/booking-page.md#manage-links). With neither: 400 naming `token` where only they prove
 * it (the contract's anyOf says so too), and 401 where signing in as the customer would
 * (`orSignedIn`): the caller has not said who they are.
 */
export function guestProofOf(source: { token?: unknown; phone?: unknown }, orSignedIn = false): GuestProof {
  const token = typeof source.token === 'string' && source.token ? source.token : undefined;
  const phone = typeof source.phone === 'string' && source.phone ? source.phone : undefined;
  if (!token && !phone) {
    if (orSignedIn) throw errors.unauthorized('Sign in as the customer, or give the manage token or the contact phone');
    throw errors.validation('Request validation failed', [{ field: 'token', message: 'give the manage token or the contact phone' }]);
  }
  return { token, phone };
}

/** The signed-in customer when the request carries no token or phone, else the guest's proof (guestProofOf). */
export function bookingProverOf(req: Request, source: { token?: unknown; phone?: unknown }): BookingProver {
  const customer = optionalCustomerOf(req);
  if (customer && !source.token && !source.phone) return { accountId: customer.accountId };
  return { proof: guestProofOf(source, true) };
}
