// Reads a staff/owner/admin access token (Bearer header or HttpOnly cookie) with passport-jwt and
// checks the user's token version, so a password change logs out every older token.
import type { Request, RequestHandler } from 'express';
import { isImpersonationEndCall } from './impersonation-audit';
import type { Db } from '../../db/db-handle';
import passport from 'passport';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import type { AccessClaims } from '../../domain/auth/tokens';
import { tokenHolderStatus } from '../../domain/auth/auth.service';
import { impersonationStatus } from '../../domain/impersonation/impersonation.service';
import type { Principal } from '../request-context';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A signed token whose user or tenant id is not a UUID cannot name anyone: 401, never a query. */
function wellFormedClaims(claims: AccessClaims): boolean {
  return (
    typeof claims.sub === 'string' &&
    UUID.test(claims.sub) &&
    (claims.tenantId === null || claims.tenantId === undefined || (typeof claims.tenantId === 'string' && UUID.test(claims.tenantId)))
  );
}

export const ACCESS_COOKIE = 'access_token';
export const REFRESH_COOKIE = 'refresh_token';

export function configurePassport(secret: string, knex: Db): passport.PassportStatic {
  const instance = new passport.Passport() as unknown as passport.PassportStatic;
  instance.use(
    new JwtStrategy(
      {
        secretOrKey: secret,
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
        tokenHolderStatus(knex, claims.sub, claims.tv)
          .then(async (status) => {
            if (status === 'gone') return done(null, false, { message: 'User no longer exists' });
            if (status === 'revoked') return done(null, false, { message: 'Token has been revoked' });
            // an ended impersonation's token only still reaches the (idempotent) end call
            if (claims.imp && (await impersonationStatus(knex, claims.imp, claims.sub)) === 'ended' && !isImpersonationEndCall(req)) {
              return done(null, false, { message: 'The impersonation session has ended' });
            }
            done(null, { userId: claims.sub, tenantId: claims.tenantId, role: claims.role, impersonation: claims.imp });
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
      else req.authFailure = info?.message === 'jwt expired' ? 'Token expired' : info?.message ?? 'Invalid token';
      next();
    })(req, res, next);
  };
}
