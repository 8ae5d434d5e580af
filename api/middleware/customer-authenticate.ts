// Reads a customer access token (`type: customer`) from the Bearer header or the
// customer's own HttpOnly cookie, and checks the account's token version and the token's session
// (docs/rules/auth.md#sessions). A staff token is not a
// customer token: customer routes answer it with 401 (and admin routes refuse customer tokens in
// authenticate.ts). Never rejects by itself: routes ask with customerOf / optionalCustomerOf.
import type { RequestHandler } from 'express';
import type { Db } from '../../db/db-handle';
import jwt from 'jsonwebtoken';
import { verifyCustomerAccessToken } from '../../domain/auth/tokens';
import { customerTokenStatus } from '../../domain/customer-account/customer-auth.service';
import { nowOf, type Clock } from '../../domain/time/clock';

export const CUSTOMER_ACCESS_COOKIE = 'customer_access_token';
export const CUSTOMER_REFRESH_COOKIE = 'customer_refresh_token';

function presentedToken(header: string | undefined, cookie: string | undefined): string | undefined {
  const bearer = header && /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  return bearer || cookie || undefined;
}

const STATUS_MESSAGES = {
  gone: 'Customer account no longer exists',
  revoked: 'Token has been revoked',
  'session-ended': 'This session has ended (signed out, or it reached its maximum length); sign in again',
} as const;

export function authenticateCustomer(secret: string, knex: Db, sessions: { maxSeconds: { customer: number }; now?: Clock }): RequestHandler {
  return (req, _res, next) => {
    const token = presentedToken(req.headers.authorization, req.cookies?.[CUSTOMER_ACCESS_COOKIE] as string | undefined);
    if (!token) return next();
    // only a token that says it is a customer's is checked (a staff token is not one: nothing to verify),
    // and only such a token makes an optional-customer route fail
    const unverified = jwt.decode(token) as { type?: unknown } | null;
    if (unverified?.type !== 'customer') return next();
    const { claims, failure } = verifyCustomerAccessToken(secret, token);
    if (!claims) {
      req.customerAuthFailure = failure;
      return next();
    }
    customerTokenStatus(knex, claims, sessions.maxSeconds.customer, nowOf(sessions))
      .then((status) => {
        if (status === 'ok') req.customer = { accountId: claims.sub, sessionId: claims.sid };
        else req.customerAuthFailure = STATUS_MESSAGES[status];
        next();
      })
      .catch(next);
  };
}
