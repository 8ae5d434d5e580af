// Staff/owner/admin auth (docs/rules/auth.md#tokens). Credential routes share one limiter of RATE_LIMIT_AUTH per
// minute per IP (10); /auth/me and /auth/profile are ordinary reads/updates under the
// global limit only, since clients call /auth/me on every page load.
import { cookieBaseOf } from '../cookies';
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../deps';
import { sendCreated, sendData } from '../envelope';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../middleware/authenticate';
import { rateLimiter } from '../middleware/rate-limit';
import { PLATFORM_ADMIN_TOO, requireRole } from '../middleware/require-role';
import { principalOf } from '../request-context';
import * as auth from '../../domain/auth/auth.service';
import { forgotPassword, resetPassword } from '../../domain/auth/password-reset.service';
import type { SessionTokens } from '../../domain/auth/sessions';
import { refreshImpersonation } from '../../domain/impersonation/impersonation.service';

/** The refresh cookie is only sent to the auth routes. */
const REFRESH_COOKIE_PATH = '/api/auth';

export function authRouter(deps: AppDeps): Router {
  const { config } = deps;
  const router = Router();
  const limit = rateLimiter(config.rateLimit.auth, config.rateLimit.windowMs, 'auth');
  const cookieBase = cookieBaseOf(config);

  function setSessionCookies(res: Response, session: SessionTokens): void {
    res.cookie(ACCESS_COOKIE, session.accessToken, { ...cookieBase, path: '/', maxAge: session.expiresIn * 1000 });
    res.cookie(REFRESH_COOKIE, session.refreshToken, { ...cookieBase, path: REFRESH_COOKIE_PATH, maxAge: session.refreshExpiresIn * 1000 });
  }

  function sendSession(res: Response, session: SessionTokens, status = 200): void {
    setSessionCookies(res, session);
    const body = { accessToken: session.accessToken, refreshToken: session.refreshToken, expiresIn: session.expiresIn, user: session.user };
    if (status === 201) sendCreated(res, body);
    else sendData(res, body, status);
  }

  function clearSessionCookies(res: Response): void {
    res.clearCookie(ACCESS_COOKIE, { ...cookieBase, path: '/' });
    res.clearCookie(REFRESH_COOKIE, { ...cookieBase, path: REFRESH_COOKIE_PATH });
  }

  const refreshTokenOf = (req: Request): string | undefined =>
    (req.body?.refreshToken as string | undefined) ?? (req.cookies?.[REFRESH_COOKIE] as string | undefined);

  /** Tenant context for login/forgot-password: x-tenant-id header or host (not a presented token). */
  const requestTenant = (req: Request): string | undefined => (req.principal ? undefined : req.tenantId);

  router.post('/auth/register', limit, async (req, res) => {
    const registered = await auth.register(deps, req.body);
    setSessionCookies(res, registered);
    sendCreated(res, {
      accessToken: registered.accessToken,
      refreshToken: registered.refreshToken,
      expiresIn: registered.expiresIn,
      user: registered.user,
      tenant: registered.tenant,
    });
  });

  router.post('/auth/login', limit, async (req, res) => {
    sendSession(res, await auth.login(deps, req.body, requestTenant(req)));
  });

  router.post('/auth/refresh', limit, async (req, res) => {
    const token = refreshTokenOf(req);
    sendSession(res, (await refreshImpersonation(deps, token)) ?? (await auth.refresh(deps, token)));
  });

  // A browser front-end's session (docs/rules/front-desk.md#sessions): the tokens go only into the
  // HttpOnly cookies, never into an answer a script of the page could read.
  function sendCookieSession(res: Response, session: SessionTokens): void {
    setSessionCookies(res, session);
    sendData(res, { expiresIn: session.expiresIn, refreshExpiresIn: session.refreshExpiresIn, user: session.user });
  }

  router.post('/auth/cookie-session', limit, async (req, res) => {
    sendCookieSession(res, await auth.login(deps, req.body, requestTenant(req)));
  });

  router.post('/auth/cookie-session/refresh', limit, async (req, res) => {
    const token = req.cookies?.[REFRESH_COOKIE] as string | undefined;
    try {
      sendCookieSession(res, (await refreshImpersonation(deps, token)) ?? (await auth.refresh(deps, token)));
    } catch (err) {
      // an ended session's cookies are of no use any more
      clearSessionCookies(res);
      throw err;
    }
  });

  router.post('/auth/logout', limit, async (req, res) => {
    await auth.logout(deps, refreshTokenOf(req), req.principal?.sessionId);
    clearSessionCookies(res);
    sendData(res, { message: 'Signed out' });
  });

  router.get('/auth/me', requireRole('STAFF', PLATFORM_ADMIN_TOO), async (req, res) => {
    sendData(res, await auth.me(deps, principalOf(req)));
  });

  // a changed e-mail or phone ends every other session: the caller's new one comes back (docs/rules/auth.md#changing-contact-details)
  router.patch('/auth/profile', requireRole('STAFF', PLATFORM_ADMIN_TOO), async (req, res) => {
    const { session, ...me } = await auth.updateProfile(deps, principalOf(req).userId, req.body);
    if (session) setSessionCookies(res, session);
    sendData(res, { ...me, session: session && { accessToken: session.accessToken, refreshToken: session.refreshToken, expiresIn: session.expiresIn } });
  });

  router.post('/auth/change-password', limit, requireRole('STAFF', PLATFORM_ADMIN_TOO), async (req, res) => {
    sendSession(res, await auth.changePassword(deps, principalOf(req).userId, req.body.currentPassword, req.body.newPassword));
  });

  router.post('/auth/forgot-password', limit, async (req, res) => {
    await forgotPassword(deps, req.body.email, { tenantSlug: req.body.tenantSlug, tenantId: requestTenant(req) });
    sendData(res, { message: 'If an account with this e-mail exists, a reset link has been sent' });
  });

  router.post('/auth/reset-password', limit, async (req, res) => {
    await resetPassword(deps, req.body.token, req.body.password);
    sendData(res, { message: 'Password changed' });
  });

  return router;
}
