// Every area's router, mounted under /api by app.ts. One line per area.
import type { Router } from 'express';
import type { AppDeps } from './deps';
import { healthRouter } from './health/routes';

export function areaRouters(deps: AppDeps): Router[] {
  return [healthRouter(deps)];
}
