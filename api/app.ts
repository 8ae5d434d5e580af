// The Express app: middleware order lives here and nowhere else. No listen(): bin/api.ts does that.
import { COOKIE_SECURE_LOCAL, cookiesAreSecure } from './cookies';
import express from 'express';
import { securityHeaders } from './middleware/security-headers';
import cookieParser from 'cookie-parser';
import type { AppDeps } from './deps';
import { configurePassport, authenticate } from './middleware/authenticate';
import { resolveTenant } from './middleware/tenant-resolution';
import { authenticateCustomer } from './middleware/customer-authenticate';
import { impersonationAudit } from './middleware/impersonation-audit';
import { rateLimiter, RATE_LIMIT_STORE_LOCAL } from './middleware/rate-limit';
import { errorHandler, notFoundHandler } from './middleware/error-handler';
import { API_BASE_PATH, loadOpenApi, openApiValidator, UNVALIDATED_PATHS } from './openapi';
import { authenticationGate } from './middleware/authentication-gate';
import { routeLookup, routeToArea } from './middleware/route-lookup';
import { answerUnknownRoutes } from './middleware/unknown-route';
import { inputGuard } from './middleware/input-guard';
import { queryAsText } from './middleware/query-text';
import { parseBodyLater, refuseUnreadableBody } from './middleware/deferred-body-errors';
import { requestId, requestLogContext } from './middleware/request-id';
import { corsPolicy, originCheck, originPolicy } from './middleware/cors';
import { docsRouter } from './docs/routes';
import { resetPasswordPage } from './pages/reset-password-page';
import { customerSignInPage } from './pages/customer-sign-in-page';
import { opsRouter } from './ops/routes';
import { Metrics } from './ops/metrics';
import { areaRouters } from './routes';
import { keepRawWebhookBody } from './billing/routes';
import { subscriptionGate } from './middleware/subscription-gate';
import { builtAssets, customerPages } from './pages/router';
import { serveAssets } from './pages/assets';

export interface AppOptions {
  /** check every response body against openapi.yaml (on in tests) */
  validateResponses?: boolean;
}

function keepRawBody(req: express.Request, _res: unknown, buf: Buffer): void {
  req.rawBody = buf;
}

export function createApp(deps: AppDeps, options: AppOptions = {}): express.Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  // no ETag hashed over every JSON body (an availability answer is ~80 kB): API answers change with the
  // bookings, and the image proxy and the built assets set their own validators
  app.set('etag', false);
  // Behind N proxies the client IP is the Nth address from the right of X-Forwarded-For; with 0 the
  // header is ignored (a client could otherwise pick its own rate-limit bucket).
  app.set('trust proxy', config.trustProxy > 0 ? config.trustProxy : false);
  app.locals[RATE_LIMIT_STORE_LOCAL] = deps.rateLimitStore;
  app.locals[COOKIE_SECURE_LOCAL] = cookiesAreSecure(config);
  const metrics = deps.metrics ?? new Metrics(deps.knex);
  app.use(requestId(deps.logger));
  app.use(queryAsText(API_BASE_PATH));
  app.use(metrics.middleware());
  app.use(securityHeaders());
  const origins = originPolicy({
    db: deps.knex,
    origins: config.corsOrigins,
    platformDomain: config.platformDomain,
    production: config.nodeEnv === 'production',
  });
  app.use(corsPolicy(origins, { maxAgeSeconds: config.corsMaxAgeSeconds }));
  // the customer pages' hashed, immutable files: served before the rate limiter (docs/rules/booking-page.md)
  const built = builtAssets();
  app.use('/assets', serveAssets(built));
  app.use(rateLimiter(config.rateLimit.global, config.rateLimit.windowMs, 'global'));
  // the contract's operation and the area routers' route of a request, matched once for all who ask
  const routers = areaRouters({ ...deps, metrics });
  const lookup = routeLookup(loadOpenApi(), routers, API_BASE_PATH);
  app.use(answerUnknownRoutes(lookup, { basePath: API_BASE_PATH, unvalidated: UNVALIDATED_PATHS }));
  app.use(cookieParser());
  // state-changing requests that carry the platform's cookies come from its own pages (docs/rules/security.md#browsers)
  app.use(originCheck(origins));
  // the exact bytes received are kept beside the parsed body: webhooks are verified over them
  // (docs/rules/payments.md#provider-webhooks) and the impersonation audit records their hash (docs/rules/auth.md#impersonation)
  app.use('/api/webhooks/subscription', ...keepRawWebhookBody());
  app.use(parseBodyLater(express.json({ limit: config.bodyLimit, verify: keepRawBody })));
  app.use('/api/webhooks', parseBodyLater(express.urlencoded({ extended: false, limit: config.bodyLimit, verify: keepRawBody })));
  app.use(requestLogContext());
  const sessions = { maxSeconds: config.sessionMaxSeconds, now: deps.now };
  app.use(authenticate(configurePassport(config.keys.accessToken, deps.knex, sessions)));
  app.use(authenticateCustomer(config.keys.accessToken, deps.knex, sessions));
  app.use(impersonationAudit(deps.knex, deps.logger));
  app.use(resolveTenant(config.platformDomain, deps.knex));
  app.use('/api', docsRouter());
  app.get('/reset-password', resetPasswordPage());
  app.get('/customer-sign-in', customerSignInPage(config.oidc));
  app.use(customerPages(deps, built));
  app.use(authenticationGate(lookup));
  app.use(subscriptionGate(deps.knex, deps.now));
  app.use(refuseUnreadableBody);
  app.use(inputGuard());
  app.use(openApiValidator({ validateResponses: options.validateResponses ?? false }));
  app.use('/api', opsRouter({ ...deps, metrics }));
  app.use('/api', routeToArea(lookup));
  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return app;
}
