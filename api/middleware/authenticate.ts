// Reads a staff/owner/admin access token (Bearer header or HttpOnly cookie) with passport-jwt and
// checks, in one query, the user's token version (a password change logs out every older token) and
// the token's session (signing out ends it at once; docs/rules/auth.md#sessions).
import type { Request, RequestHandler } from 'express';
import { isImpersonationEndCall } from './impersonation-audit';
import type { Db } from '../../db/db-handle';
import passport from 'passport';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import { hmacKey, isUuid, type AccessClaims } from '../../domain/auth/tokens';
import { tokenHolderStatus } from '../../domain/auth/auth.service';
import { nowOf, type Clock } from '../../domain/time/clock';
import type { Principal } from '../request-context';

/** A signed token whose user, tenant or session id is not a UUID cannot name anyone: 401, never a query. */
function wellFormedClaims(claims: AccessClaims): boolean {
  return (
    isUuid(claims.sub) &&
    (claims.tenantId === null || claims.tenantId === undefined || isUuid(claims.tenantId)) &&
    (claims.imp ? isUuid(claims.imp.sessionId) && claims.sid === undefined : isUuid(claims.sid))
  );
}

const STATUS_MESSAGES = {
  gone: 'User no longer exists',
  revoked: 'Token has been revoked',
  'session-ended': 'This session has ended (signed out, or it reached its maximum length); sign in again',
  'impersonation-ended': 'The impersonation session has ended',
} as const;

export const ACCESS_COOKIE = 'access_token';
export const REFRESH_COOKIE = 'refresh_token';

export function configurePassport(
  secret: string,
  knex: Db,
  sessions: { maxSeconds: { staff: number; impersonation: number }; now?: Clock },
): passport.PassportStatic {
  const instance = new passport.Passport() as unknown as passport.PassportStatic;
  instance.use(
    new JwtStrategy(
      {
        // a KeyObject: given the string, jsonwebtoken would try it as a PEM key first on every request
        secretOrKey: hmacKey(secret) as unknown as string,
        algorithms: ['HS256'],
        passReqToCallback: true,
        jwtFromRequest: ExtractJwt.fromExtractors([
          ExtractJwt.fromAuthHeaderAsBearerToken(),
          (req) => (req?.cookies?.[ACCESS_COOKIE] as string | undefined) ?? null,
        ]),
      },
      (req: Request, claims: AccessClaims & { type?: string }, done: (err: unknown, user?: Principal | false, info?: unknown) => void) => {
        if (claims.type === 'customer') return done(null, false, { message: 'Customer tokens are not accepted here' });
        if (!wellFormedClaims(claims)) return done(null, false, { message: 'Invalid token' });
        tokenHolderStatus(knex, claims, sessions.maxSeconds, nowOf(sessions))
          .then((status) => {
            // an ended impersonation's token only still reaches the (idempotent) end call
            if (status !== 'ok' && !(status === 'impersonation-ended' && isImpersonationEndCall(req)))
              return done(null, false, { message: STATUS_MESSAGES[status] });
            done(null, { userId: claims.sub, tenantId: claims.tenantId, role: claims.role, impersonation: claims.imp, sessionId: claims.sid });
          })
          .catch(done);
      },
    ),
  );
  return instance;
}

/** Never rejects: routes that need a principal ask for it with requireRole. */
export function authenticate(instance: passport.PassportStatic): RequestHandler {
  return (req, res, next) => {
    const hasToken = Boolean(req.headers.authorization || req.cookies?.[ACCESS_COOKIE]);
    if (!hasToken) return next();
    instance.authenticate('jwt', { session: false }, (err: unknown, principal: Principal | false, info?: { message?: string }) => {
      if (err) return next(err);
      if (principal) req.principal = principal;
      else req.authFailure = info?.message === 'jwt expired' ? 'Token expired' : (info?.message ?? 'Invalid token');
      next();
    })(req, res, next);
  };
}
