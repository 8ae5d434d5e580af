// Reads a customer access token (`type: customer`) from the Bearer header or the
// customer's own HttpOnly cookie, and checks the account's token version. A staff token is not a
// customer token: customer routes answer it with 401 (and admin routes refuse customer tokens in
// authenticate.ts). Never rejects by itself: routes ask with customerOf / optionalCustomerOf.
import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import jwt from 'jsonwebtoken';
import { verifyCustomerAccessToken } from '../../domain/auth/tokens';
import { customerTokenStatus } from '../../domain/customer-account/customer-auth.service';

export const CUSTOMER_ACCESS_COOKIE = 'customer_access_token';
export const CUSTOMER_REFRESH_COOKIE = 'customer_refresh_token';

function presentedToken(header: string | undefined, cookie: string | undefined): string | undefined {
  const bearer = header && /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  return bearer || cookie || undefined;
}

export function authenticateCustomer(secret: string, knex: Knex): RequestHandler {
  return (req, _res, next) => {
    const token = presentedToken(req.headers.authorization, req.cookies?.[CUSTOMER_ACCESS_COOKIE] as string | undefined);
    if (!token) return next();
    const unverified = jwt.decode(token) as { type?: unknown } | null;
    const { claims, failure } = verifyCustomerAccessToken(secret, token);
    if (!claims) {
      // only a token that says it is a customer's makes an optional-customer route fail
      if (unverified?.type === 'customer') req.customerAuthFailure = failure;
      return next();
    }
    customerTokenStatus(knex, claims.sub, claims.tv)
      .then((status) => {
        if (status === 'ok') req.customer = { accountId: claims.sub };
        else req.customerAuthFailure = status === 'gone' ? 'Customer account no longer exists' : 'Token has been revoked';
        next();
      })
      .catch(next);
  };
}
