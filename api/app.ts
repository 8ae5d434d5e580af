// The Express app: middleware order lives here and nowhere else. No listen(): bin/api.ts does that.
import express from 'express';
import helmet from 'helmet';
import cookieParser from 'cookie-parser';
import type { AppDeps } from './deps';
import { configurePassport, authenticate } from './middleware/authenticate';
import { resolveTenant } from './middleware/tenant-resolution';
import { rateLimiter } from './middleware/rate-limit';
import { errorHandler, notFoundHandler } from './middleware/error-handler';
import { loadOpenApi, openApiValidator } from './openapi';
import { authenticationGate } from './middleware/authentication-gate';
import { inputGuard } from './middleware/input-guard';
import { docsRouter } from './docs/routes';
import { areaRouters } from './routes';

export interface AppOptions {
  /** check every response body against openapi.yaml (on in tests) */
  validateResponses?: boolean;
}

export function createApp(deps: AppDeps, options: AppOptions = {}): express.Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.use(helmet({ contentSecurityPolicy: false }));
  app.use(cookieParser());
  app.use(rateLimiter(config.rateLimit.global, config.rateLimit.windowMs));
  app.use(express.json({ limit: config.bodyLimit }));
  app.use(authenticate(configurePassport(config.jwtSecret, deps.knex)));
  app.use(resolveTenant(config.platformDomain, deps.knex));
  app.use('/api', docsRouter());
  app.use(authenticationGate(loadOpenApi()));
  app.use(inputGuard());
  app.use(openApiValidator({ validateResponses: options.validateResponses ?? false }));
  for (const router of areaRouters(deps)) app.use('/api', router);
  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return app;
}
