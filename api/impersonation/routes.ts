// Super-admin impersonation (docs/rules/auth.md#impersonation). Thin: validated input -> domain call -> envelope.
// Start and end swap the staff access cookie too, so a browser session follows the switch.
import { cookieBaseOf } from '../cookies';
import { Router, type Response } from 'express';
import type { AppDeps } from '../deps';
import { sendCreated, sendData, sendPage } from '../envelope';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../middleware/authenticate';
import { requireRole, roleGuard } from '../middleware/require-role';
import { rateLimiter } from '../middleware/rate-limit';
import { principalOf } from '../request-context';
import * as impersonation from '../../domain/impersonation/impersonation.service';

export function impersonationRouter(deps: AppDeps): Router {
  const { config, knex } = deps;
  const router = Router();
  const limit = rateLimiter(config.rateLimit.auth, config.rateLimit.windowMs, 'auth');
  const cookieBase = cookieBaseOf(config);
  // start: the platform admin (an impersonation token gets its 409 from the service); end: only an impersonation token
  const adminOrImpersonating = roleGuard((p) => p.role === 'ADMIN' || p.impersonation !== undefined);
  const impersonating = roleGuard((p) => p.impersonation !== undefined);
  const setAccessCookie = (res: Response, token: string, expiresIn: number) =>
    res.cookie(ACCESS_COOKIE, token, { ...cookieBase, path: '/', maxAge: expiresIn * 1000 });

  router.post('/superadmin/impersonate/start', limit, adminOrImpersonating, async (req, res) => {
    const result = await impersonation.startImpersonation(deps, principalOf(req), req.body, { ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null });
    setAccessCookie(res, result.accessToken, result.expiresIn);
    sendCreated(res, result);
  });

  router.post('/superadmin/impersonate/end', limit, impersonating, async (req, res) => {
    const session = await impersonation.endImpersonation(deps, principalOf(req));
    setAccessCookie(res, session.accessToken, session.expiresIn);
    res.cookie(REFRESH_COOKIE, session.refreshToken, { ...cookieBase, path: '/api/auth', maxAge: session.refreshExpiresIn * 1000 });
    sendData(res, { accessToken: session.accessToken, refreshToken: session.refreshToken, expiresIn: session.expiresIn, user: session.user });
  });

  router.get('/superadmin/impersonate/sessions', requireRole('ADMIN'), async (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    sendPage(
      res,
      await impersonation.listSessions(knex, {
        tenantId: q.tenantId,
        activeOnly: String(q.activeOnly) === 'true',
        page: Number(q.page ?? 1),
        limit: Number(q.limit ?? 20),
      }),
    );
  });

  router.get('/superadmin/impersonate/sessions/:id/logs', requireRole('ADMIN'), async (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    sendPage(res, await impersonation.sessionLogs(knex, String(req.params.id), { page: Number(q.page ?? 1), limit: Number(q.limit ?? 20) }));
  });

  return router;
}
